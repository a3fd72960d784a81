import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, mock, test } from "node:test";

// A connection's budget and its refusal rows (lib/web-forms/form-limits.ts
// spendConnectionBudget, lib/intake/receive-delivery.ts, docs/connections.md "The endpoint"):
// CONNECTION_DELIVERIES_PER_CONNECTION per window for each connection, 429 with Retry-After
// beyond it (the builders retry), another connection untouched; and floods of bodiless
// refusals written as the request log writes them, while a refusal whose body was read is
// always kept. Time moves on the app's test clock.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "12";
// Behind one proxy, so that posts from several addresses can be told apart.
process.env.TRUST_PROXY_HOPS = "1";
const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "connection-limits-")), "clock");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
const setClock = (iso: string) => writeFileSync(clockFile, iso);
setClock("2026-11-26T10:00:00.000Z");

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { INVALID_SIGNATURE } = await import("./receive-delivery");
const { RATE_LIMITED } = await import("../rate-limit/abuse-limits");
const { CLI_ACTOR, changes, connect, deliver, leadsOf, logOf, tallyBody, tallySignature, FULL_NAME } =
  await import("./receive-delivery.fixtures");

mock.method(process.stderr, "write", () => true);

const named = (name: string) => JSON.stringify({ name, email: `${name.toLowerCase()}@example.com` });
const rows = async (connectionId: string) =>
  (await logOf(connectionId)).map((row) => [row.outcome, row.status, row.error, row.payload === null ? null : "body"]);

describe("a connection's budget", () => {
  test("12 deliveries per window: the 13th is 429 with Retry-After, stored nowhere; another connection is untouched", async () => {
    const c = await connect("generic");
    const names = Array.from({ length: 12 }, (_, i) => `Person${i}`);
    for (const name of names) assert.equal((await deliver(c.token, named(name))).status, 201);
    const over = await deliver(c.token, named("Barbara"));
    assert.equal(over.status, 429);
    assert.match(over.headers.get("retry-after") ?? "", /^[1-9]\d*$/);
    const answer = (await over.json()) as { success: boolean; error: string; message: string };
    assert.equal(answer.success, false);
    assert.match(answer.error, /^Too many deliveries to this connection; retry in [1-9]\d* s$/);
    assert.equal(answer.message, RATE_LIMITED);
    // A builder retrying at once is refused again; the flood is one row.
    assert.equal((await deliver(c.token, named("Barbara"))).status, 429);
    assert.deepEqual((await leadsOf(c.team.id)).map((lead) => lead.firstName).sort(), names.sort());
    const refused = (await rows(c.id)).filter(([outcome]) => outcome === "refused");
    assert.deepEqual(refused, [["refused", 429, answer.error, null]]);

    const other = await connect("generic");
    assert.equal((await deliver(other.token, named("Barbara"))).status, 201);
  });
});

describe("refusal rows", () => {
  test("bodiless refusals: one row per error and address per interval, at most 10 per interval from many addresses", async () => {
    const c = await connect("tally");
    const body = tallyBody([FULL_NAME]);
    const forged = { "tally-signature": "bm90IGl0" };
    setClock("2026-11-26T11:00:00.000Z");
    for (let i = 0; i < 2; i++) assert.equal((await deliver(c.token, body, forged)).status, 401);
    assert.equal((await logOf(c.id)).length, 1, "the same refusal from one address again: no second row");
    // Turned off: another error, its own row.
    await changes.setConnectionEnabled({ teamId: c.team.id, id: c.id, enabled: false, actor: CLI_ACTOR });
    assert.equal((await deliver(c.token, body, forged)).status, 403);
    await changes.setConnectionEnabled({ teamId: c.team.id, id: c.id, enabled: true, actor: CLI_ACTOR });
    assert.equal((await logOf(c.id)).length, 2);
    // The next interval writes again.
    setClock("2026-11-26T11:00:11.000Z");
    assert.equal((await deliver(c.token, body, forged)).status, 401);
    assert.equal((await logOf(c.id)).length, 3);

    // From 12 addresses at once (a forged flood): 10 rows, the channel's room per interval.
    const spread = await connect("tally");
    setClock("2026-11-26T12:00:00.000Z");
    for (let i = 0; i < 12; i++) {
      const answer = await deliver(spread.token, body, { ...forged, "x-forwarded-for": `203.0.113.${i + 1}` });
      assert.equal(answer.status, 401);
      assert.equal(((await answer.json()) as { error: string }).error, INVALID_SIGNATURE);
    }
    assert.equal((await logOf(spread.id)).length, 10);
  });

  test("a refusal whose body was read (not the builder's shape) is always kept, each one", async () => {
    const c = await connect("tally");
    setClock("2026-11-26T13:00:00.000Z");
    const odd = (n: number) => {
      const body = JSON.parse(tallyBody([FULL_NAME], `odd-${n}`)) as { data: { fields: unknown } };
      body.data.fields = "not a list";
      return JSON.stringify(body);
    };
    for (const n of [1, 2]) {
      const body = odd(n);
      assert.equal((await deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!) })).status, 422);
    }
    const kept = await rows(c.id);
    assert.equal(kept.length, 2);
    assert.ok(kept.every(([outcome, status, , payload]) => outcome === "refused" && status === 422 && payload === "body"));
  });
});
