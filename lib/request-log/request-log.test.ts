import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Small bounds, read once by lib/env.ts: the pruning test fills a key past them. Set by the
// name it had when the bound was per team, which is still read.
process.env.REQUEST_LOG_MAX_ROWS_PER_TEAM = "150";
process.env.REQUEST_LOG_RETENTION_DAYS = "30";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-changes");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { createTeam } = await import("../teams/team-store");
const { afterRequestRecorded, requestActivity, listRequests, pruneTeam, recordRequest } = await import("./request-log-store");
const { refusalRowDue } = await import("./request-log");
const { env } = await import("../env");

// Failed authentications and refusals write JSON log lines on stderr; keep the output clean.
mock.method(process.stderr, "write", () => true);

let calls = 0;
const context = () => ({ requestId: `log-test-${++calls}`, ip: `198.51.100.${calls % 250}` });
let teams = 0;
const makeTeam = () => createTeam({ slug: `log-${++teams}`, name: `Log ${teams}` });

/** The endpoint's use case, as the route runs it: an error becomes the envelope. */
async function post(headers: Record<string, string>, body: string, contentType = "application/json") {
  const request = new Request("http://localhost/api/method/crm.api.leads.create_lead", {
    method: "POST",
    headers: { "content-type": contentType, ...headers },
    body,
  });
  const ctx = context();
  const response = await createLeadFromRequest(request, ctx).catch((error: unknown) => errorResponse(error, ctx));
  return { status: response.status, body: (await response.json()) as Record<string, unknown>, ip: ctx.ip };
}

describe("the intake writes each request of a known key to its log", async () => {
  const team = await makeTeam();
  const key = await createApiKey({ teamId: team.id, description: "Website form" });
  const auth = { "x-api-key": key.keyId, "x-api-secret": key.secret };

  test("a created lead, with the address and the body's encoding", async () => {
    const created = await post(auth, "name=Ada&interests=a&interests=b", "application/x-www-form-urlencoded");
    assert.equal(created.status, 201);
    const [row] = (await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } })).rows;
    assert.deepEqual(
      { status: row!.status, leadId: row!.leadId, error: row!.error, ip: row!.ip, encoding: row!.encoding },
      { status: 201, leadId: created.body.lead_id, error: null, ip: created.ip, encoding: "urlencoded" },
    );
  });

  test("a refused body: the status and the envelope's error text, nothing created", async () => {
    const leadsBefore = await db().lead.count({ where: { teamId: team.id } });
    const refused = await post(auth, JSON.stringify({ email: "ada@example.com" }));
    assert.deepEqual([refused.status, refused.body.error], [422, "Name is required"]);
    const [row] = (await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } })).rows;
    assert.deepEqual([row!.status, row!.error, row!.leadId, row!.encoding], [422, "Name is required", null, "json"]);
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), leadsBefore);
  });

  test("a wrong secret for a real key is in that key's log (the secret never is)", async () => {
    const wrong = "team_" + "x".repeat(40);
    const failed = await post({ "x-api-key": key.keyId, "x-api-secret": wrong }, '{"name":"Ada"}');
    assert.deepEqual([failed.status, failed.body.error], [401, "Invalid API key"]);
    const [row] = (await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } })).rows;
    assert.deepEqual([row!.status, row!.error], [401, "Invalid API key"]);
    const stored = await db().apiRequest.findMany({ where: { teamId: team.id } });
    assert.ok(!JSON.stringify(stored).includes(wrong) && !JSON.stringify(stored).includes(key.secret));
  });

  test("an unknown key id writes nothing: no team to show it to", async () => {
    const before = await db().apiRequest.count();
    const failed = await post({ "x-api-key": "0".repeat(20), "x-api-secret": key.secret }, '{"name":"Ada"}');
    assert.equal(failed.status, 401);
    assert.equal(await db().apiRequest.count(), before);
  });

  test("the key list's activity counts requests and failures per key", async () => {
    const activity = await requestActivity(team.id, new Date(Date.now() - 60_000), "apiKeyId");
    assert.deepEqual(activity.get(key.keyId), { requests: 3, failures: 2 });
    assert.equal((await requestActivity(team.id, new Date(Date.now() + 60_000), "apiKeyId")).size, 0);
  });
});

