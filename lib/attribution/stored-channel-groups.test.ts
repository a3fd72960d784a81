import assert from "node:assert/strict";
import { mock, test } from "node:test";

// A lead's channel groups on its row (issue 43, docs/attribution.md): derived from its fields
// on every path that writes a lead (create_lead, a repeat that joins it, a CSV import), and
// given to leads stored before once at start. On a real database (SQLite, and PostgreSQL in
// npm test's second pass).

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { createApiKey } = await import("../api-keys/api-key-changes");
const { sendCreateLead } = await import("../intake/create-lead.fixtures");
const { makeTeam, run, upload } = await import("../imports/lead-import.fixtures");
const { deriveExistingAttribution } = await import("../setup/derive-attribution");
const { attributionRows } = await import("./attribution-rows");

mock.method(process.stderr, "write", () => true);

const groupsOf = (id: string) => db().lead.findUniqueOrThrow({ where: { id }, select: { channelGroup: true, firstChannelGroup: true } });

async function keyOf(repeats: "add" | "new" = "new") {
  const team = await makeTeam();
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { repeats } });
  return { team, key };
}

async function created(key: { keyId: string; secret: string }, fields: Record<string, unknown>): Promise<string> {
  const response = await sendCreateLead(key, fields);
  const body = (await response.json()) as { lead_id: string };
  assert.ok(response.status === 201 || response.status === 200, `${response.status}`);
  return body.lead_id;
}

test("create_lead stores the last touch's and the first touch's group; the fields stay as sent", async () => {
  const { key } = await keyOf();
  const fields = {
    name: "Ada Lovelace",
    utm_source: "newsletter",
    utm_medium: "email",
    first_utm_source: "google",
    first_utm_medium: "cpc",
    first_gclid: "Cj0K",
    first_landing_page: "https://acme.example/?utm_source=google",
  };
  const id = await created(key, fields);
  assert.deepEqual(await groupsOf(id), { channelGroup: "Email", firstChannelGroup: "Paid Search" });
  const stored = await db().lead.findUniqueOrThrow({ where: { id }, select: { extraFields: true, utmSource: true } });
  assert.equal(stored.utmSource, "newsletter");
  assert.deepEqual(stored.extraFields, {
    first_utm_source: "google",
    first_utm_medium: "cpc",
    first_gclid: "Cj0K",
    first_landing_page: "https://acme.example/?utm_source=google",
  });
  assert.deepEqual(await groupsOf(await created(key, { name: "Direct Visitor" })), { channelGroup: "Direct", firstChannelGroup: "Direct" });
  assert.deepEqual(await groupsOf(await created(key, { name: "Clicked An Ad", msclkid: "m-1" })), {
    channelGroup: "Paid Search",
    firstChannelGroup: "Paid Search",
  });
});

test("a repeat submission that fills the lead's empty UTM fields derives its groups again", async () => {
  const { key } = await keyOf("add");
  const id = await created(key, { name: "Grace Hopper", email: "grace@example.com" });
  assert.deepEqual(await groupsOf(id), { channelGroup: "Direct", firstChannelGroup: "Direct" });
  assert.equal(await created(key, { name: "Grace Hopper", email: "grace@example.com", utm_source: "facebook", utm_medium: "paid" }), id);
  assert.deepEqual(await groupsOf(id), { channelGroup: "Paid Social", firstChannelGroup: "Paid Social" });
});

test("a CSV import derives them from its columns: the UTM fields and attribution extra fields", async () => {
  const team = await makeTeam();
  const csv =
    "name,utm_source,utm_medium,first_referrer,landing_page\nLin Imported,partner.example,referral,https://www.google.com/,https://acme.example/\n";
  const { record, proposed } = await upload(team.id, csv);
  const done = await run(record, { mapping: proposed });
  assert.equal(done.createdCount, 1);
  const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id }, select: { channelGroup: true, firstChannelGroup: true } });
  assert.deepEqual(lead, { channelGroup: "Referral", firstChannelGroup: "Organic Search" });
});

test("leads stored before get theirs once at start; the lead page shows both touches", async () => {
  const { key } = await keyOf();
  const id = await created(key, { name: "Old Lead", utm_source: "linkedin", utm_medium: "social", first_referrer: "https://t.co/x" });
  await db().lead.update({ where: { id }, data: { channelGroup: "Direct", firstChannelGroup: "Direct" } });
  assert.ok((await deriveExistingAttribution()) >= 1);
  assert.deepEqual(await groupsOf(id), { channelGroup: "Organic Social", firstChannelGroup: "Organic Social" });
  await db().lead.update({ where: { id }, data: { channelGroup: "Direct" } });
  assert.equal(await deriveExistingAttribution(), 0, "it runs once");

  const lead = await db().lead.findUniqueOrThrow({ where: { id } });
  const rows = Object.fromEntries(attributionRows(lead));
  assert.equal(rows["Channel group"], "Direct", "the page shows the stored group");
  assert.equal(rows["First touch"], "Organic Social: t.co / referral");
  assert.equal(rows["First referrer"], "https://t.co/x");
});
