import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import fc from "fast-check";

// One person, one lead (issue 41, step 2; docs/leads.md "Repeat submissions"): on a channel
// set to "add", a submission whose email or number matches a lead of the team from the
// window joins that lead (200 "Lead updated successfully", that lead's id), fills its empty
// fields and replaces nothing, and is kept as one of its submissions. On a real database
// (SQLite, and PostgreSQL in npm test's second pass), through create_lead's use case, a web
// form's and a connection's.
process.env.FORM_CHALLENGE_COST = "1";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { FULL_NAME, connect, deliver, tallyBody, tallySignature } = await import("./receive-delivery.fixtures");
const { makeTeam } = await import("../imports/lead-import.fixtures");
const { lastLeadNumber } = await import("../leads/lead-number-store");

// Refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

type Answer = { status: number; body: { success: boolean; lead_id: string; message: string } };
type Key = { keyId: string; secret: string };

let requests = 0;
async function send(key: Key, fields: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Answer> {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret, ...headers },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `repeat-${++requests}`, ip: "198.51.100.1" };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

/** A team (default country GB, window `windowDays`) and an API key of it set to `repeats`. */
async function keyOf(options: { repeats?: "add" | "new"; windowDays?: number } = {}) {
  const team = await makeTeam();
  if (options.windowDays !== undefined) await db().team.update({ where: { id: team.id }, data: { repeatWindowDays: options.windowDays } });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { repeats: options.repeats ?? "add" } });
  return { team, key };
}

const leadsOf = (teamId: string) => db().lead.findMany({ where: { teamId }, orderBy: { seq: "asc" } });
const submissionsOf = (leadId: string) => db().leadSubmission.findMany({ where: { leadId }, orderBy: { createdAt: "asc" } });
const DAY = 24 * 60 * 60 * 1000;

