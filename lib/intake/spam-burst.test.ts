import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// The burst check at intake (issue 42, docs/spam.md "Burst"): more than the team's N leads
// in M minutes from one e-mail address, or from one visitor's address on a web form, sends
// the rest to the quarantine. The counts live in the rate limiter's counters (no database
// read); a key's server and a proxy's private address are not a visitor. Also: a blocked
// IPv6 range catches a sender the request context knows by its /64. On a real database
// (SQLite, and PostgreSQL in npm test's second pass).

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("./create-lead-request");
const { newForm, post } = await import("../web-forms/web-forms.fixtures");
const { createTeam } = await import("../teams/team-store");
const { addSpamListEntries } = await import("../spam/spam-list-store");
const { connect, deliver, tallyBody, tallySignature, FULL_NAME } = await import("./receive-delivery.fixtures");

mock.method(process.stderr, "write", () => true);

type Body = { success: boolean; lead_id: string; message: string };

let requests = 0;
let teams = 0;

async function keyOf(burst: { limit: number; minutes?: number }) {
  const team = await createTeam({ slug: `burst-${++teams}`, name: `Burst ${teams}` });
  await db().team.update({ where: { id: team.id }, data: { spamBurstLimit: burst.limit, spamBurstMinutes: burst.minutes ?? 10 } });
  const key = await createApiKey({ teamId: team.id, description: "Site" });
  await db().apiKey.update({ where: { id: key.keyId }, data: { spamChecks: true } });
  return { team, key };
}

async function send(key: { keyId: string; secret: string }, fields: Record<string, unknown>, ip = "198.51.100.7") {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": key.keyId, "x-api-secret": key.secret },
    body: JSON.stringify(fields),
  });
  const context = { requestId: `burst-${++requests}`, ip };
  const response = await createLeadFromRequest(request, context).catch((error: unknown) => errorResponse(error, context));
  return { status: response.status, body: (await response.json()) as Body };
}

const reasonsOf = async (id: string) =>
  ((await db().quarantinedLead.findUniqueOrThrow({ where: { id } })).reasons as { code: string; field: string }[]).map(
    (reason) => `${reason.code}:${reason.field}`,
  );

describe("a burst from one address goes to the quarantine", () => {
  test("with a limit of 2, the third lead from one address (whatever its case) is quarantined; another address is kept", async () => {
    const { team, key } = await keyOf({ limit: 2 });
    const first = await send(key, { name: "Ada Lovelace", email: "ada@example.com" });
    const second = await send(key, { name: "Ada Lovelace", email: "ADA@example.com" });
    const third = await send(key, { name: "Ada Lovelace", email: "ada@example.com " });
    const other = await send(key, { name: "Grace Hopper", email: "grace@example.com" });
    assert.deepEqual(
      [first, second, third, other].map(({ status, body }) => [status, body.success, body.message]),
      Array(4).fill([201, true, "Lead created successfully"]),
      "every post is answered as a kept lead",
    );
    assert.deepEqual(
      (await db().lead.findMany({ where: { teamId: team.id }, orderBy: { seq: "asc" } })).map((lead) => lead.id),
      [first.body.lead_id, second.body.lead_id, other.body.lead_id],
    );
    assert.deepEqual(await reasonsOf(third.body.lead_id), ["burst:email"]);
  });

  test("a key's server is not a visitor: many addresses from its one IP are all kept", async () => {
    const { team, key } = await keyOf({ limit: 1 });
    for (let i = 0; i < 3; i++) assert.equal((await send(key, { name: "Ada Lovelace", email: `ada${i}@example.com` })).status, 201);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 3);
    assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 0);
  });

  test("a limit of 0 turns the check off", async () => {
    const { team, key } = await keyOf({ limit: 0 });
    for (let i = 0; i < 3; i++) await send(key, { name: "Ada Lovelace", email: "ada@example.com" });
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 3);
  });

  test("teams count apart: one team's burst is not another's", async () => {
    const a = await keyOf({ limit: 1 });
    const b = await keyOf({ limit: 1 });
    await send(a.key, { name: "Ada Lovelace", email: "shared@example.com" });
    await send(b.key, { name: "Ada Lovelace", email: "shared@example.com" });
    assert.equal(await db().lead.count({ where: { teamId: { in: [a.team.id, b.team.id] } } }), 2);
  });
});

