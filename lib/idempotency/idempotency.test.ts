import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { createApiKey } from "../api-keys/api-key-changes";
import { db } from "../db/client";
import { ApiError } from "../http/api-error";
import { createLead, leadResultBody } from "../leads/create-lead";
import { countLeads } from "../leads/lead-store";
import { parseLeadInput } from "../leads/parse-lead-input";
import { createTeam } from "../teams/team-store";
import { fingerprint, idempotencyKeyFrom, runIdempotently, type ClaimToComplete } from "./idempotency";
import { purgeExpired } from "./idempotency-store";

await useTestDatabase();

const context = { requestId: "idempotency-test", ip: "127.0.0.1" };
let teamCount = 0;

async function setup() {
  const team = await createTeam({ slug: `idem-${++teamCount}`, name: `Idem ${teamCount}` });
  const key = await createApiKey({ teamId: team.id });
  return { team: { id: team.id, defaultPhoneCountry: null }, apiKeyId: key.keyId };
}

/** What the endpoint does: create a lead and store the response in the lead's transaction. */
function creator(team: { id: string; defaultPhoneCountry: null }, name: string, calls: { count: number }) {
  return async (claim: ClaimToComplete | null) => {
    calls.count++;
    const result = await createLead({
      team,
      apiKeyId: null,
      input: parseLeadInput([["name", name]]),
      claim: claim && { ...claim, response: (r) => ({ status: 201, body: JSON.stringify(leadResultBody(r)) }) },
    });
    return { status: 201, body: JSON.stringify(leadResultBody(result)) };
  };
}

async function rejectsWith(promise: Promise<unknown>, status: number, error: RegExp): Promise<void> {
  await assert.rejects(promise, (thrown: unknown) => {
    assert.ok(thrown instanceof ApiError, String(thrown));
    assert.equal(thrown.status, status);
    assert.match(thrown.error, error);
    return true;
  });
}

describe("idempotencyKeyFrom and fingerprint", () => {
  test("no header → null; 1–255 visible ASCII characters, trimmed; anything else → 400", () => {
    assert.equal(idempotencyKeyFrom(new Headers()), null);
    assert.equal(idempotencyKeyFrom(new Headers({ "Idempotency-Key": "  order-42  " })), "order-42");
    assert.equal(idempotencyKeyFrom(new Headers({ "Idempotency-Key": "k".repeat(255) })), "k".repeat(255));
    for (const bad of ["", "two words", "k".repeat(256), "caf\u00e9"]) {
      assert.throws(
        () => idempotencyKeyFrom(new Headers({ "Idempotency-Key": bad })),
        (e: unknown) => (e as ApiError).status === 400,
      );
    }
  });

  test("the same parameters in any order match; other values, names or JSON types do not", () => {
    const base = fingerprint("create_lead", [
      ["name", "Ada"],
      ["source", "Web"],
    ]);
    assert.equal(
      fingerprint("create_lead", [
        ["source", "Web"],
        ["name", "Ada"],
      ]),
      base,
    );
    assert.notEqual(
      fingerprint("create_lead", [
        ["name", "Ada"],
        ["source", "web"],
      ]),
      base,
    );
    assert.notEqual(
      fingerprint("create_lead", [
        ["name", "Ada"],
        ["origin", "Web"],
      ]),
      base,
    );
    assert.notEqual(
      fingerprint("create_lead", [
        ["name", "Ada"],
        ["n", 1],
      ]),
      fingerprint("create_lead", [
        ["name", "Ada"],
        ["n", "1"],
      ]),
    );
    assert.notEqual(
      fingerprint("other", [
        ["name", "Ada"],
        ["source", "Web"],
      ]),
      base,
    );
  });
});