describe('a repeat submission on an "add" key joins the person\'s lead', () => {
  test("matched by email, case and spaces aside: 200, the same lead id, empty fields filled, nothing replaced, the submission kept", async () => {
    const { team, key } = await keyOf();
    const first = await send(key, { name: "Ada", email: "ada@example.com", job_title: "Countess", colour: "green" });
    assert.equal(first.status, 201);
    assert.equal(first.body.message, "Lead created successfully");
    const again = await send(key, {
      name: "Ada Lovelace",
      email: "  ADA@Example.com ",
      job_title: "Programmer",
      phone: "not a number",
      mobile_no: "07911 123456",
      colour: "blue",
      engine: "analytical",
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, {
      success: true,
      lead_id: first.body.lead_id,
      message: "Lead updated successfully (skipped invalid fields: phone)",
    });
    const [lead, ...others] = await leadsOf(team.id);
    assert.equal(others.length, 0, "one lead");
    assert.equal(lead!.firstName, "Ada");
    assert.equal(lead!.lastName, "Lovelace", "an empty field is filled");
    assert.equal(lead!.nameKey, "ada lovelace", "its search keys follow");
    assert.equal(lead!.lastNameKey, "lovelace");
    assert.equal(lead!.jobTitle, "Countess", "a field it has is kept");
    assert.equal(lead!.mobileNo, "+447911123456");
    assert.equal(lead!.mobileNational, "7911123456");
    assert.equal(lead!.phone, null, "a skipped phone fills nothing");
    assert.deepEqual(lead!.extraFields, { colour: "green", engine: "analytical" }, "missing extra fields added, none replaced");
    assert.ok(lead!.returnedAt, "it returned");
    const submissions = await submissionsOf(lead!.id);
    assert.equal(submissions.length, 2);
    const second = submissions[1]!;
    assert.equal(second.channel, "api");
    assert.equal(second.apiKeyId, key.keyId);
    assert.match(second.id, /^sub_[0-9a-f]{32}$/);
    assert.equal(second.createdAt.getTime(), lead!.returnedAt!.getTime());
    assert.deepEqual(second.skipped, ["phone"]);
    const sent = second.fields as Record<string, unknown>;
    assert.deepEqual([sent.email, sent.job_title, sent.phone], ["  ADA@Example.com ".trim(), "Programmer", "not a number"]);
    assert.deepEqual(sent.extra_fields, { colour: "blue", engine: "analytical" }, "what it sent stays visible in the submission");
    const log = await db().apiRequest.findMany({ where: { apiKeyId: key.keyId }, orderBy: { id: "asc" } });
    assert.deepEqual(
      log.map((row) => [row.status, row.leadId]),
      [
        [201, lead!.id],
        [200, lead!.id],
      ],
    );
  });

  test("matched by number: a national number against the lead's E.164 mobile; its empty email filled and then searchable", async () => {
    const { team, key } = await keyOf();
    const first = await send(key, { name: "Grace Hopper", mobile_no: "+44 7911 123456" });
    const again = await send(key, { name: "Grace Hopper", phone: "07911 123456", email: "Grace@Example.com" });
    assert.deepEqual([again.status, again.body.lead_id], [200, first.body.lead_id]);
    const [lead, ...others] = await leadsOf(team.id);
    assert.equal(others.length, 0);
    assert.deepEqual(
      [lead!.email, lead!.emailKey, lead!.phone, lead!.mobileNo],
      ["Grace@Example.com", "grace@example.com", "+447911123456", "+447911123456"],
    );
    const byEmail = await send(key, { name: "G. Hopper", email: "grace@example.com" });
    assert.deepEqual([byEmail.status, byEmail.body.lead_id], [200, first.body.lead_id], "the filled email now matches");
  });

  test("among several leads: the most recent with the email, before any with the number", async () => {
    const { team, key } = await keyOf();
    const plain = await createApiKey({ teamId: team.id, description: "Plain" });
    const byEmailOld = await send(plain, { name: "Old", email: "p@example.com" });
    const byEmailNew = await send(plain, { name: "New", email: "p@example.com" });
    const byPhoneNewest = await send(plain, { name: "Phone", phone: "+447400123456" });
    assert.equal(new Set([byEmailOld, byEmailNew, byPhoneNewest].map((a) => a.body.lead_id)).size, 3, 'a "new" key made three leads');
    const answer = await send(key, { name: "P", email: "p@example.com", phone: "+447400123456" });
    assert.deepEqual([answer.status, answer.body.lead_id], [200, byEmailNew.body.lead_id]);
    const byPhone = await send(key, { name: "P", phone: "07400 123456" });
    assert.deepEqual([byPhone.status, byPhone.body.lead_id], [200, byPhoneNewest.body.lead_id]);
  });

  test("the window: a lead last submitted before it does not match, one that returned within it does; 0 never adds", async () => {
    const { team, key } = await keyOf({ windowDays: 30 });
    const old = await send(key, { name: "Old", email: "old@example.com" });
    await db().lead.update({ where: { id: old.body.lead_id }, data: { createdAt: new Date(Date.now() - 31 * DAY) } });
    const fresh = await send(key, { name: "Old", email: "old@example.com" });
    assert.equal(fresh.status, 201, "outside the window: a new lead");
    assert.notEqual(fresh.body.lead_id, old.body.lead_id);

    const back = await send(key, { name: "Back", email: "back@example.com" });
    await db().lead.update({
      where: { id: back.body.lead_id },
      data: { createdAt: new Date(Date.now() - 400 * DAY), returnedAt: new Date(Date.now() - 29 * DAY) },
    });
    const joined = await send(key, { name: "Back", email: "back@example.com" });
    assert.deepEqual([joined.status, joined.body.lead_id], [200, back.body.lead_id], "its last submission is in the window");

    await db().team.update({ where: { id: team.id }, data: { repeatWindowDays: 0 } });
    const never = await send(key, { name: "Back", email: "back@example.com" });
    assert.equal(never.status, 201, "a window of 0 never adds");
    assert.equal((await leadsOf(team.id)).length, 4);
  });

  test('never matched: another team\'s lead with the same email, a submission with neither email nor number, a "new" key', async () => {
    const other = await keyOf();
    const mine = await keyOf();
    const theirs = await send(other.key, { name: "Ada", email: "shared@example.com", phone: "+447911000999" });
    const made = await send(mine.key, { name: "Ada", email: "shared@example.com", phone: "+447911000999" });
    assert.equal(made.status, 201, "the other team's lead is not this team's");
    assert.notEqual(made.body.lead_id, theirs.body.lead_id);
    const a = await send(mine.key, { name: "Nobody", organization: "Acme" });
    const b = await send(mine.key, { name: "Nobody", organization: "Acme" });
    assert.deepEqual([a.status, b.status], [201, 201], "no email, no number: nothing to match");
    const plain = await keyOf({ repeats: "new" });
    const c = await send(plain.key, { name: "Ada", email: "ada@example.com" });
    const d = await send(plain.key, { name: "Ada", email: "ada@example.com" });
    assert.deepEqual(
      [c.status, d.status, c.body.message, d.body.message],
      [201, 201, "Lead created successfully", "Lead created successfully"],
    );
    assert.notEqual(c.body.lead_id, d.body.lead_id);
  });

  test("an invalid email is refused as before, never matched; a Junk lead still takes the person back", async () => {
    const { team, key } = await keyOf();
    const first = await send(key, { name: "Ada", email: "ada@example.com" });
    const refused = await send(key, { name: "Ada", email: "ada@" });
    assert.equal(refused.status, 422);
    await db().lead.update({ where: { id: first.body.lead_id }, data: { status: "junk" } });
    const again = await send(key, { name: "Ada", email: "ada@example.com" });
    assert.deepEqual([again.status, again.body.lead_id], [200, first.body.lead_id]);
    const [lead] = await leadsOf(team.id);
    assert.equal(lead!.status, "junk", "its status stays");
  });

  test("a submission that only repeats what the lead has still counts as a submission; the owner stays; no new lead number is taken", async () => {
    const { team, key } = await keyOf();
    const member = await db().user.create({ data: { email: `owner-${team.id}@example.com`, passwordHash: "x" } });
    await db().membership.create({ data: { teamId: team.id, userId: member.id, role: "member" } });
    const first = await send(key, { name: "Ada", email: "ada@example.com" });
    await db().lead.update({ where: { id: first.body.lead_id }, data: { ownerId: member.id } });
    const counter = await lastLeadNumber(db());
    const again = await send(key, { name: "Ada", email: "ada@example.com" });
    assert.equal(again.status, 200);
    assert.equal((await submissionsOf(first.body.lead_id)).length, 2);
    const [lead] = await leadsOf(team.id);
    assert.equal(lead!.ownerId, member.id);
    assert.equal(await lastLeadNumber(db()), counter);
  });

  test("an Idempotency-Key retry of an added submission replays its 200 and adds nothing", async () => {
    const { key } = await keyOf();
    const first = await send(key, { name: "Ada", email: "ada@example.com" });
    const once = await send(key, { name: "Ada", email: "ada@example.com", job_title: "Countess" }, { "idempotency-key": "k-1" });
    const twice = await send(key, { name: "Ada", email: "ada@example.com", job_title: "Countess" }, { "idempotency-key": "k-1" });
    assert.deepEqual(once, { status: 200, body: { success: true, lead_id: first.body.lead_id, message: "Lead updated successfully" } });
    assert.deepEqual(twice, once);
    assert.equal((await submissionsOf(first.body.lead_id)).length, 2);
  });

  test("twenty submissions of one new person at once make one lead (one 201, nineteen 200) and twenty submissions", async () => {
    const { team, key } = await keyOf();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(key, { name: "Burst Person", email: "burst@example.com", [`answer_${i}`]: `${i}` })),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, ...Array(18).fill(200), 201].sort());
    const [lead, ...others] = await leadsOf(team.id);
    assert.equal(others.length, 0);
    assert.ok(answers.every((a) => a.body.lead_id === lead!.id));
    assert.equal((await submissionsOf(lead!.id)).length, 20);
    assert.equal(Object.keys(lead!.extraFields as object).length, 20, "each submission's own extra field added");
  });
});

