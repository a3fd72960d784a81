import assert from "node:assert/strict";
import { describe, test } from "node:test";
import pg from "pg";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createTeam, deleteTeam } from "../teams/team-store";
import { listApiKeys } from "./api-key-list";
import { createApiKey, deleteApiKey, rollApiKey, takeSecretForCopy, updateApiKey } from "./api-key-changes";
import { findKeyForAuth, touchApiKey } from "./key-lookup-store";
import { digestSecret, maskSecret, secretMatches } from "./secret";

const database = await useTestDatabase();

let teamCount = 0;
const makeTeam = () => createTeam({ slug: `keys-${++teamCount}`, name: `Keys ${teamCount}` });
const makeUser = (email: string) => db().user.create({ data: { email, passwordHash: "x" }, select: { id: true } });
const keyRow = (keyId: string) => db().apiKey.findUniqueOrThrow({ where: { id: keyId } });
const pendingCiphertext = async (keyId: string) =>
  (await db().pendingSecret.findUnique({ where: { apiKeyId: keyId } }))?.ciphertext ?? null;

describe("createApiKey", () => {
  test("returns a key id and a secret; stores a digest, the prefix and a ciphertext, never the secret", async () => {
    const team = await makeTeam();
    const creator = await makeUser("creator@example.com");
    const { keyId, secret } = await createApiKey({ teamId: team.id, description: "  Website form  ", createdById: creator.id });
    assert.match(keyId, /^[0-9a-f]{20}$/);
    assert.match(secret, /^team_[0-9A-Za-z]{32,}$/);
    const row = await keyRow(keyId);
    assert.equal(row.teamId, team.id);
    assert.equal(row.description, "Website form");
    assert.equal(row.createdById, creator.id);
    assert.equal(row.secretDigest, digestSecret(secret));
    assert.equal(row.digestAlgorithm, "sha256");
    assert.equal(row.secretPrefix, secret.slice(5, 13));
    const ciphertext = await pendingCiphertext(keyId);
    assert.ok(ciphertext, "the secret must stay recoverable until its first copy");
    assert.ok(!ciphertext.includes(secret.slice(5)));
    assert.equal(row.copiedAt, null);
    assert.equal(row.lastUsedAt, null);
    assert.ok(!database.storedBytes().includes(Buffer.from(secret)), "the secret must not be on disk in clear");
  });

  test("a blank description is stored as none", async () => {
    const team = await makeTeam();
    for (const description of [undefined, null, "", "   "]) {
      const { keyId } = await createApiKey({ teamId: team.id, description });
      assert.equal((await keyRow(keyId)).description, null);
    }
  });
});

