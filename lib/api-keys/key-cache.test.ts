import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, beforeEach, describe, mock, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { ApiError } from "../http/api-error";
import type { RequestContext } from "../http/request-context";
import { env } from "../env";
import { createTeam, deleteTeam } from "../teams/team-store";
import { createApiKey, deleteApiKey, rollApiKey, setApiKeyRepeats, setApiKeySpamChecks, updateApiKey } from "./api-key-changes";
import { authenticate } from "./authenticate";
import { cachedKeyCount, keyForAuth, setKeyCacheCapacity } from "./key-cache";
import { findKeyVersions } from "./key-lookup-store";
import { digestSecret } from "./secret";

// The per-process key cache (issue 47, ./key-cache.ts): a cached key is used only while its
// row's and its team's versions are unchanged, so every way a key stops working (or its team's
// intake settings change) is seen on the very next request, whoever wrote it: the app's
// changes, a cascade, or plain SQL. Two processes on one database: e2e/support/key-revocation.ts.

await useTestDatabase();
mock.method(process.stderr, "write", () => true);

const clockDir = mkdtempSync(path.join(tmpdir(), "key-cache-clock-"));
const clockFile = path.join(clockDir, "now");
after(() => {
  delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE;
  rmSync(clockDir, { recursive: true, force: true });
});

let calls = 0;
// Its own address per call, so the failed-authentication limit per address stays out of the way.
const context = (ip = `203.0.113.${++calls % 250}`): RequestContext => ({ requestId: `cache-${++calls}`, ip });
const request = (key: { keyId: string; secret: string }, secret = key.secret) =>
  new Headers({ "X-API-Key": key.keyId, "X-API-Secret": secret });

async function refused(key: { keyId: string; secret: string }, error: string, secret = key.secret): Promise<number> {
  let status = 0;
  await assert.rejects(authenticate(request(key, secret), context()), (thrown: unknown) => {
    assert.ok(thrown instanceof ApiError, String(thrown));
    assert.equal(thrown.error, error);
    status = thrown.status;
    return true;
  });
  return status;
}

/** A key that has authenticated, so the cache holds it; checked to be served from the cache. */
async function warmKey(teamId: string, options: { expiresAt?: Date } = {}) {
  const key = await createApiKey({ teamId, expiresAt: options.expiresAt ?? null });
  await authenticate(request(key), context());
  const first = await keyForAuth(key.keyId);
  assert.equal(await keyForAuth(key.keyId), first, "served from the cache");
  return key;
}

const newTeam = () => createTeam({ slug: `cache-${randomBytes(4).toString("hex")}`, name: "Cache" });

beforeEach(() => setKeyCacheCapacity());

