import type { Tx } from "../db/client";
import { env } from "../env";
import { parseRepeats, type Repeats } from "../leads/repeats";
import { DIGEST_ALGORITHM, digestSecret, secretPrefix } from "./secret";
import { noteDeletingTransaction } from "../maintenance/secret-erasure";
import { seal } from "./secret-box";

// The API keys' rows, and nothing else: a store only stores. Each function runs in the
// caller's transaction; the audited changes (create, update, roll, delete, a secret's
// first copy) are api-key-changes.ts. The lists pages show are api-key-list.ts, the hot
// path's lookup key-lookup-store.ts, making the database forget a copied secret's bytes
// lib/maintenance/secret-erasure.ts.

type KeyRef = { keyId: string; teamId: string };

/**
 * Stores a new key: the secret's digest and prefix, and the secret itself sealed to the
 * key's id until its first copy. A key `bornCopied` (its secret shown once, by the CLI)
 * keeps no recoverable secret and is marked copied by nobody.
 */
export async function insertApiKey(
  tx: Tx,
  key: {
    keyId: string;
    teamId: string;
    description: string | null;
    createdById: string | null;
    secret: string;
    expiresAt: Date | null;
    bornCopied: boolean;
    repeats: Repeats;
    spamChecks: boolean;
  },
): Promise<void> {
  await tx.apiKey.create({
    data: {
      id: key.keyId,
      teamId: key.teamId,
      description: key.description,
      createdById: key.createdById,
      secretDigest: digestSecret(key.secret),
      digestAlgorithm: DIGEST_ALGORITHM,
      secretPrefix: secretPrefix(key.secret),
      expiresAt: key.expiresAt,
      repeats: key.repeats,
      spamChecks: key.spamChecks,
      ...(key.bornCopied
        ? { copiedAt: new Date(), copiedById: null }
        : { pendingSecret: { create: { ciphertext: seal(key.secret, key.keyId) } } }),
    },
  });
}

/** The team a key belongs to (null once its team is gone); null when there is no such key (of that team, when given). */
export async function findKeyTeam(tx: Tx, options: { keyId: string; teamId?: string }): Promise<{ teamId: string | null } | null> {
  return tx.apiKey.findFirst({ where: keyWhere(options), select: { teamId: true } });
}

/** Deletes a key (of that team, when given); returns how many rows went. */
export async function deleteKeyRow(tx: Tx, options: { keyId: string; teamId?: string }): Promise<number> {
  const { count } = await tx.apiKey.deleteMany({ where: keyWhere(options) });
  return count;
}

const keyWhere = (options: { keyId: string; teamId?: string }) =>
  options.teamId === undefined ? { id: options.keyId } : { id: options.keyId, teamId: options.teamId };

/** The team's key's description, expiry, repeat setting and spam checks; null when the team has no such key. */
export async function findKeySettings(
  tx: Tx,
  key: KeyRef,
): Promise<{ description: string | null; expiresAt: Date | null; repeats: Repeats; spamChecks: boolean } | null> {
  const row = await tx.apiKey.findFirst({
    where: { id: key.keyId, teamId: key.teamId },
    select: { description: true, expiresAt: true, repeats: true, spamChecks: true },
  });
  return row && { ...row, repeats: parseRepeats(row.repeats) ?? "new" };
}

/**
 * Sets a key's repeat setting (of that team, when given) and returns what it was, with the
 * key's team and description; null when there is no such key.
 */
export async function writeKeyRepeats(
  tx: Tx,
  options: { keyId: string; teamId?: string; repeats: Repeats },
): Promise<{ teamId: string | null; description: string | null; repeats: Repeats } | null> {
  const row = await tx.apiKey.findFirst({ where: keyWhere(options), select: { teamId: true, description: true, repeats: true } });
  if (!row) return null;
  await tx.apiKey.update({ where: { id: options.keyId }, data: { repeats: options.repeats } });
  return { ...row, repeats: parseRepeats(row.repeats) ?? "new" };
}

/**
 * Turns the spam checks of a key (of that team, when given) on or off and returns what they
 * were, with the key's team and description; null when there is no such key.
 */
export async function writeKeySpamChecks(
  tx: Tx,
  options: { keyId: string; teamId?: string; spamChecks: boolean },
): Promise<{ teamId: string | null; description: string | null; spamChecks: boolean } | null> {
  const row = await tx.apiKey.findFirst({ where: keyWhere(options), select: { teamId: true, description: true, spamChecks: true } });
  if (!row) return null;
  await tx.apiKey.update({ where: { id: options.keyId }, data: { spamChecks: options.spamChecks } });
  return row;
}

/** Writes a key's description and/or expiry (a field left undefined is kept). */
export async function writeKeySettings(
  tx: Tx,
  keyId: string,
  settings: { description?: string | null; expiresAt?: Date | null },
): Promise<void> {
  await tx.apiKey.update({ where: { id: keyId }, data: settings });
}

/**
 * Marks the team's key copied by `userId` and deletes its sealed secret, returning the
 * ciphertext: one conditional update, so of two simultaneous calls only one gets it. Null
 * when the key is unknown or already copied. Notes the deleting transaction for the
 * database's erasure (lib/maintenance/secret-erasure.ts) on PostgreSQL.
 */
export async function takePendingSecret(tx: Tx, options: KeyRef & { userId: string | null }): Promise<string | null> {
  const { count } = await tx.apiKey.updateMany({
    where: { id: options.keyId, teamId: options.teamId, copiedAt: null },
    data: { copiedAt: new Date(), copiedById: options.userId },
  });
  if (count !== 1) return null;
  const [pending] = await tx.$queryRaw<{ ciphertext: string }[]>`
      DELETE FROM "PendingSecret" WHERE "apiKeyId" = ${options.keyId} RETURNING "ciphertext"`;
  // Rolls the copy back: a key marked copied must have handed out its secret.
  if (!pending) throw new Error("An uncopied API key has no pending secret");
  if (env().DATABASE_PROVIDER === "postgres") {
    const [row] = await tx.$queryRaw<{ xid: string }[]>`SELECT pg_current_xact_id()::text AS xid`;
    noteDeletingTransaction(BigInt(row!.xid));
  }
  return pending.ciphertext;
}