describe("takeSecretForCopy (the secret is shown until its first copy)", () => {
  test("returns the secret once, then null, and erases the ciphertext", async () => {
    const team = await makeTeam();
    const user = await makeUser("copier@example.com");
    const { keyId, secret } = await createApiKey({ teamId: team.id });

    assert.equal(await takeSecretForCopy({ keyId, teamId: team.id, userId: user.id }), secret);
    const row = await keyRow(keyId);
    assert.equal(await pendingCiphertext(keyId), null);
    assert.ok(row.copiedAt instanceof Date);
    assert.equal(row.copiedById, user.id);
    assert.equal(await takeSecretForCopy({ keyId, teamId: team.id, userId: user.id }), null);
    assert.ok(!database.storedBytes().includes(Buffer.from(secret)), "the secret must appear nowhere in the database files");
    assert.ok(!database.storedBytes().includes(Buffer.from(secret.slice(5))));
  });

  test("after the copy neither the secret nor its ciphertext is anywhere in the database's files", async () => {
    const team = await makeTeam();
    // A key copied before and keys still pending share its page, and it is the page's
    // newest row: a plain VACUUM on PostgreSQL compacts such a page around the live rows
    // and leaves the deleted row's bytes in the free space (this test caught that).
    const copiedBefore = await createApiKey({ teamId: team.id });
    await takeSecretForCopy({ keyId: copiedBefore.keyId, teamId: team.id, userId: null });
    const pendingBefore = await createApiKey({ teamId: team.id });
    const pendingAfter = await createApiKey({ teamId: team.id });
    const { keyId, secret } = await createApiKey({ teamId: team.id });
    const ciphertext = (await pendingCiphertext(keyId))!;
    // The test reads the files while the server's connection is open, as a copy of the
    // data folder would: the ciphertext is in them before the copy.
    assert.ok(database.storedBytes().includes(Buffer.from(ciphertext)), "the test must see the ciphertext before the copy");

    assert.equal(await takeSecretForCopy({ keyId, teamId: team.id, userId: null }), secret);
    const bytes = database.storedBytes();
    for (const [what, value] of [
      ["the secret", secret],
      ["its random part", secret.slice(5)],
      ["its ciphertext", ciphertext],
      ["the ciphertext's encrypted body", ciphertext.split(".")[3]!],
    ]) {
      assert.ok(!bytes.includes(Buffer.from(value!)), `${what} must appear nowhere in the database (${database.provider})`);
    }
    // The keys still pending are untouched.
    const listed = await listApiKeys(team.id);
    for (const pending of [pendingBefore, pendingAfter]) {
      assert.equal(listed.find((k) => k.keyId === pending.keyId)?.secretDisplay, pending.secret);
    }
  });

  if (database.provider === "postgres")
    test("PostgreSQL: a session that could still see the deleted row delays the erasure instead of keeping the ciphertext", async () => {
      const team = await makeTeam();
      const { keyId, secret } = await createApiKey({ teamId: team.id });
      const ciphertext = (await pendingCiphertext(keyId))!;
      // Another session holds a snapshot taken before the copy (a long report, an
      // autoanalyze): VACUUM FULL would copy the deleted row into the table's new file.
      const reader = new pg.Client({ connectionString: database.url });
      await reader.connect();
      try {
        await reader.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
        // A query on another table: a lock on PendingSecret would hold VACUUM FULL back anyway.
        await reader.query(`SELECT count(*) FROM "Team"`);
        const copied = takeSecretForCopy({ keyId, teamId: team.id, userId: null });
        await new Promise((resolve) => setTimeout(resolve, 400));
        await reader.query("COMMIT");
        assert.equal(await copied, secret);
      } finally {
        await reader.end();
      }
      assert.ok(!database.storedBytes().includes(Buffer.from(ciphertext)), "the ciphertext must be gone once the older snapshot ends");
    });

  test("the secret still verifies after the copy", async () => {
    const team = await makeTeam();
    const { keyId, secret } = await createApiKey({ teamId: team.id });
    await takeSecretForCopy({ keyId, teamId: team.id, userId: null });
    assert.equal(secretMatches(secret, (await findKeyForAuth(keyId))!.secretDigest), true);
  });

  test("of two concurrent copies exactly one gets the secret", async () => {
    const team = await makeTeam();
    for (let round = 0; round < 5; round++) {
      const { keyId, secret } = await createApiKey({ teamId: team.id });
      const results = await Promise.all([
        takeSecretForCopy({ keyId, teamId: team.id, userId: null }),
        takeSecretForCopy({ keyId, teamId: team.id, userId: null }),
        takeSecretForCopy({ keyId, teamId: team.id, userId: null }),
      ]);
      assert.deepEqual(
        results.filter((r) => r !== null),
        [secret],
      );
    }
  });

  test("another team's id cannot copy the secret, nor spend the copy", async () => {
    const [owner, stranger] = [await makeTeam(), await makeTeam()];
    const { keyId, secret } = await createApiKey({ teamId: owner.id });
    assert.equal(await takeSecretForCopy({ keyId, teamId: stranger.id, userId: null }), null);
    const row = await keyRow(keyId);
    assert.ok(await pendingCiphertext(keyId));
    assert.equal(row.copiedAt, null);
    assert.equal(await takeSecretForCopy({ keyId, teamId: owner.id, userId: null }), secret);
  });

  test("an unknown key id gets null", async () => {
    const team = await makeTeam();
    assert.equal(await takeSecretForCopy({ keyId: "00000000000000000000", teamId: team.id, userId: null }), null);
  });
});

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

describe("a key the CLI printed (shownToOperator)", () => {
  test("is born copied: masked, no recoverable secret, audited as shown to the operator, and it works", async () => {
    const team = await makeTeam();
    const { keyId, secret } = await createApiKey({ teamId: team.id, description: "From the CLI", shownToOperator: true });
    assert.equal(await pendingCiphertext(keyId), null);
    const [listed] = await listApiKeys(team.id);
    assert.equal(listed!.copied, true);
    assert.deepEqual([listed!.createdBy, listed!.copiedBy], [{ via: "cli" }, { via: "cli" }]);
    assert.equal(listed!.secretDisplay, maskSecret(secret.slice(5, 13)));
    assert.equal(await takeSecretForCopy({ keyId, teamId: team.id, userId: null }), null, "nobody can copy it again");
    const events = await db().auditEvent.findMany({ where: { teamId: team.id }, orderBy: { createdAt: "asc" } });
    assert.deepEqual(events.map((e) => [e.action, e.via, e.targetId]).sort(), [
      ["api_key.generated", "cli", keyId],
      ["api_key.secret_shown", "cli", keyId],
    ]);
    assert.ok(secretMatches(secret, (await keyRow(keyId)).secretDigest));
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
      team: { id: team.id, slug: "auth-lookup", defaultPhoneCountry: "DE" },
    });
    await deleteTeam(team.id);
    assert.equal((await findKeyForAuth(keyId))?.team, null);
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
