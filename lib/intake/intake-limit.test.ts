import assert from "node:assert/strict";
import { describe, test } from "node:test";

// The bench's limit route (lib/intake/intake-limit.ts): off unless BENCH_INTAKE_LIMIT_TEAM
// names a team, only from this machine, and then the lead transaction and nothing else.
process.env.BENCH_INTAKE_LIMIT_TEAM = "limit-row";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { env } = await import("../env");
const { errorResponse } = await import("../http/envelope");
const { createTeam } = await import("../teams/team-store");
const { intakeLimit } = await import("./intake-limit");

const team = await createTeam({ slug: "limit-row", name: "Limit row" });

const body = { name: "Ada Lovelace", email: "ada@example.com", phone: "not a phone", utm_source: "google", colour: "green" };
async function post(ip: string) {
  const request = new Request("http://localhost/api/bench/intake-limit", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return intakeLimit(request, { requestId: "limit-test", ip }).catch((error: unknown) => errorResponse(error));
}

describe("the limit route", () => {
  test("answers 404 to another machine, and when the variable is unset, and writes nothing", async () => {
    assert.equal((await post("203.0.113.9")).status, 404);
    const set = env().BENCH_INTAKE_LIMIT_TEAM;
    env().BENCH_INTAKE_LIMIT_TEAM = undefined;
    try {
      assert.equal((await post("127.0.0.1")).status, 404);
    } finally {
      env().BENCH_INTAKE_LIMIT_TEAM = set;
    }
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
  });

  test("from this machine, stores the fields as sent, unchecked, with the request log's row", async () => {
    const response = await post("127.0.0.1");
    assert.equal(response.status, 201);
    const { lead_id } = (await response.json()) as { lead_id: string };
    const lead = await db().lead.findUniqueOrThrow({ where: { id: lead_id } });
    assert.equal(lead.teamId, team.id);
    assert.equal(lead.firstName, "Ada Lovelace", "the name is not split");
    assert.equal(lead.phone, "not a phone", "no phone rule");
    assert.equal(lead.utmSource, "google");
    assert.deepEqual(lead.extraFields, { colour: "green" });
    assert.equal(await db().apiRequest.count({ where: { teamId: team.id, leadId: lead_id, status: 201 } }), 1);
  });
});