describe("a burst from one visitor on a web form goes to the quarantine", () => {
  async function formOf(limit: number) {
    const { team, formId } = await newForm({ challenge: false });
    await db().team.update({ where: { id: team.id }, data: { spamBurstLimit: limit } });
    return { team, formId };
  }

  test("with a limit of 2, the third post from one public address is quarantined, with a different e-mail address each time", async () => {
    const { team, formId } = await formOf(2);
    const answers = [];
    for (let i = 0; i < 3; i++)
      answers.push(await post(formId, { name: "Ada Lovelace", email: `ada${i}@example.com` }, { ip: "192.0.2.44" }));
    assert.deepEqual(
      answers.map((answer) => answer.status),
      [201, 201, 201],
    );
    const third = (await answers[2]!.json()) as Body;
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 2);
    assert.deepEqual(await reasonsOf(third.lead_id), ["burst:sender"]);
  });

  test("a loopback or private sender address (a proxy's) is not counted", async () => {
    const { team, formId } = await formOf(1);
    for (const ip of ["127.0.0.1", "127.0.0.1", "10.0.0.8", "10.0.0.8"]) {
      assert.equal((await post(formId, { name: "Ada Lovelace", email: `${ip}-${Math.random()}@example.com` }, { ip })).status, 201);
    }
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 4);
  });
});

describe("a form builder's retries of one submission count once", () => {
  test("with a limit of 2: one submission delivered five times, then two more of the same person: the first of those kept, the next a burst", async () => {
    const c = await connect("tally");
    await db().team.update({ where: { id: c.team.id }, data: { spamBurstLimit: 2, spamBurstMinutes: 10 } });
    const send = async (submissionId: string) => {
      const body = tallyBody([FULL_NAME], submissionId);
      const response = await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) });
      return { status: response.status, body: (await response.json()) as Body };
    };
    const attempts = [];
    for (let i = 0; i < 5; i++) attempts.push(await send("burst-first"));
    assert.deepEqual(
      attempts.map(({ status, body }) => [status, body.lead_id]),
      [[201, attempts[0]!.body.lead_id], ...Array(4).fill([200, attempts[0]!.body.lead_id])],
      "the retries are answered with the first attempt's lead",
    );
    const second = await send("burst-second");
    const third = await send("burst-third");
    assert.deepEqual([second.status, third.status], [201, 201]);
    assert.deepEqual(
      (await db().lead.findMany({ where: { teamId: c.team.id }, orderBy: { seq: "asc" } })).map((lead) => lead.id),
      [attempts[0]!.body.lead_id, second.body.lead_id],
      "the person's second submission is a lead: the first one's retries counted once",
    );
    assert.deepEqual(await reasonsOf(third.body.lead_id), ["burst:email"]);
  });
});

describe("a blocked IPv6 range", () => {
  test("catches a sender the request context knows by its /64", async () => {
    const { team, key } = await keyOf({ limit: 0 });
    await db().$transaction((tx) => addSpamListEntries(tx, team.id, [{ list: "blocked_ip", value: "2001:db8::/32" }], null));
    const blocked = await send(key, { name: "Ada Lovelace", email: "ada@example.com" }, "2001:db8:1:2::/64");
    const kept = await send(key, { name: "Grace Hopper", email: "grace@example.com" }, "2001:db9:1:2::/64");
    assert.deepEqual(await reasonsOf(blocked.body.lead_id), ["blocked_ip:ip"]);
    assert.equal(await db().lead.count({ where: { id: kept.body.lead_id } }), 1);
  });
});

describe("a check that cannot read what it needs is left out, never the lead", () => {
  test("the team's lists unreadable: a real lead is kept and a spam name still quarantined, each answered 201", async () => {
    const { team, key } = await keyOf({ limit: 0 });
    // The lists' version differs from any copy, and their table is gone: the read fails.
    await db().team.update({ where: { id: team.id }, data: { spamListsVersion: 99 } });
    await db().$executeRawUnsafe(`ALTER TABLE "SpamListEntry" RENAME TO "SpamListEntryAway"`);
    try {
      const real = await send(key, { name: "Ada Lovelace", email: "ada@example.com" });
      const spam = await send(key, { name: "Cheap SEO http://seo-offer.example", email: "seo@example.com" });
      assert.deepEqual([real.status, spam.status], [201, 201]);
      assert.equal(await db().lead.count({ where: { id: real.body.lead_id } }), 1);
      assert.deepEqual(await reasonsOf(spam.body.lead_id), ["link_in_name:name"]);
    } finally {
      await db().$executeRawUnsafe(`ALTER TABLE "SpamListEntryAway" RENAME TO "SpamListEntry"`);
    }
  });
});