describe("fill empty, never replace (lib/leads/fill-empty.ts, shared with the import)", () => {
  test("generated pairs of submissions: every field the lead had is kept; every empty one takes the repeat's value", async () => {
    const { team, key } = await keyOf();
    const value = fc.option(fc.constantFrom("A", "b", "Ç c"), { nil: undefined });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({ job_title: value, territory: value, industry: value, utm_source: value, last: value }),
        fc.record({ job_title: value, territory: value, industry: value, utm_source: value, last: value }),
        async (before, after) => {
          const email = `p${++n}-${team.id}@example.com`;
          const body = (fields: typeof before) => ({
            name: fields.last ? `Pat ${fields.last}` : "Pat",
            email,
            ...Object.fromEntries(Object.entries(fields).filter(([name, v]) => name !== "last" && v !== undefined)),
          });
          const first = await send(key, body(before));
          const again = await send(key, body(after));
          assert.equal(again.status, 200);
          const lead = await db().lead.findUniqueOrThrow({ where: { id: first.body.lead_id } });
          for (const [name, column] of [
            ["job_title", "jobTitle"],
            ["territory", "territory"],
            ["industry", "industry"],
            ["utm_source", "utmSource"],
          ] as const) {
            assert.equal(lead[column], before[name] ?? after[name] ?? null, name);
          }
          assert.equal(lead.lastName, before.last ?? after.last ?? null);
        },
      ),
      { numRuns: 25 },
    );
  });
});

