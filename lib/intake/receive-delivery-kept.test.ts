import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, mock, test } from "node:test";

// What a connection's log keeps (issue 40, finding 1; lib/connections/kept-deliveries.ts,
// docs/connections.md "What is kept"): the third security review's flood of 240 KB bodies
// of 30,000 keys each, refused with nothing kept; big bodies that need mapping kept up to the
// connection's cap, then refused with 507 while leads that can be made still are; refusals
// with a body written as the request log writes refusals; kept rows aged out. On SQLite and
// PostgreSQL; time moves on the app's test clock.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";
process.env.TRUST_PROXY_HOPS = "1";
const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "connection-kept-")), "clock");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
const setClock = (iso: string) => writeFileSync(clockFile, iso);
setClock("2026-12-01T10:00:00.000Z");

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { KEPT_BYTES_PER_CONNECTION, KEPT_DELIVERIES_PER_CONNECTION, LOG_FULL, TOO_MANY_ANSWERS } =
  await import("../connections/kept-deliveries");
const { pruneConnectionLogs } = await import("../maintenance/connection-log-pruning");
const { replayDelivery } = await import("./receive-delivery");
const { changes, CLI_ACTOR, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

mock.method(process.stderr, "write", () => true);

/** Bytes the connection's rows hold: bodies and answers, as stored. */
async function storedBytes(connectionId: string): Promise<number> {
  const rows = await logOf(connectionId);
  return rows.reduce((sum, row) => sum + (row.payload?.length ?? 0) + (row.answers ? JSON.stringify(row.answers).length : 0), 0);
}

/** A JSON object of `keys` keys whose values fill it to about `bytes`, and no name: it needs mapping. */
function wideBody(keys: number, bytes: number, seed: string): string {
  const value = "v".repeat(Math.max(1, Math.floor(bytes / keys) - 12));
  return JSON.stringify(Object.fromEntries(Array.from({ length: keys }, (_, i) => [`${seed}${i}`, value])));
}

/** The review's body: about 30,000 short keys in 240 KB, and no name; each seed another submission. */
const FLOOD_KEYS = JSON.stringify(Object.fromEntries(Array.from({ length: 29_999 }, (_, i) => [i.toString(36), 0]))).slice(1);
const floodBody = (seed: number) => `{"seed":${seed},${FLOOD_KEYS}`;

const error = async (response: Response) => ((await response.json()) as { error: string }).error;

describe("the review's flood: 120 Generic posts of 240 KB, 30,000 keys each, no name", () => {
  test("each is refused 413 with nothing kept; the log holds a few bodiless rows, not 230 MiB", async () => {
    const c = await connect("generic");
    let sent = 0;
    for (let i = 0; i < 120; i++) {
      const body = floodBody(i);
      sent += body.length;
      const answer = await deliver(c.token, body);
      assert.equal(answer.status, 413);
      assert.equal(await error(answer), TOO_MANY_ANSWERS);
    }
    assert.ok(sent > 27_000_000);
    const rows = await logOf(c.id);
    assert.ok(rows.length <= 10, `${rows.length} rows`);
    assert.ok(rows.every((row) => row.payload === null && row.answers === null && row.keptBytes === null));
    assert.ok((await storedBytes(c.id)) < 10_000);
  });
});

describe("bodies that need mapping, kept up to the connection's cap", () => {
  test("kept until the cap's bytes, then 507 with the log's text; a lead that can be made still is; a kept submission's retry still answers 202", async () => {
    const c = await connect("generic");
    const statuses: number[] = [];
    let first: string | null = null;
    for (let i = 0; i < 60; i++) {
      const body = wideBody(150, 230_000, `q${i}_`);
      first ??= body;
      const answer = await deliver(c.token, body, { "x-forwarded-for": `198.51.100.${i % 200}` });
      statuses.push(answer.status);
      if (answer.status === 507) assert.equal(await error(answer), LOG_FULL);
    }
    const kept = statuses.filter((status) => status === 202).length;
    assert.ok(kept > 0 && kept < 60, `${kept} kept`);
    assert.deepEqual(statuses.slice(kept), Array<number>(60 - kept).fill(507), "once full, every new one is refused");
    const rows = await logOf(c.id);
    const withBody = rows.filter((row) => row.payload !== null);
    assert.equal(withBody.length, kept);
    const keptBytes = withBody.reduce((sum, row) => sum + row.keptBytes!, 0);
    assert.ok(keptBytes <= KEPT_BYTES_PER_CONNECTION, `${keptBytes} bytes kept`);
    assert.ok((await storedBytes(c.id)) <= KEPT_BYTES_PER_CONNECTION * 1.05);

    // The same submission again (the builder's retry) replaces its own row: 202, not 507.
    assert.equal((await deliver(c.token, first!)).status, 202);
    // A delivery that makes its lead needs no room.
    const lead = await deliver(c.token, JSON.stringify({ name: "Ada Lovelace", email: "ada@example.com" }));
    assert.equal(lead.status, 201);
    assert.deepEqual(
      (await leadsOf(c.team.id)).map((row) => row.firstName),
      ["Ada"],
    );
  });

  test("the rows' cap: at most KEPT_DELIVERIES_PER_CONNECTION small bodies; a replay of a kept one once mapped makes its lead and frees its room", async () => {
    const c = await connect("generic");
    for (let i = 0; i < KEPT_DELIVERIES_PER_CONNECTION; i++) {
      assert.equal((await deliver(c.token, JSON.stringify({ full: `Person ${i}` }))).status, 202);
    }
    const over = await deliver(c.token, JSON.stringify({ full: "One Too Many" }));
    assert.equal(over.status, 507);
    assert.equal(await error(over), LOG_FULL);

    await changes.setConnectionMapping({ teamId: c.team.id, id: c.id, mapping: { full: "name" }, actor: CLI_ACTOR });
    const [oldest] = await db().connectionDelivery.findMany({
      where: { connectionId: c.id, outcome: "needs_mapping" },
      orderBy: { createdAt: "asc" },
      take: 1,
    });
    const replayed = await replayDelivery({ teamId: c.team.id, deliveryId: oldest!.id, context: { requestId: "replay", ip: "127.0.0.1" } });
    assert.equal(replayed?.kind, "created");
    const row = await db().connectionDelivery.findUniqueOrThrow({ where: { id: oldest!.id } });
    assert.equal(row.payload, null);
    assert.equal(row.keptBytes, null, "a row that made its lead keeps nothing");
    // Mapped now, so even a full log takes leads.
    assert.equal((await deliver(c.token, JSON.stringify({ full: "One Too Many" }))).status, 201);
  });
});

describe("refusals with a body", () => {
  test("40 identical 200 KB refused Jotform posts from one address write one row", async () => {
    const c = await connect("jotform");
    setClock("2026-12-01T11:00:00.000Z");
    const body = new URLSearchParams({ note: "x".repeat(200_000) }).toString();
    for (let i = 0; i < 40; i++) {
      const answer = await deliver(c.token, body, { "content-type": "application/x-www-form-urlencoded" });
      assert.equal(answer.status, 422);
    }
    const rows = await logOf(c.id);
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.payload, body, "the first is kept whole, to be read");
    // The next interval writes again.
    setClock("2026-12-01T11:00:11.000Z");
    assert.equal((await deliver(c.token, body, { "content-type": "application/x-www-form-urlencoded" })).status, 422);
    assert.equal((await logOf(c.id)).length, 2);
  });
});

describe("kept rows age out", () => {
  test("after 30 days without the team's lead retention, after the team's retention with it; newer rows stay", async () => {
    const plain = await connect("generic");
    const retained = await connect("generic");
    await db().team.update({ where: { id: retained.team.id }, data: { retentionDays: 7 } });
    setClock("2026-12-01T12:00:00.000Z");
    for (const c of [plain, retained]) assert.equal((await deliver(c.token, JSON.stringify({ full: "Kept Person" }))).status, 202);

    const at = (days: number) => new Date(Date.parse("2026-12-01T12:00:00.000Z") + days * 86_400_000);
    await pruneConnectionLogs(at(6));
    assert.equal((await logOf(plain.id)).length, 1);
    assert.equal((await logOf(retained.id)).length, 1);
    await pruneConnectionLogs(at(8));
    assert.equal((await logOf(plain.id)).length, 1);
    assert.equal((await logOf(retained.id)).length, 0, "the team's 7 days");
    await pruneConnectionLogs(at(31));
    assert.equal((await logOf(plain.id)).length, 0, "30 days");
  });
});
