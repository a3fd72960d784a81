import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { addLeadNote, deleteLeadNote } from "./lead-notes";
import { assignLeads, setLeadStatus } from "./lead-ownership";
import { actorOf, lead, makeTeam } from "./lead-ownership.fixtures";
import { findLeadTimeline, TIMELINE_LIMIT, type TimelineEntry } from "./lead-timeline";
import { insertJobs } from "../jobs/job-store";
import { assignedEmailJob } from "../notifications/assignment-email";
import { createEndpoint } from "../webhooks/webhook-endpoint-changes";

// A lead's timeline (lib/leads/lead-timeline.ts): its submissions, notes and the audit events
// about it, newest first, bounded, with the count of what is older.

await useTestDatabase();

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

/** An entry as [kind, what]: the channel, the note's text, the message's event type, the event's action. */
const describeEntry = (entry: TimelineEntry) =>
  entry.kind === "submission"
    ? ["submission", entry.submission.channel]
    : entry.kind === "note"
      ? ["note", entry.note.body]
      : entry.kind === "message"
        ? [`message:${entry.message.kind}`, entry.message.eventType]
        : ["event", entry.event.action];

test("submissions, notes and the lead's events, newest first; a note's own events are its entry, a deleted note's event stays", async () => {
  const { team, member, admin } = await makeTeam();
  const id = await lead(team.id);
  const other = await lead(team.id);
  await tick();
  await setLeadStatus({ teamId: team.id, leadIds: [id], status: "contacted", actor: actorOf(member) });
  await tick();
  const first = await addLeadNote({ teamId: team.id, leadId: id, body: "Left a message", actor: actorOf(member) });
  await tick();
  await assignLeads({ teamId: team.id, leadIds: [id], ownerId: member.id, actor: actorOf(admin) });
  await tick();
  const gone = await addLeadNote({ teamId: team.id, leadId: id, body: "Typo", actor: actorOf(member) });
  await tick();
  assert.ok(first.ok && gone.ok);
  await deleteLeadNote({ teamId: team.id, leadId: id, noteId: gone.noteId, actor: actorOf(member) });
  // Another lead's story is not this one's.
  await addLeadNote({ teamId: team.id, leadId: other, body: "Elsewhere", actor: actorOf(member) });
  await setLeadStatus({ teamId: team.id, leadIds: [other], status: "junk", actor: actorOf(member) });

  const timeline = await findLeadTimeline({ teamId: team.id, leadId: id });
  assert.deepEqual(timeline.entries.map(describeEntry), [
    ["event", "lead.note_deleted"],
    ["event", "lead.assigned"],
    ["note", "Left a message"],
    ["event", "lead.status_changed"],
    ["submission", "api"],
  ]);
  assert.equal(timeline.total, 5);
  assert.equal(timeline.older, 0);
  assert.equal(timeline.submissionCount, 1);
  // The people the events name, for their plain words.
  assert.equal(timeline.users.get(admin.id)?.email, admin.email);
  assert.equal(timeline.users.get(member.id)?.name, "Mia Member");
  const note = timeline.entries.find((entry) => entry.kind === "note");
  assert.equal(note?.kind === "note" ? note.note.author?.email : null, member.email);

  // Another team sees nothing of it.
  const stranger = await makeTeam();
  assert.deepEqual(await findLeadTimeline({ teamId: stranger.team.id, leadId: id }), {
    entries: [],
    total: 0,
    older: 0,
    submissions: [],
    submissionCount: 0,
    users: new Map(),
  });
});

test(`at most ${TIMELINE_LIMIT} entries, the newest, with the count of those older`, async () => {
  const { team, member } = await makeTeam();
  const id = await lead(team.id);
  const created = (await db().lead.findUniqueOrThrow({ where: { id }, select: { createdAt: true } })).createdAt.getTime();
  // 210 notes, a minute apart after the lead's creation, and one status change after them all.
  await db().leadNote.createMany({
    data: Array.from({ length: 210 }, (_, i) => ({
      teamId: team.id,
      leadId: id,
      authorId: member.id,
      body: `Note ${i + 1}`,
      createdAt: new Date(created + (i + 1) * 60_000),
    })),
  });
  await db().auditEvent.create({
    data: {
      teamId: team.id,
      action: "lead.status_changed",
      actorUserId: member.id,
      via: "web",
      targetId: id,
      details: { from: "new", to: "nurture" },
      createdAt: new Date(created + 300 * 60_000),
    },
  });
  const timeline = await findLeadTimeline({ teamId: team.id, leadId: id });
  assert.equal(timeline.entries.length, TIMELINE_LIMIT);
  assert.equal(timeline.total, 212, "210 notes, the event and the lead's first submission");
  assert.equal(timeline.older, 12);
  assert.deepEqual(timeline.entries.slice(0, 3).map(describeEntry), [
    ["event", "lead.status_changed"],
    ["note", "Note 210"],
    ["note", "Note 209"],
  ]);
  assert.deepEqual(describeEntry(timeline.entries.at(-1)!), ["note", "Note 12"]);
  const times = timeline.entries.map((entry) => entry.at.getTime());
  assert.deepEqual(
    times,
    [...times].sort((a, b) => b - a),
  );

  // A smaller bound: the same order, cut sooner.
  const five = await findLeadTimeline({ teamId: team.id, leadId: id, limit: 5 });
  assert.deepEqual(five.entries.map(describeEntry), timeline.entries.slice(0, 5).map(describeEntry));
  assert.equal(five.older, 207);
});

test("the webhook deliveries and emails sent about the lead, with where they stand; an endpoint named by its host only", async () => {
  const { team, owner, member } = await makeTeam();
  await createEndpoint({
    teamId: team.id,
    url: "https://hooks.example.test/services/T000/secret-token",
    description: null,
    events: ["lead.created", "lead.updated"],
    actor: actorOf(owner),
  });
  const id = await lead(team.id);
  const other = await lead(team.id, "Grace Hopper");
  await tick();
  await setLeadStatus({ teamId: team.id, leadIds: [id], status: "contacted", actor: actorOf(member) });
  await tick();
  await insertJobs([assignedEmailJob({ teamId: team.id, userId: member.id, leadId: id, at: new Date() })]);
  const created = await db().job.findFirstOrThrow({ where: { leadId: id, eventType: "lead.created" } });
  await db().job.update({ where: { id: created.id }, data: { state: "delivered", attempts: 1, finishedAt: new Date() } });

  const timeline = await findLeadTimeline({ teamId: team.id, leadId: id });
  assert.deepEqual(timeline.entries.map(describeEntry), [
    ["message:email", "lead.assigned"],
    // The same instant: what the change sent above the change.
    ["message:webhook", "lead.updated"],
    ["event", "lead.status_changed"],
    ["message:webhook", "lead.created"],
    ["submission", "api"],
  ]);
  const messages = timeline.entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
  assert.deepEqual(
    messages.map((message) => [message.state, message.endpointHost, message.userId]),
    [
      ["pending", null, member.id],
      ["pending", "hooks.example.test", null],
      ["delivered", "hooks.example.test", null],
    ],
  );
  assert.equal(timeline.users.get(member.id)?.email, member.email, "the email's recipient, for their name");
  assert.equal(timeline.total, 5);
  // The other lead's own lead.created is its story, not this one's.
  assert.deepEqual((await findLeadTimeline({ teamId: team.id, leadId: other })).entries.map(describeEntry), [
    ["message:webhook", "lead.created"],
    ["submission", "api"],
  ]);
});
