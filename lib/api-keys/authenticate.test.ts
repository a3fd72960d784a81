import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { ApiError } from "../http/api-error";
import { createTeam, deleteTeam } from "../teams/team-store";
import { createApiKey, deleteApiKey, takeSecretForCopy } from "./api-key-changes";
import type { RequestContext } from "../http/request-context";
import { authenticate } from "./authenticate";

await useTestDatabase();

const team = await createTeam({ slug: "auth", name: "Auth", defaultPhoneCountry: "GB" });
const key = await createApiKey({ teamId: team.id });
const otherKey = await createApiKey({ teamId: team.id });

const headers = (values: Record<string, string>) => new Headers(values);
// Each call comes from its own address, so the failed-authentication limits per IP
// (lib/rate-limit/abuse-limits.ts, tested over HTTP in e2e/api/abuse-limits.spec.ts) stay out of the way.
let calls = 0;
// Failed authentications are logged as JSON lines on stderr: kept here for the log test below.
const stderr = mock.method(process.stderr, "write", () => true);
const logLines = () => stderr.mock.calls.map((call) => String(call.arguments[0]));
const context = (): RequestContext => ({ requestId: `auth-test-${++calls}`, ip: `198.51.100.${calls % 250}` });
const lastUsedAt = async (keyId: string) => (await db().apiKey.findUniqueOrThrow({ where: { id: keyId } })).lastUsedAt;

async function assertAuthFails(request: Headers, error: string): Promise<void> {
  await assert.rejects(authenticate(request, context()), (thrown: unknown) => {
    assert.ok(thrown instanceof ApiError, `expected an ApiError, got ${String(thrown)}`);
    assert.deepEqual([thrown.status, thrown.error, thrown.category], [401, error, "Authentication failed"]);
    return true;
  });
}

describe("authenticate: API key required", () => {
  const cases: [string, Record<string, string>][] = [
    ["no headers", {}],
    ["no X-API-Secret", { "X-API-Key": key.keyId }],
    ["no X-API-Key", { "X-API-Secret": key.secret }],
    ["an empty X-API-Key", { "X-API-Key": "", "X-API-Secret": key.secret }],
    ["an empty X-API-Secret", { "X-API-Key": key.keyId, "X-API-Secret": "" }],
    ["a blank X-API-Key", { "X-API-Key": "   ", "X-API-Secret": key.secret }],
    ["a blank X-API-Secret", { "X-API-Key": key.keyId, "X-API-Secret": " \t " }],
    ["both empty", { "X-API-Key": "", "X-API-Secret": "" }],
  ];
  for (const [title, values] of cases) {
    test(title, () => assertAuthFails(headers(values), "API key required"));
  }
});

describe("authenticate: Invalid API key", () => {
  const cases: [string, () => Record<string, string>][] = [
    ["an unknown key id", () => ({ "X-API-Key": "0123456789abcdef0123", "X-API-Secret": key.secret })],
    ["a key id in upper case", () => ({ "X-API-Key": key.keyId.toUpperCase(), "X-API-Secret": key.secret })],
    ["a key id that is not a key id", () => ({ "X-API-Key": "' OR 1=1 --", "X-API-Secret": key.secret })],
    ["a wrong secret", () => ({ "X-API-Key": key.keyId, "X-API-Secret": "team_wrongwrongwrongwrongwrongwrongwrong" })],
    ["another key's secret", () => ({ "X-API-Key": key.keyId, "X-API-Secret": otherKey.secret })],
    ["the secret and key swapped", () => ({ "X-API-Key": key.secret, "X-API-Secret": key.keyId })],
    ["the secret's digest", () => ({ "X-API-Key": key.keyId, "X-API-Secret": "0".repeat(64) })],
  ];
  for (const [title, values] of cases) {
    test(title, () => assertAuthFails(headers(values()), "Invalid API key"));
  }

  test("a failed attempt does not record use of the key", async () => {
    const fresh = await createApiKey({ teamId: team.id });
    await assertAuthFails(headers({ "X-API-Key": fresh.keyId, "X-API-Secret": otherKey.secret }), "Invalid API key");
    assert.equal(await lastUsedAt(fresh.keyId), null);
  });

  test("a deleted key fails at once", async () => {
    const doomed = await createApiKey({ teamId: team.id });
    const request = headers({ "X-API-Key": doomed.keyId, "X-API-Secret": doomed.secret });
    assert.equal((await authenticate(request, context())).keyId, doomed.keyId);
    await deleteApiKey({ keyId: doomed.keyId, teamId: team.id });
    await assertAuthFails(request, "Invalid API key");
  });
});

describe("authenticate: Team ID required", () => {
  test("a key whose team was deleted, with its right secret", async () => {
    const gone = await createTeam({ slug: "auth-gone", name: "Gone" });
    const orphan = await createApiKey({ teamId: gone.id });
    await deleteTeam(gone.id);
    await assertAuthFails(headers({ "X-API-Key": orphan.keyId, "X-API-Secret": orphan.secret }), "Team ID required");
    await assertAuthFails(headers({ "X-API-Key": orphan.keyId, "X-API-Secret": key.secret }), "Invalid API key");
  });
});

describe("authenticate: success", () => {
  test("returns the key's team and records the use", async () => {
    const fresh = await createApiKey({ teamId: team.id });
    const started = Date.now();
    const result = await authenticate(headers({ "x-api-key": fresh.keyId, "X-API-SECRET": fresh.secret }), context());
    assert.deepEqual(result, {
      keyId: fresh.keyId,
      repeats: "new",
      spamChecks: false,
      team: {
        id: team.id,
        slug: "auth",
        defaultPhoneCountry: "GB",
        repeatWindowDays: 365,
        spamThreshold: 10,
        spamBusinessOnly: false,
        spamBurstLimit: 5,
        spamBurstMinutes: 10,
        spamListsVersion: 0,
        suppressionListUsed: false,
      },
    });
    const used = await lastUsedAt(fresh.keyId);
    assert.ok(used && used.getTime() >= started - 1_000 && used.getTime() <= Date.now() + 1_000, String(used));
  });

  test("works after the secret was copied (verification never needs the plaintext)", async () => {
    const fresh = await createApiKey({ teamId: team.id });
    assert.equal(await takeSecretForCopy({ keyId: fresh.keyId, teamId: team.id, userId: null }), fresh.secret);
    const result = await authenticate(headers({ "X-API-Key": fresh.keyId, "X-API-Secret": fresh.secret }), context());
    assert.equal(result.team.id, team.id);
  });
});

describe("authenticate: failures are logged, without the secret", () => {
  test("one auth.failed line per failure with the request id, address, reason and well-formed key id", async () => {
    const request = headers({ "X-API-Key": key.keyId, "X-API-Secret": otherKey.secret });
    await assertAuthFails(request, "Invalid API key");
    const line = JSON.parse(logLines().at(-1)!) as Record<string, unknown>;
    assert.deepEqual(
      [line.level, line.event, line.request_id, line.ip, line.reason, line.key_id],
      ["warn", "auth.failed", `auth-test-${calls}`, `198.51.100.${calls % 250}`, "wrong_secret", key.keyId],
    );
    await assertAuthFails(headers({ "X-API-Key": key.secret, "X-API-Secret": key.secret }), "Invalid API key");
    const misplaced = JSON.parse(logLines().at(-1)!) as Record<string, unknown>;
    assert.deepEqual([misplaced.reason, misplaced.key_id], ["unknown_or_deleted_key", null]);
    for (const secret of [key.secret, otherKey.secret]) assert.ok(!logLines().join("").includes(secret));
  });
});