describe("the key cache: a cached key is used only while its versions are unchanged", () => {
  test("a key that authenticated is cached, and its last-use touch bumps no version", async () => {
    const team = await newTeam();
    const key = await createApiKey({ teamId: team.id });
    assert.equal(cachedKeyCount(), 0);
    await authenticate(request(key), context());
    assert.equal(cachedKeyCount(), 1);
    const versions = await findKeyVersions(key.keyId);
    await db().apiKey.update({ where: { id: key.keyId }, data: { lastUsedAt: new Date(0), description: "renamed" } });
    assert.deepEqual(await findKeyVersions(key.keyId), versions, "lastUsedAt and the description are not cached: no bump");
    const cached = await keyForAuth(key.keyId);
    assert.equal(await keyForAuth(key.keyId), cached);
  });

  test("a deleted key: Invalid API key on the next request", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id);
    assert.equal(await deleteApiKey({ keyId: key.keyId, teamId: team.id }), true);
    assert.equal(await refused(key, "Invalid API key"), 401);
  });

  test("a deleted team: Team ID required on the next request", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id);
    await deleteTeam(team.id);
    assert.equal(await refused(key, "Team ID required"), 401);
  });

  test("an expiry set to now, and a roll that cuts the old key over now: Invalid API key on the next request", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id);
    assert.equal(await updateApiKey({ keyId: key.keyId, teamId: team.id, expiresAt: new Date(Date.now() - 1_000) }), true);
    await refused(key, "Invalid API key");

    const rolled = await warmKey(team.id);
    const replacement = await rollApiKey({ keyId: rolled.keyId, teamId: team.id, oldKeyExpiresAt: new Date(), createdById: null });
    await refused(rolled, "Invalid API key");
    assert.equal((await authenticate(request(replacement!), context())).keyId, replacement!.keyId);
  });

  test("an expiry that passes with no write: the cached expiry is checked against the clock on every request", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id, { expiresAt: new Date(Date.now() + 3_600_000) });
    process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
    writeFileSync(clockFile, new Date(Date.now() + 7_200_000).toISOString());
    try {
      await refused(key, "Invalid API key");
    } finally {
      delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE;
    }
  });

  test("written around the app's changes (plain SQL, the bare client): a changed secret digest, expiry or team is seen too", async () => {
    const team = await newTeam();
    const other = await newTeam();
    const byDigest = await warmKey(team.id);
    const newSecret = `team_${randomBytes(20).toString("hex")}`;
    await db().$executeRaw`UPDATE "ApiKey" SET "secretDigest" = ${digestSecret(newSecret)} WHERE "id" = ${byDigest.keyId}`;
    await refused(byDigest, "Invalid API key");
    assert.equal((await authenticate(request(byDigest, newSecret), context())).keyId, byDigest.keyId);

    const byExpiry = await warmKey(team.id);
    await db().apiKey.updateMany({ where: { id: byExpiry.keyId }, data: { expiresAt: new Date(Date.now() - 1_000) } });
    await refused(byExpiry, "Invalid API key");

    const moved = await warmKey(team.id);
    await db().$executeRaw`UPDATE "ApiKey" SET "teamId" = ${other.id} WHERE "id" = ${moved.keyId}`;
    assert.equal((await authenticate(request(moved), context())).team.id, other.id);
  });

  test("the key's repeats and spam checks, and the team's intake settings, are read again once changed", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id);
    await setApiKeyRepeats({ keyId: key.keyId, repeats: "add" });
    await setApiKeySpamChecks({ keyId: key.keyId, spamChecks: true });
    const changed = await authenticate(request(key), context());
    assert.deepEqual([changed.repeats, changed.spamChecks], ["add", true]);

    await db().team.update({
      where: { id: team.id },
      data: { spamThreshold: 3, defaultPhoneCountry: "DE", spamListsVersion: { increment: 1 }, routingVersion: { increment: 1 } },
    });
    const { team: read } = await authenticate(request(key), context());
    assert.deepEqual([read.spamThreshold, read.defaultPhoneCountry, read.spamListsVersion], [3, "DE", 1]);
    const versions = await findKeyVersions(key.keyId);
    await db().team.update({ where: { id: team.id }, data: { routingVersion: { increment: 1 }, name: "Renamed" } });
    assert.deepEqual(await findKeyVersions(key.keyId), versions, "columns the cache does not hold bump nothing");
  });
});

describe("the key cache: secrets, failures and size", () => {
  test("a wrong secret for a cached key is refused every time, and every failure is counted by the abuse limits", async () => {
    const team = await newTeam();
    const key = await warmKey(team.id);
    const ip = "192.0.2.77";
    for (let i = 0; i < env().AUTH_FAILURES_PER_IP; i++) {
      await assert.rejects(authenticate(request(key, `${key.secret}x`), context(ip)), { error: "Invalid API key" });
    }
    // The address has spent its failures: refused before any credential is checked, the right secret too.
    await assert.rejects(authenticate(request(key), context(ip)), { status: 429 });
    assert.equal((await authenticate(request(key), context())).keyId, key.keyId, "the key itself still works from elsewhere");
  });

  test("only keys that authenticated enter it: unknown ids, wrong secrets and orphaned keys never do", async () => {
    const team = await newTeam();
    const key = await createApiKey({ teamId: team.id });
    for (let i = 0; i < 200; i++) {
      await assert.rejects(authenticate(request({ keyId: randomBytes(10).toString("hex"), secret: key.secret }), context()));
    }
    await refused(key, "Invalid API key", `${key.secret}x`);
    const orphanTeam = await newTeam();
    const orphan = await createApiKey({ teamId: orphanTeam.id });
    await deleteTeam(orphanTeam.id);
    await refused(orphan, "Team ID required");
    assert.equal(cachedKeyCount(), 0);
  });

  test("bounded: past its capacity the least recently used key leaves first; capacity 0 caches nothing", async () => {
    setKeyCacheCapacity(3);
    const team = await newTeam();
    const keys = [];
    for (let i = 0; i < 4; i++) keys.push(await createApiKey({ teamId: team.id }));
    for (const key of keys.slice(0, 3)) await authenticate(request(key), context());
    const first = await keyForAuth(keys[0]!.keyId); // used again: keys[1] is now the least recent
    await authenticate(request(keys[3]!), context());
    assert.equal(cachedKeyCount(), 3);
    assert.equal(await keyForAuth(keys[0]!.keyId), first, "kept");
    const second = await keyForAuth(keys[1]!.keyId);
    assert.notEqual(await keyForAuth(keys[1]!.keyId), second, "left the cache: read anew each time");

    setKeyCacheCapacity(0);
    await authenticate(request(keys[0]!), context());
    assert.equal(cachedKeyCount(), 0);
  });
});
