import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createTeam, deleteTeam } from "../teams/team-store";
import { listApiKeys } from "./api-key-list";
import { createApiKey, deleteApiKey, rollApiKey, setApiKeyRepeats, takeSecretForCopy, updateApiKey } from "./api-key-changes";
import { keyRow, makeTeam, makeUser } from "./api-key-store.fixtures";
import { findKeyForAuth, touchApiKey } from "./key-lookup-store";
import { digestSecret, maskSecret, secretMatches } from "./secret";

// Managing API keys (lib/api-keys/api-key-list.ts, api-key-changes.ts, key-lookup-store.ts):
// the list (the full secret before its copy, masked after, newest first, this team only),
// renames, expiries, repeat settings and rolls with their audit events, deletes scoped by team, and the key
// lookup for authentication with its last-use time written at most once a minute. The
// secret's storage and its one copy: api-key-secret-copy.test.ts.

await useTestDatabase();

describe("listApiKeys", () => {
  test("shows the full secret before the copy and the masked one after, newest first, this team only", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const creator = await makeUser("lister@example.com");
    const first = await createApiKey({ teamId: team.id, description: "first", createdById: creator.id });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createApiKey({ teamId: team.id, description: "second" });
    await createApiKey({ teamId: other.id, description: "not mine" });

    const before = await listApiKeys(team.id);
    assert.deepEqual(
      before.map((k) => [k.keyId, k.description, k.secretDisplay, k.copied, k.createdBy, k.copiedBy]),
      [
        [second.keyId, "second", second.secret, false, { via: "cli" }, null],
        [first.keyId, "first", first.secret, false, { via: "web", email: "lister@example.com" }, null],
      ],
    );

    await takeSecretForCopy({ keyId: first.keyId, teamId: team.id, userId: creator.id });
    const after = await listApiKeys(team.id);
    const copied = after.find((k) => k.keyId === first.keyId)!;
    assert.equal(copied.copied, true);
    assert.ok(copied.copiedAt instanceof Date);
    assert.deepEqual(copied.copiedBy, { via: "web", email: "lister@example.com" });
    assert.equal(copied.secretMasked, copied.secretDisplay);
    assert.equal(copied.secretDisplay, maskSecret(first.secret.slice(5, 13)));
    assert.match(copied.secretDisplay, /^team_[0-9A-Za-z]{8}\*+$/);
    assert.equal(after.find((k) => k.keyId === second.keyId)!.secretDisplay, second.secret);
  });

  test("a team without keys gets an empty list", async () => {
    assert.deepEqual(await listApiKeys((await makeTeam()).id), []);
  });
});