describe("the request log is paged and bounded", async () => {
  test("pages newest first with an id cursor, only the key's own rows", async () => {
    const team = await makeTeam();
    const [a, b] = [await createApiKey({ teamId: team.id }), await createApiKey({ teamId: team.id })];
    for (let i = 0; i < 7; i++) {
      await recordRequest({ teamId: team.id, apiKeyId: a.keyId, status: 201 + i, ip: "192.0.2.1", encoding: "json" });
      await recordRequest({ teamId: team.id, apiKeyId: b.keyId, status: 422, ip: "192.0.2.1", encoding: "json" });
    }
    const first = await listRequests({ teamId: team.id, of: { apiKeyId: a.keyId }, take: 3 });
    assert.deepEqual(
      first.rows.map((r) => r.status),
      [207, 206, 205],
    );
    const second = await listRequests({ teamId: team.id, of: { apiKeyId: a.keyId }, take: 3, before: first.olderCursor! });
    assert.deepEqual(
      second.rows.map((r) => r.status),
      [204, 203, 202],
    );
    const last = await listRequests({ teamId: team.id, of: { apiKeyId: a.keyId }, take: 3, before: second.olderCursor! });
    assert.deepEqual([last.rows.map((r) => r.status), last.olderCursor], [[201], null]);
    const other = await makeTeam();
    assert.deepEqual((await listRequests({ teamId: other.id, of: { apiKeyId: a.keyId } })).rows, [], "another team sees nothing");
  });

  test("pruning keeps the newest rows of each key and each form, drops old ones, and leaves other channels and teams alone", async () => {
    assert.equal(env().REQUEST_LOG_MAX_ROWS, 150, "the old name REQUEST_LOG_MAX_ROWS_PER_TEAM is read");
    const [team, other] = [await makeTeam(), await makeTeam()];
    const row = (teamId: string, status: number, channel: { apiKeyId?: string; formId?: string } = { apiKeyId: "k".repeat(20) }) => ({
      teamId,
      ...channel,
      status,
      ip: null,
      encoding: "json" as const,
    });
    await db().apiRequest.create({ data: { ...row(team.id, 500), createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) } });
    // A quiet key and a quiet form, then a noisy form far past the bound.
    for (let i = 0; i < 5; i++) await recordRequest(row(team.id, 201, { apiKeyId: "q".repeat(20) }));
    for (let i = 0; i < 5; i++) await recordRequest(row(team.id, 201, { formId: "quiet-form" }));
    for (let i = 0; i < 160; i++) await recordRequest(row(team.id, i));
    for (let i = 0; i < 400; i++) await recordRequest(row(team.id, 403, { formId: "noisy-form" }));
    for (let i = 0; i < 3; i++) await recordRequest(row(other.id, i));

    assert.equal(await pruneTeam(team.id), 1 + 10 + 250, "one too old, ten beyond the key's newest 150, 250 beyond the form's");
    const kept = await db().apiRequest.findMany({
      where: { teamId: team.id, apiKeyId: "k".repeat(20) },
      orderBy: { id: "asc" },
      select: { status: true },
    });
    assert.deepEqual(
      kept.map((r) => r.status),
      Array.from({ length: 150 }, (_, i) => i + 10),
    );
    assert.equal(await db().apiRequest.count({ where: { formId: "noisy-form" } }), 150);
    assert.equal(await db().apiRequest.count({ where: { formId: "quiet-form" } }), 5, "the noisy form pushed out nothing of the quiet one");
    assert.equal(await db().apiRequest.count({ where: { apiKeyId: "q".repeat(20) } }), 5);
    assert.equal(await db().apiRequest.count({ where: { teamId: other.id } }), 3);
  });

  test("the intake's pruning: every 100 writes, only the channels written, and the team's old rows at most every 10 minutes", async () => {
    const team = await makeTeam();
    const row = (channel: { apiKeyId?: string; formId?: string }, createdAt = new Date()) => ({
      data: { teamId: team.id, ...channel, status: 201, ip: null, encoding: "json" as const, createdAt },
    });
    const old = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000);
    await db().apiRequest.create(row({ formId: "aging-form" }, old));
    for (let i = 0; i < 160; i++) await db().apiRequest.create(row({ formId: "crowded-quiet-form" }));
    for (let i = 0; i < 170; i++) await db().apiRequest.create(row({ apiKeyId: "n".repeat(20) }));
    const now = new Date();
    assert.equal(await pruneTeam(team.id, now, [{ apiKeyId: "n".repeat(20) }]), 1 + 20, "the old row, and the key written past its 150");
    assert.equal(await db().apiRequest.count({ where: { formId: "crowded-quiet-form" } }), 160, "a channel not written is left");
    await db().apiRequest.create(row({ formId: "aging-form" }, old));
    assert.equal(await pruneTeam(team.id, new Date(now.getTime() + 9 * 60_000), [{ formId: "aging-form" }]), 0, "no retention pass yet");
    assert.equal(await pruneTeam(team.id, new Date(now.getTime() + 10 * 60_000), [{ formId: "aging-form" }]), 1, "ten minutes on, it runs");

    // Through the intake's counter: the 100th write of the team prunes the channels the 100 went to.
    for (let i = 0; i < 99; i++) afterRequestRecorded({ teamId: team.id, formId: "crowded-quiet-form" });
    assert.equal(await db().apiRequest.count({ where: { formId: "crowded-quiet-form" } }), 160);
    afterRequestRecorded({ teamId: team.id, formId: "crowded-quiet-form" });
    for (let wait = 0; wait < 100 && (await db().apiRequest.count({ where: { formId: "crowded-quiet-form" } })) > 150; wait++)
      await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(await db().apiRequest.count({ where: { formId: "crowded-quiet-form" } }), 150);
  });

  test("refusals from one address are one row per error and interval; a channel writes at most 10 refusal rows per interval", () => {
    const form = { teamId: "t", formId: `throttle-${Date.now()}` };
    const key = { teamId: "t", apiKeyId: `throttle-${Date.now()}` };
    const t0 = 1_000_000;
    // The review's reproduction: 150 posts with a foreign Origin from one address.
    const rows = Array.from({ length: 150 }, (_, i) => refusalRowDue(form, "203.0.113.9", 403, "Origin not allowed", t0 + i)).filter(
      Boolean,
    );
    assert.equal(rows.length, 1);
    assert.equal(refusalRowDue(form, "203.0.113.9", 422, "Name is required", t0 + 200), true, "another error is its own row");
    assert.equal(refusalRowDue(form, "203.0.113.9", 403, "Origin not allowed", t0 + 10_000), true, "the next interval writes again");
    // From many addresses: 10 rows per interval for the channel, none taken from another channel.
    const spread = Array.from({ length: 500 }, (_, i) => refusalRowDue(form, `2001:db8::${i.toString(16)}`, 403, "x", t0 + 20_000 + i));
    assert.equal(spread.filter(Boolean).length, 10);
    assert.equal(refusalRowDue(key, "198.51.100.1", 401, "Invalid API key", t0 + 20_600), true);
    // 429s: one row per channel and interval, whatever the address.
    const limited = Array.from({ length: 50 }, (_, i) => refusalRowDue(key, `192.0.2.${i}`, 429, "Rate limit", t0 + 30_000 + i));
    assert.equal(limited.filter(Boolean).length, 1);
    // A clock set back starts a new interval rather than silencing the log until it catches up.
    assert.equal(refusalRowDue(form, "203.0.113.9", 403, "Origin not allowed", t0 - 60_000), true);
    assert.equal(refusalRowDue(form, "203.0.113.9", 403, "Origin not allowed", t0 - 59_000), false);
  });

  test("a flood of refused requests writes a handful of rows, not one per request", async () => {
    const team = await makeTeam();
    const key = await createApiKey({ teamId: team.id });
    const started = Date.now();
    for (let i = 0; i < 400; i++) await post({ "x-api-key": key.keyId, "x-api-secret": key.secret }, "{}");
    // At most 10 per 10 s interval the loop touched (a slow machine may cross several).
    const intervals = Math.floor((Date.now() - started) / 10_000) + 1;
    const count = await db().apiRequest.count({ where: { teamId: team.id } });
    assert.ok(count >= 10 && count <= 10 * intervals, `${count} rows kept over ${intervals} intervals`);
  });
});
