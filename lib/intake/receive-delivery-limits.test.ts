import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, mock, test } from "node:test";

// A connection's budget and its refusal rows (lib/web-forms/form-limits.ts
// spendConnectionBudget, lib/intake/receive-delivery.ts, docs/connections.md "The endpoint"):
// CONNECTION_DELIVERIES_PER_CONNECTION per window for each connection, 429 with Retry-After
// beyond it (the builders retry), another connection untouched; a signing connection's
// budget spent only by valid deliveries; and floods of refusals written as the request log
// writes them, with their body or without. Time moves on the app's test clock.
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

describe("forgeries and a signing connection's budget (issue 40, finding 2)", () => {
  test("1,000 forged posts, then a correctly signed delivery: 201; the forgeries spent a budget of their own", async () => {
    const c = await connect("tally");
    setClock("2026-11-26T14:00:00.000Z");
    const forged = { "tally-signature": "Zm9yZ2Vk" };
    const statuses = new Map<number, number>();
    // 50 addresses, 20 forgeries each: every address's failure budget (20) and the connection's (1,000) spent.
    for (let i = 0; i < 1_000; i++) {
      const body = tallyBody([FULL_NAME], `forged-${i}`);
      const answer = await deliver(c.token, body, { ...forged, "x-forwarded-for": `198.18.0.${(i % 50) + 1}` });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
    assert.deepEqual([...statuses], [[401, 1_000]]);
    // The 21st from one address, and the 1,001st for the connection: 429, with their own texts.
    const fromOne = await deliver(c.token, tallyBody([FULL_NAME], "forged-x"), { ...forged, "x-forwarded-for": "198.18.0.1" });
    assert.equal(fromOne.status, 429);
    assert.match(((await fromOne.json()) as { error: string }).error, /^Too many failed signatures from this address; retry in \d+ s$/);
    const fromNew = await deliver(c.token, tallyBody([FULL_NAME], "forged-y"), { ...forged, "x-forwarded-for": "192.0.2.77" });
    assert.equal(fromNew.status, 429);
    assert.match(((await fromNew.json()) as { error: string }).error, /^Too many failed signatures for this connection; retry in \d+ s$/);
    // Tally's real delivery, even from an address whose failures are spent (builders share their sending servers).
    const body = tallyBody([FULL_NAME], "real-1");
    const real = await deliver(c.token, body, {
      "tally-signature": tallySignature(body, c.signingSecret!),
      "x-forwarded-for": "198.18.0.1",
    });
    assert.equal(real.status, 201);
    assert.deepEqual(
      (await leadsOf(c.team.id)).map((lead) => lead.firstName),
      ["Ada"],
    );
    // Valid deliveries still have the whole budget (12): 11 more, then the 13th is 429.
    for (let i = 2; i <= 12; i++) {
      const next = tallyBody([FULL_NAME], `real-${i}`);
      assert.equal((await deliver(c.token, next, { "tally-signature": tallySignature(next, c.signingSecret!) })).status, 201, `real-${i}`);
    }
    const over = tallyBody([FULL_NAME], "real-13");
    const refused = await deliver(c.token, over, { "tally-signature": tallySignature(over, c.signingSecret!) });
    assert.equal(refused.status, 429);
    assert.match(((await refused.json()) as { error: string }).error, /^Too many deliveries to this connection/);
  });

  test("a connection authenticated by its URL alone still spends its budget on every post, before the body is read", async () => {
    const c = await connect("generic");
    setClock("2026-11-26T15:00:00.000Z");
    for (let i = 0; i < 12; i++) assert.equal((await deliver(c.token, "{not json")).status, 400);
    assert.equal((await deliver(c.token, named("Late"))).status, 429);
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

  test("a refusal whose body was read (not the builder's shape) is kept with its row, and its rows are throttled like the others (issue 40)", async () => {
    const c = await connect("tally");
    setClock("2026-11-26T13:00:00.000Z");
    const odd = (n: number) => {
      const body = JSON.parse(tallyBody([FULL_NAME], `odd-${n}`)) as { data: { fields: unknown } };
      body.data.fields = "not a list";
      return JSON.stringify(body);
    };
    const send = (n: number, from: string) => {
      const body = odd(n);
      return deliver(c.token, body, { "tally-signature": tallySignature(body, c.signingSecret!), "x-forwarded-for": from });
    };
    for (const n of [1, 2]) assert.equal((await send(n, "198.51.100.7")).status, 422);
    assert.equal((await send(3, "198.51.100.8")).status, 422);
    const kept = await rows(c.id);
    assert.equal(kept.length, 2, "one row per address and error in the interval");
    assert.ok(kept.every(([outcome, status, , payload]) => outcome === "refused" && status === 422 && payload === "body"));
  });
});