describe("updateApiKey and rollApiKey", () => {
  const auditOf = async (teamId: string) =>
    (await db().auditEvent.findMany({ where: { teamId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [
      e.action,
      e.targetId,
      e.details,
    ]);

  test("renames and sets the expiry, one audit event per change; another team's key is untouched", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const { keyId } = await createApiKey({ teamId: team.id, description: "Old" });
    const expiresAt = new Date("2031-01-01T00:00:00Z");
    assert.equal(await updateApiKey({ keyId, teamId: other.id, description: "Stolen" }), false);
    assert.equal(await updateApiKey({ keyId, teamId: team.id, description: " New ", expiresAt }), true);
    assert.equal(await updateApiKey({ keyId, teamId: team.id, description: "New" }), true, "no change, no event");
    const row = await keyRow(keyId);
    assert.deepEqual([row.description, row.expiresAt?.toISOString()], ["New", expiresAt.toISOString()]);
    assert.equal((await findKeyForAuth(keyId))!.expiresAt?.toISOString(), expiresAt.toISOString());
    assert.deepEqual((await auditOf(team.id)).slice(1), [
      ["api_key.renamed", keyId, { from: "Old", to: "New", description: "New" }],
      ["api_key.expiry_set", keyId, { expires_at: expiresAt.toISOString(), description: "New" }],
    ]);
    assert.deepEqual(await auditOf(other.id), []);
  });

  test("a roll makes a replacement with the same description and gives the old key its expiry, never a later one", async () => {
    const team = await makeTeam();
    const old = await createApiKey({ teamId: team.id, description: "Website form" });
    const in24h = new Date("2031-01-02T00:00:00Z");
    const replacement = await rollApiKey({ keyId: old.keyId, teamId: team.id, oldKeyExpiresAt: in24h, createdById: null });
    assert.ok(replacement);
    assert.notEqual(replacement.keyId, old.keyId);
    const keys = await listApiKeys(team.id);
    assert.deepEqual(
      keys.map((k) => [k.keyId, k.description, k.expiresAt?.toISOString() ?? null, k.copied]).sort(),
      [
        [old.keyId, "Website form", in24h.toISOString(), false],
        [replacement.keyId, "Website form", null, false],
      ].sort(),
    );
    assert.ok(secretMatches(replacement.secret, (await keyRow(replacement.keyId)).secretDigest));
    // Rolling again with a later expiry keeps the earlier one.
    await rollApiKey({ keyId: old.keyId, teamId: team.id, oldKeyExpiresAt: new Date("2031-02-01T00:00:00Z"), createdById: null });
    assert.equal((await keyRow(old.keyId)).expiresAt?.toISOString(), in24h.toISOString());
    assert.equal(await rollApiKey({ keyId: old.keyId, teamId: (await makeTeam()).id, oldKeyExpiresAt: in24h, createdById: null }), null);
    const rolled = (await auditOf(team.id)).filter(([action]) => action === "api_key.rolled");
    assert.deepEqual(rolled[0], [
      "api_key.rolled",
      old.keyId,
      { description: "Website form", replacement: replacement.keyId, expires_at: in24h.toISOString() },
    ]);
  });
});

describe("a key's repeat setting (issue 41)", () => {
  const repeatsOf = async (keyId: string) => (await keyRow(keyId)).repeats;
  const events = async (teamId: string) =>
    (await db().auditEvent.findMany({ where: { teamId, action: "api_key.repeats_set" }, orderBy: { createdAt: "asc" } })).map((e) => [
      e.targetId,
      e.details,
      e.via,
    ]);

  test("a new key creates a new lead for a repeat unless told otherwise, and says so in its list row and audit event", async () => {
    const team = await makeTeam();
    const plain = await createApiKey({ teamId: team.id, description: "Plain" });
    const adding = await createApiKey({ teamId: team.id, description: "Adding", repeats: "add" });
    assert.deepEqual([await repeatsOf(plain.keyId), await repeatsOf(adding.keyId)], ["new", "add"]);
    assert.deepEqual((await listApiKeys(team.id)).map((k) => [k.description, k.repeats]).sort(), [
      ["Adding", "add"],
      ["Plain", "new"],
    ]);
    const generated = await db().auditEvent.findFirstOrThrow({
      where: { teamId: team.id, targetId: adding.keyId, action: "api_key.generated" },
    });
    assert.deepEqual(generated.details, { description: "Adding", repeats: "add", spamChecks: false });
  });

  test("an owner changes it, audited once per change; another team's id changes nothing; the CLI's change has no team", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    const { keyId } = await createApiKey({ teamId: team.id, description: "Form" });
    const actor = { userId: null, ip: "198.51.100.7", via: "web" as const };
    assert.equal(await setApiKeyRepeats({ keyId, teamId: other.id, repeats: "add", actor }), false);
    assert.equal(await repeatsOf(keyId), "new");
    assert.equal(await setApiKeyRepeats({ keyId, teamId: team.id, repeats: "add", actor }), true);
    assert.equal(await setApiKeyRepeats({ keyId, teamId: team.id, repeats: "add", actor }), true, "no change, no event");
    assert.equal(await setApiKeyRepeats({ keyId, repeats: "new" }), true);
    assert.equal(await repeatsOf(keyId), "new");
    assert.deepEqual(await events(team.id), [
      [keyId, { from: "new", to: "add", description: "Form" }, "web"],
      [keyId, { from: "add", to: "new", description: "Form" }, "cli"],
    ]);
    assert.deepEqual(await events(other.id), []);
    assert.equal(await setApiKeyRepeats({ keyId: "ffffffffffffffffffff", repeats: "add" }), false);
  });

  test("a roll's replacement keeps the old key's setting", async () => {
    const team = await makeTeam();
    const old = await createApiKey({ teamId: team.id, repeats: "add" });
    const replacement = await rollApiKey({
      keyId: old.keyId,
      teamId: team.id,
      oldKeyExpiresAt: new Date("2031-01-02T00:00:00Z"),
      createdById: null,
    });
    assert.equal(await repeatsOf(replacement!.keyId), "add");
  });
});

describe("deleteApiKey", () => {
  test("scoped by team: another team's id deletes nothing, the owner's deletes the key", async () => {
    const [owner, stranger] = [await makeTeam(), await makeTeam()];
    const { keyId } = await createApiKey({ teamId: owner.id });
    assert.equal(await deleteApiKey({ keyId, teamId: stranger.id }), false);
    assert.ok(await findKeyForAuth(keyId));
    assert.equal(await deleteApiKey({ keyId, teamId: owner.id }), true);
    assert.equal(await findKeyForAuth(keyId), null);
    assert.equal(await deleteApiKey({ keyId, teamId: owner.id }), false);
  });

  test("without a team (operator CLI) it deletes by key id", async () => {
    const team = await makeTeam();
    const { keyId } = await createApiKey({ teamId: team.id });
    assert.equal(await deleteApiKey({ keyId }), true);
    assert.equal(await findKeyForAuth(keyId), null);
  });
});

describe("findKeyForAuth and touchApiKey", () => {
  test("finds the key with its team; a deleted team leaves the key without one", async () => {
    const team = await createTeam({ slug: "auth-lookup", name: "Lookup", defaultPhoneCountry: "DE" });
    const { keyId, secret } = await createApiKey({ teamId: team.id });
    assert.deepEqual(await findKeyForAuth(keyId), {
      id: keyId,
      secretDigest: digestSecret(secret),
      lastUsedAt: null,
      expiresAt: null,
      repeats: "new",
      spamChecks: false,
      team: {
        id: team.id,
        slug: "auth-lookup",
        defaultPhoneCountry: "DE",
        repeatWindowDays: 365,
        spamThreshold: 10,
        spamBusinessOnly: false,
        spamBurstLimit: 5,
        spamBurstMinutes: 10,
        spamListsVersion: 0,
        suppressionListUsed: false,
      },
      versions: { key: 0, team: 0 },
    });
    await deleteTeam(team.id);
    const orphan = await findKeyForAuth(keyId);
    assert.equal(orphan?.team, null);
    assert.equal(orphan?.versions.team, null, "a deleted team has no version: a cached key of it is read again");
    assert.equal(await findKeyForAuth("ffffffffffffffffffff"), null);
  });

  test("records use at most once a minute", async () => {
    const team = await makeTeam();
    const { keyId } = await createApiKey({ teamId: team.id });
    const t0 = new Date("2030-01-01T10:00:00Z");
    const lastUsed = async () => (await keyRow(keyId)).lastUsedAt?.toISOString() ?? null;

    await touchApiKey({ id: keyId, lastUsedAt: null }, t0);
    assert.equal(await lastUsed(), t0.toISOString());

    const soon = new Date(t0.getTime() + 30_000);
    await touchApiKey({ id: keyId, lastUsedAt: t0 }, soon);
    assert.equal(await lastUsed(), t0.toISOString(), "a use within the minute is not written");
    await touchApiKey({ id: keyId, lastUsedAt: null }, soon);
    assert.equal(await lastUsed(), t0.toISOString(), "a stale in-memory copy does not rewrite a fresh time");

    const later = new Date(t0.getTime() + 61_000);
    await touchApiKey({ id: keyId, lastUsedAt: t0 }, later);
    assert.equal(await lastUsed(), later.toISOString());
  });
});
