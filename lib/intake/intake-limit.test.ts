import assert from "node:assert/strict";
import { describe, test } from "node:test";

// The bench's limit route (lib/intake/intake-limit.ts): off unless BENCH_INTAKE_LIMIT_TEAM
// names a team and its secret is set, only from this machine's socket with that secret, and
// then the lead transaction and nothing else.
process.env.BENCH_INTAKE_LIMIT_TEAM = "limit-row";
const SECRET = "s".repeat(40);
process.env.BENCH_INTAKE_LIMIT_SECRET = SECRET;

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { env } = await import("../env");
const { errorResponse } = await import("../http/envelope");
const { PEER_HEADER, requestContext } = await import("../http/request-context");
const { createTeam } = await import("../teams/team-store");
const { intakeLimit } = await import("./intake-limit");

const team = await createTeam({ slug: "limit-row", name: "Limit row" });

const body = { name: "Ada Lovelace", email: "ada@example.com", phone: "not a phone", utm_source: "google", colour: "green" };
/** A post as scripts/serve.mjs hands it on: the socket's address in PEER_HEADER, the client's X-Forwarded-For as it came. */
async function post(socket: string, headers: Record<string, string> = { "x-bench-secret": SECRET }) {
  const request = new Request("http://localhost/api/bench/intake-limit", {
    method: "POST",
    headers: { "content-type": "application/json", ...headers, [PEER_HEADER]: socket },
    body: JSON.stringify(body),
  });
  return intakeLimit(request, requestContext(request)).catch((error: unknown) => errorResponse(error));
}

describe("the limit route", () => {
  test("answers 404 to another machine, and when the variable is unset, and writes nothing", async () => {
    assert.equal((await post("203.0.113.9")).status, 404);
    for (const unset of ["BENCH_INTAKE_LIMIT_TEAM", "BENCH_INTAKE_LIMIT_SECRET"] as const) {
      const set = env()[unset];
      env()[unset] = undefined;
      try {
        assert.equal((await post("127.0.0.1")).status, 404, `${unset} unset`);
      } finally {
        env()[unset] = set;
      }
    }
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
  });

  test("decides by the socket's address alone, exactly loopback, and wants the secret (issue 40, finding 3)", async () => {
    // X-Forwarded-For is what a trusted proxy's client writes: with TRUST_PROXY_HOPS=1 it names the context's address.
    for (const spoof of ["127.0.0.1", "::1"]) {
      env().TRUST_PROXY_HOPS = 1;
      try {
        assert.equal((await post("127.0.0.2", { "x-bench-secret": SECRET, "x-forwarded-for": `${spoof}, 127.0.0.2` })).status, 404, spoof);
      } finally {
        env().TRUST_PROXY_HOPS = 0;
      }
    }
    // Another address of ::/64 is not ::1.
    assert.equal((await post("::2")).status, 404);
    assert.equal((await post("127.0.0.1", {})).status, 404, "no secret");
    assert.equal((await post("127.0.0.1", { "x-bench-secret": "t".repeat(40) })).status, 404, "another secret");
    assert.equal(await db().lead.count({ where: { teamId: team.id } }), 0);
    for (const socket of ["127.0.0.1", "::ffff:127.0.0.1", "::1"]) assert.equal((await post(socket)).status, 201, socket);
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
