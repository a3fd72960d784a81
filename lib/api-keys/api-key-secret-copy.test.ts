import assert from "node:assert/strict";
import { describe, test } from "node:test";
import pg from "pg";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { listApiKeys } from "./api-key-list";
import { createApiKey, takeSecretForCopy } from "./api-key-changes";
import { keyRow, makeTeam, makeUser, pendingCiphertext } from "./api-key-store.fixtures";
import { findKeyForAuth } from "./key-lookup-store";
import { digestSecret, maskSecret, secretMatches } from "./secret";

// An API key's secret (lib/api-keys/api-key-changes.ts): createApiKey stores a digest, the
// prefix and a ciphertext, never the secret; takeSecretForCopy gives it once, to the key's
// own team, and then neither the secret nor its ciphertext is anywhere in the database's
// files (both databases; on PostgreSQL also while an older snapshot is open); a key the CLI
// printed is born copied. Listing, changing, deleting and finding keys:
// api-key-management.test.ts.

const database = await useTestDatabase();

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
