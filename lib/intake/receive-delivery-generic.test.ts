import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// A Generic JSON connection's optional secret header (lib/intake/receive-delivery.ts,
// docs/connections.md "Generic JSON"): without a secret the URL alone authenticates; once the
// team sets one, every delivery must send it in X-Connection-Secret (401 otherwise, nothing
// stored, the refusal logged without the body); it is never shown back, and it is refused
// when shorter than 16 characters.
process.env.CONNECTION_DELIVERIES_PER_CONNECTION = "100000";

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { WRONG_SECRET_HEADER } = await import("./receive-delivery");
const { secretProblem } = await import("../connections/connection-changes");
const { CLI_ACTOR, changes, connect, deliver, leadsOf, logOf } = await import("./receive-delivery.fixtures");

mock.method(process.stderr, "write", () => true);

const SECRET = "zapier-7f3c1e9a2b64d805";
const lead = (name: string) => JSON.stringify({ name, email: `${name.toLowerCase()}@example.com` });

describe("Generic JSON's secret header", () => {
  test("without a secret the URL alone is enough; once set, only deliveries that send it make leads", async () => {
    const c = await connect("generic");
    assert.equal(c.signingSecret, null);
    assert.equal((await deliver(c.token, lead("Ada"))).status, 201);

    assert.equal(await changes.setConnectionSigningSecret({ teamId: c.team.id, id: c.id, secret: SECRET, actor: CLI_ACTOR }), true);
    const attempts: Record<string, string>[] = [
      {},
      { "x-connection-secret": "wrong-secret-0123456789" },
      { "x-connection-secret": `${SECRET}x` },
    ];
    for (const headers of attempts) {
      const refused = await deliver(c.token, lead("Eve"), headers);
      assert.equal(refused.status, 401);
      assert.deepEqual(await refused.json(), { success: false, error: WRONG_SECRET_HEADER, message: "Authentication failed" });
    }
    // The header's name in any case, the value with surrounding spaces as some tools send it.
    assert.equal((await deliver(c.token, lead("Grace"), { "X-Connection-Secret": ` ${SECRET} ` })).status, 201);
    assert.deepEqual((await leadsOf(c.team.id)).map((l) => l.firstName).sort(), ["Ada", "Grace"]);
    const refusals = (await logOf(c.id)).filter((row) => row.outcome === "refused");
    assert.ok(refusals.length >= 1 && refusals.every((row) => row.status === 401 && row.payload === null));
  });

  test("a secret shorter than 16 characters is refused and not set; a builder that signs takes none from the team", async () => {
    assert.match(secretProblem("generic", "short-secret") ?? "", /at least 16 characters/);
    assert.equal(secretProblem("generic", SECRET), null);
    assert.match(secretProblem("generic", "geheimnis-für-zapier") ?? "", /ASCII/);
    assert.match(secretProblem("generic", "two words secret value") ?? "", /no spaces/);
    assert.equal(secretProblem("webflow", "short"), null, "Webflow's secret is Webflow's, whatever its length");
    const c = await connect("generic");
    assert.equal(
      await changes.setConnectionSigningSecret({ teamId: c.team.id, id: c.id, secret: "short-secret", actor: CLI_ACTOR }),
      false,
    );
    assert.equal((await deliver(c.token, lead("Ada"))).status, 201, "still no secret: the URL alone");
    const tally = await connect("tally");
    assert.equal(
      await changes.setConnectionSigningSecret({ teamId: tally.team.id, id: tally.id, secret: SECRET, actor: CLI_ACTOR }),
      false,
    );
  });
});