describe("the other channels answer an added submission the same way", () => {
  test("a web form set to add: 200 and the person's lead; a form set to new: 201", async () => {
    const { team, formId } = await newForm({ challenge: false });
    await db().webForm.update({ where: { id: formId }, data: { repeats: "add" } });
    const first = await post(formId, { name: "Grace Hopper", email: "grace@example.com" });
    const again = await post(formId, { name: "Grace Hopper", email: "grace@example.com", message: "Back again" });
    assert.equal(first.status, 201);
    const [a, b] = [(await first.json()) as Answer["body"], (await again.json()) as Answer["body"]];
    assert.equal(again.status, 200);
    assert.deepEqual(b, { success: true, lead_id: a.lead_id, message: "Lead updated successfully" });
    assert.equal((await submissionsOf(a.lead_id)).length, 2);
    await db().webForm.update({ where: { id: formId }, data: { repeats: "new" } });
    const third = await post(formId, { name: "Grace Hopper", email: "grace@example.com" });
    assert.equal(third.status, 201);
    assert.equal((await leadsOf(team.id)).length, 2);
  });

  test("a connection set to add: 200 and the person's lead; the builder's retry of that submission is answered the same", async () => {
    const c = await connect("tally", "add");
    const signed = (body: string) => ({ "tally-signature": tallySignature(body, c.signingSecret!) });
    const first = tallyBody([FULL_NAME], "rep1");
    const second = tallyBody([FULL_NAME], "rep2");
    const made = await deliver(c.token, first, signed(first));
    const added = await deliver(c.token, second, signed(second));
    const retried = await deliver(c.token, second, signed(second));
    assert.deepEqual([made.status, added.status, retried.status], [201, 200, 200]);
    const [m, a, r] = [
      (await made.json()) as Answer["body"],
      (await added.json()) as Answer["body"],
      (await retried.json()) as Answer["body"],
    ];
    assert.deepEqual(a, { success: true, lead_id: m.lead_id, message: "Lead updated successfully" });
    assert.deepEqual(r, a);
    assert.equal(retried.headers.get("idempotent-replayed"), "true");
    assert.equal((await submissionsOf(m.lead_id)).length, 2);
    const log = await db().connectionDelivery.findMany({ where: { connectionId: c.id }, orderBy: { createdAt: "asc" } });
    assert.deepEqual(
      log.map((row) => [row.submissionId, row.status, row.leadId]),
      [
        ["rep1", 201, m.lead_id],
        ["rep2", 200, m.lead_id],
      ],
    );
  });
});