describe("runIdempotently with real leads", () => {
  test("without a key every request creates", async () => {
    const { team } = await setup();
    const calls = { count: 0 };
    await runIdempotently(null, context, creator(team, "No Key", calls));
    await runIdempotently(null, context, creator(team, "No Key", calls));
    assert.equal(calls.count, 2);
    assert.equal(await countLeads(team.id), 2);
  });

  test("a retry replays the stored response and creates nothing; another body → 422", async () => {
    const { team, apiKeyId } = await setup();
    const request = { apiKeyId, key: "k-1", fingerprint: fingerprint("create_lead", [["name", "Ada"]]) };
    const calls = { count: 0 };
    const first = await runIdempotently(request, context, creator(team, "Ada", calls));
    const again = await runIdempotently(request, context, creator(team, "Ada", calls));
    assert.deepEqual(again, { ...first, replayed: true });
    assert.equal(first.replayed, false);
    assert.equal(calls.count, 1);
    await rejectsWith(
      runIdempotently({ ...request, fingerprint: "other" }, context, creator(team, "Other", calls)),
      422,
      /already used with a different request/,
    );
    assert.equal(calls.count, 1);
    assert.equal(await countLeads(team.id), 1);
  });

  test("a failure before the lead is created frees the key for the corrected retry", async () => {
    const { team, apiKeyId } = await setup();
    const request = { apiKeyId, key: "k-2", fingerprint: "f" };
    await assert.rejects(
      runIdempotently(request, context, async () => {
        throw new Error("the database went away");
      }),
    );
    const calls = { count: 0 };
    assert.equal((await runIdempotently(request, context, creator(team, "Retry", calls))).status, 201);
    assert.equal(await countLeads(team.id), 1);
  });

  test("while the first request runs, a retry gets 409", async () => {
    const { team, apiKeyId } = await setup();
    const request = { apiKeyId, key: "k-3", fingerprint: "f" };
    const calls = { count: 0 };
    const first = runIdempotently(request, context, async (complete) => {
      await rejectsWith(runIdempotently(request, context, creator(team, "Second", calls)), 409, /still being processed/);
      return creator(team, "First", calls)(complete);
    });
    assert.equal((await first).status, 201);
    assert.equal(calls.count, 1);
    assert.equal(await countLeads(team.id), 1);
  });

  test("fencing: a request that lost its claim to a retry rolls its lead back and gets 409", async () => {
    const { team, apiKeyId } = await setup();
    const request = { apiKeyId, key: "k-4", fingerprint: "f" };
    const calls = { count: 0 };
    let retried: Awaited<ReturnType<typeof runIdempotently>> | undefined;
    const slow = runIdempotently(request, context, async (complete) => {
      // The first request stalls past the stale limit; a retry takes the key over and completes.
      await db().idempotencyRecord.updateMany({ where: { apiKeyId, key: "k-4" }, data: { lockedAt: new Date(Date.now() - 120_000) } });
      retried = await runIdempotently(request, context, creator(team, "Retry", calls));
      return creator(team, "Slow", calls)(complete);
    });
    await rejectsWith(slow, 409, /still being processed/);
    assert.equal(retried?.status, 201);
    assert.equal(calls.count, 2);
    assert.equal(await countLeads(team.id), 1, "the slow request's lead was rolled back");
    const replay = await runIdempotently(request, context, creator(team, "Later", calls));
    assert.deepEqual(replay, { ...retried!, replayed: true });
  });

  test("purgeExpired removes only records past their 24 h", async () => {
    const { apiKeyId } = await setup();
    const now = new Date();
    const row = (key: string, expiresAt: Date) =>
      db().idempotencyRecord.create({ data: { apiKeyId, key, fingerprint: "f", token: "t", lockedAt: now, expiresAt } });
    await row("old", new Date(now.getTime() - 1_000));
    await row("fresh", new Date(now.getTime() + 86_400_000));
    assert.ok((await purgeExpired(now)) >= 1);
    const left = await db().idempotencyRecord.findMany({ where: { apiKeyId }, select: { key: true } });
    assert.deepEqual(
      left.map((r) => r.key),
      ["fresh"],
    );
  });
});
