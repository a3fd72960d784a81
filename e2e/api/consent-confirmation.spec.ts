import { expect, test } from "@playwright/test";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { setFormConsent } from "../../lib/consent/consent-changes";
import { confirmationToken, newConfirmationId } from "../../lib/consent/confirmation-token";
import { db } from "../../lib/db/client";
import { createWebForm } from "../../lib/web-forms/web-form-changes";
import { BASE_URL, newTeam } from "../support/fixtures";

// The double opt-in link over real HTTP against `next start` (issue 46, step 2; docs/consent.md
// "Double opt-in"): GET shows and changes nothing, POST confirms once; a reused, forged,
// another team's or expired link is refused with its status and changes nothing; the
// one-click unsubscribe. The shared server sends no email (no SMTP_URL): the link is signed
// here with the same key (the server's DATA_DIR/secret.key), as its email job would. Held mode
// ("Create the lead only once confirmed"): no lead until the link's POST.

const SITE = "https://www.example.com";
const UA = "ConsentLinkTest/1.0";

/** A team's form asking consent with double opt-in; `hold`: "Create the lead only once confirmed". */
async function doubleOptInForm(hold = false) {
  const team = await newTeam();
  const formId = await createWebForm({
    teamId: team.id,
    settings: { name: "Newsletter", allowedOrigins: [SITE], sourceId: null, successUrl: null, challenge: false },
    createdById: null,
    actor: CLI_ACTOR,
  });
  const settings = { text: "Send me the newsletter.", purpose: "Newsletter", policyUrl: null, required: true };
  expect(await setFormConsent({ teamId: team.id, formId, settings, doubleOptIn: true, hold, actor: CLI_ACTOR })).toBe(true);
  const version = await db().webForm.findUniqueOrThrow({ where: { id: formId }, select: { consentVersionId: true } });
  return { team, formId, versionId: version.consentVersionId! };
}

function submit(formId: string, versionId: string) {
  return fetch(`${BASE_URL}/api/forms/${formId}`, {
    method: "POST",
    headers: { origin: SITE, accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      name: "Ada Lovelace",
      email: "ada@example.com",
      consent: "yes",
      consent_version: versionId,
    }),
  });
}

async function pendingLead() {
  const { team, formId, versionId } = await doubleOptInForm();
  const response = await submit(formId, versionId);
  expect(response.status).toBe(201);
  const { lead_id: leadId } = (await response.json()) as { lead_id: string };
  const row = await db().consentConfirmation.findFirstOrThrow({ where: { leadId } });
  const link = `${BASE_URL}/api/consent/${team.slug}/${confirmationToken(row.id)}`;
  return { team, leadId, row, link };
}

const statuses = async (leadId: string) =>
  (await db().leadConsent.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } })).map((item) => item.status);

test("GET shows the team and a Confirm button and changes nothing; POST confirms once, with the browser's user agent", async () => {
  const { team, leadId, link } = await pendingLead();
  const shown = await fetch(link, { headers: { "user-agent": UA } });
  expect(shown.status).toBe(200);
  expect(shown.headers.get("content-type")).toContain("text/html");
  expect(shown.headers.get("cache-control")).toBe("no-store");
  expect(shown.headers.get("content-security-policy")).toContain("default-src 'none'");
  const html = await shown.text();
  expect(html).toContain(team.name);
  expect(html).toContain('<button type="submit">Confirm</button>');
  expect(await statuses(leadId)).toEqual(["pending"]);

  const confirmed = await fetch(link, { method: "POST", headers: { "user-agent": UA } });
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toContain("your consent is confirmed");
  expect(await statuses(leadId)).toEqual(["pending", "confirmed"]);
  const evidence = await db().leadConsent.findFirstOrThrow({ where: { leadId, status: "confirmed" } });
  expect(evidence.userAgent).toBe(UA);
  expect(evidence.ip).toBeTruthy();

  const reused = await fetch(link, { method: "POST", headers: { "user-agent": UA } });
  expect(reused.status).toBe(409);
  expect(await reused.text()).toContain("Already confirmed");
  expect((await fetch(link)).status).toBe(409);
  expect(await statuses(leadId)).toEqual(["pending", "confirmed"]);
  expect((await fetch(link, { method: "PUT" })).status).toBe(405);
});

test("a forged link, an unknown one, another team's, or an expired one is refused and changes nothing", async () => {
  const { leadId, row, link } = await pendingLead();
  const other = await newTeam();
  const forged = link.replace(/\.[^.]+$/, `.${"A".repeat(43)}`);
  const unknown = link.replace(/[^/]+$/, confirmationToken(newConfirmationId()));
  const otherTeams = link.replace(/\/api\/consent\/[^/]+\//, `/api/consent/${other.slug}/`);
  for (const address of [forged, unknown, otherTeams, `${link}x`]) {
    for (const method of ["GET", "POST"]) {
      const refused = await fetch(address, { method });
      expect(refused.status, `${method} ${address}`).toBe(404);
      expect(await refused.text()).toContain("This link is not valid");
    }
  }
  // Expiry on the app's clock is lib/consent/double-opt-in.test.ts'; here the row's time has passed.
  await db().consentConfirmation.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1_000) } });
  const expired = await fetch(link, { method: "POST" });
  expect(expired.status).toBe(410);
  expect(await expired.text()).toContain("This link has expired");
  expect(await statuses(leadId)).toEqual(["pending"]);
});

test("the one-click unsubscribe (RFC 8058) records the withdrawal once; its GET shows a button and changes nothing", async () => {
  const { leadId, link } = await pendingLead();
  const page = await fetch(`${link}/unsubscribe`);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain("Withdraw");
  expect(await statuses(leadId)).toEqual(["pending"]);
  const oneClick = () =>
    fetch(`${link}/unsubscribe`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
  expect((await oneClick()).status).toBe(200);
  expect((await oneClick()).status).toBe(200);
  expect(await statuses(leadId)).toEqual(["pending", "withdrawn"]);
});

test("held mode: the post is answered as received, no lead until the link is confirmed, then one lead", async () => {
  const { team, formId, versionId } = await doubleOptInForm(true);
  const response = await submit(formId, versionId);
  expect(response.status).toBe(201);
  expect(((await response.json()) as { lead_id: string | null }).lead_id).toBeNull();
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(0);
  const held = await db().heldSubmission.findFirstOrThrow({ where: { teamId: team.id } });
  expect(held.sealed).not.toContain("ada@example.com");
  const link = `${BASE_URL}/api/consent/${team.slug}/${confirmationToken(held.id)}`;
  const shown = await fetch(link, { headers: { "user-agent": UA } });
  expect(shown.status).toBe(200);
  expect(await shown.text()).toContain('<button type="submit">Confirm</button>');
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(0);

  const confirmed = await fetch(link, { method: "POST", headers: { "user-agent": UA } });
  expect(confirmed.status).toBe(200);
  expect(await confirmed.text()).toContain("your consent is confirmed");
  const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id } });
  expect(lead.email).toBe("ada@example.com");
  expect(await statuses(lead.id)).toEqual(["pending", "confirmed"]);
  expect(await db().heldSubmission.count({ where: { teamId: team.id } })).toBe(0);
  expect((await fetch(link, { method: "POST" })).status).toBe(409);
  expect(await db().lead.count({ where: { teamId: team.id } })).toBe(1);
});
