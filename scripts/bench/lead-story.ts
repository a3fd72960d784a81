import { randomBytes } from "node:crypto";
import { createApiKey } from "../../lib/api-keys/api-key-changes";
import { insertJobs } from "../../lib/jobs/job-store";
import { addLeadNote } from "../../lib/leads/lead-notes";
import { assignLeads, setLeadStatus } from "../../lib/leads/lead-ownership";
import { LEAD_STATUSES } from "../../lib/leads/lead-status";
import { assignedEmailJob } from "../../lib/notifications/assignment-email";
import { addMember, createTeam } from "../../lib/teams/team-store";
import { createUser } from "../../lib/users/user-store";
import { WEBHOOK_EVENTS } from "../../lib/webhooks/lead-created-event";
import { createEndpoint } from "../../lib/webhooks/webhook-endpoint-changes";
import { drainJobs, startReceiver } from "./webhook";

// The lead page row of `npm run bench` (issue 41): one lead with a long story, its page
// measured signed in. Everything on it is written the way the app writes it: its 200
// submissions through create_lead on a key set to "add" (the first makes the lead, 201; the
// others join it, 200), each with answers and UTM of its own, and between them
// members' notes (addLeadNote), status and owner changes (setLeadStatus, assignLeads: their
// audit events and lead.updated deliveries), the webhook deliveries of a team endpoint
// subscribed to every event (delivered to a local receiver), and assignment emails (the
// outbox row assignLeads writes when SMTP is configured; the bench server has no SMTP, so
// its dispatcher ends them "failed", as any server without SMTP does).

export const STORY_SUBMISSIONS = 200;

export type LeadStory = {
  slug: string;
  teamId: string;
  leadId: string;
  /** A lead of the same team with one submission (and its webhook delivery): the page's cost without a story. */
  singleLeadId: string;
  /** What the lead's timeline holds, by kind. */
  counts: { submissions: number; notes: number; events: number; webhooks: number; emails: number };
};

const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";

/** One person's `i`th submission: the same email and number each time, the answers and UTM of that visit. */
function storyBody(i: number): string {
  return JSON.stringify({
    name: "Ada Lovelace",
    email: "ada.story@example.com",
    phone: "+44 7911 123456",
    organization: i === 0 ? "" : "Analytical Engines Ltd",
    utm_source: ["google", "newsletter", "linkedin", "partner"][i % 4],
    utm_campaign: `campaign-${i % 13}`,
    // The forms' own questions: five of them, answered anew each time (the lead keeps the first answers).
    [`question_${i % 5}`]: `Answer number ${i} to the form's question, a sentence long as people write them.`,
    message: `Visit ${i}: please call me back about pricing for the team.`,
  });
}

export async function seedLeadStory(options: {
  baseUrl: string;
  ownerUserId: string;
}): Promise<LeadStory & { close: () => Promise<void> }> {
  const { baseUrl, ownerUserId } = options;
  const team = await createTeam({ slug: "bench-story", name: "Bench lead story", ownerUserId, defaultPhoneCountry: "GB" });
  const members: string[] = [];
  for (const name of ["Mia Member", "Otto Other"]) {
    const user = await createUser({
      email: `bench-story-${randomBytes(4).toString("hex")}@example.com`,
      password: randomBytes(16).toString("hex"),
      name,
    });
    await addMember({ teamId: team.id, userId: user.id, role: "member" });
    members.push(user.id);
  }
  const receiver = await startReceiver();
  const actor = { userId: ownerUserId, ip: null, via: "web" as const };
  await createEndpoint({ teamId: team.id, url: receiver.url, description: "bench receiver", events: [...WEBHOOK_EVENTS], actor });
  const key = await createApiKey({ teamId: team.id, description: "npm run bench (lead story)", repeats: "add" });
  const headers = { "X-API-Key": key.keyId, "X-API-Secret": key.secret, "content-type": "application/json" };

  const counts = { submissions: 0, notes: 0, events: 0, webhooks: 0, emails: 0 };
  let leadId = "";
  const statuses = LEAD_STATUSES.filter((status) => status !== "new");
  for (let i = 0; i < STORY_SUBMISSIONS; i++) {
    const response = await fetch(`${baseUrl}${CREATE_LEAD}`, { method: "POST", headers, body: storyBody(i) });
    const answer = (await response.json()) as { lead_id?: string };
    if (response.status !== (i === 0 ? 201 : 200) || !answer.lead_id || (leadId && answer.lead_id !== leadId)) {
      throw new Error(`Submission ${i} of the lead story answered ${response.status} ${JSON.stringify(answer)}`);
    }
    leadId = answer.lead_id;
    counts.submissions++;
    // After each submission one of: a note (two times in five), a status change, an owner change, an email.
    const leadIds = [leadId];
    switch (i % 5) {
      case 0:
      case 2: {
        const note = await addLeadNote({ teamId: team.id, leadId, body: `Called back (${i}).\nThey want a quote for 40 seats.`, actor });
        if (!note.ok) throw new Error(`A note was refused: ${note.error}`);
        counts.notes++;
        break;
      }
      case 1: {
        const changed = await setLeadStatus({ teamId: team.id, leadIds, status: statuses[Math.floor(i / 5) % statuses.length]!, actor });
        if (!changed.ok || changed.changed.length !== 1) throw new Error(`A status change was refused: ${JSON.stringify(changed)}`);
        counts.events++;
        break;
      }
      case 3: {
        const assigned = await assignLeads({ teamId: team.id, leadIds, ownerId: members[((i - 3) / 5) % 2]!, actor });
        if (!assigned.ok || assigned.changed.length !== 1) throw new Error(`An assignment was refused: ${JSON.stringify(assigned)}`);
        counts.events++;
        break;
      }
      default: {
        // What assignLeads queues for the new owner when SMTP is configured.
        await insertJobs([assignedEmailJob({ teamId: team.id, userId: members[i % 2]!, leadId, at: new Date() })]);
        counts.emails++;
      }
    }
  }
  // Beside it, for comparison, a lead of one submission (another person), its page's fixed cost.
  const single = await fetch(`${baseUrl}${CREATE_LEAD}`, {
    method: "POST",
    headers,
    body: storyBody(0).replace("ada.story@", "grace.single@").replace("7911 123456", "7911 654321"),
  });
  const singleLeadId = ((await single.json()) as { lead_id?: string }).lead_id;
  if (single.status !== 201 || !singleLeadId) throw new Error(`The one-submission lead answered ${single.status}`);
  await drainJobs(120, { teamId: team.id });
  // Every submission (lead.created, then lead.submitted) and every change (lead.updated) is a delivery; one more
  // is the single lead's lead.created.
  counts.webhooks = (await receiver.received()) - 1;
  return { slug: team.slug, teamId: team.id, leadId, singleLeadId, counts, close: receiver.close };
}
