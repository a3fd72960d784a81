import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Small bounds, read once by lib/env.ts: the pruning test fills a team past them.
process.env.REQUEST_LOG_MAX_ROWS_PER_TEAM = "150";
process.env.REQUEST_LOG_RETENTION_DAYS = "30";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { createApiKey } = await import("../api-keys/api-key-store");
const { db } = await import("../db/client");
const { errorResponse } = await import("../http/envelope");
const { createLeadFromRequest } = await import("../intake/create-lead-request");
const { createTeam } = await import("../teams/team-store");
const { requestActivity, listRequests, pruneTeam, recordRequest } = await import("./request-log-store");

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

  test("pruning keeps the newest rows of the team, drops old ones, and leaves other teams alone", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const row = (teamId: string, status: number) => ({ teamId, apiKeyId: "k".repeat(20), status, ip: null, encoding: "json" as const });
    await db().apiRequest.create({ data: { ...row(team.id, 500), createdAt: new Date(Date.now() - 31 * 24 * 60 * 60 * 1000) } });
    for (let i = 0; i < 160; i++) await recordRequest(row(team.id, i));
    for (let i = 0; i < 3; i++) await recordRequest(row(other.id, i));

    assert.equal(await pruneTeam(team.id), 11, "one too old, ten beyond the newest 150");
    const kept = await db().apiRequest.findMany({ where: { teamId: team.id }, orderBy: { id: "asc" }, select: { status: true } });
    assert.deepEqual(
      kept.map((r) => r.status),
      Array.from({ length: 150 }, (_, i) => i + 10),
    );
    assert.equal(await db().apiRequest.count({ where: { teamId: other.id } }), 3);
  });

  test("a flood of refused requests never grows a team's log far past its bound", async () => {
    const team = await makeTeam();
    const key = await createApiKey({ teamId: team.id });
    for (let i = 0; i < 400; i++) await post({ "x-api-key": key.keyId, "x-api-secret": key.secret }, "{}");
    // Pruned every 100 writes of the team: at most the bound plus one round.
    const count = await db().apiRequest.count({ where: { teamId: team.id } });
    assert.ok(count <= 150 + 100, `${count} rows kept`);
    assert.ok(count >= 150, `${count} rows kept`);
  });
});
