import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { DIGEST_ALGORITHM, digestSecret, generateKeyId, generateSecret, maskSecret, secretPrefix } from "./secret";
import { open, seal } from "./secret-box";

// Every database access for API keys lives here.

export type NewApiKey = { keyId: string; secret: string };

// Each change below is written with its audit event in one transaction. `actor` says who
// and from where (the web UI passes the signed-in user and the client address); without
// it, a change with a user is taken as the web UI's and one without as the CLI's.
function actorOf(actor: AuditActor | undefined, userId: string | null | undefined): AuditActor {
  return actor ?? { userId: userId ?? null, ip: null, via: userId ? "web" : "cli" };
}

export async function createApiKey(options: {
  teamId: string;
  description?: string | null;
  createdById?: string | null;
  actor?: AuditActor;
}): Promise<NewApiKey> {
  const keyId = generateKeyId();
  const secret = generateSecret();
  const description = options.description?.trim() || null;
  await db().$transaction(async (tx) => {
    await tx.apiKey.create({
      data: {
        id: keyId,
        teamId: options.teamId,
        description,
        createdById: options.createdById ?? null,
        secretDigest: digestSecret(secret),
        digestAlgorithm: DIGEST_ALGORITHM,
        secretPrefix: secretPrefix(secret),
        secretCiphertext: seal(secret, keyId),
      },
    });
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "api_key.generated",
        actor: actorOf(options.actor, options.createdById),
        targetId: keyId,
        details: { description },
      },
      tx,
    );
  });
  return { keyId, secret };
}

/** Deletes a key; with a teamId, only that team's key. Returns whether a key was deleted. */
export async function deleteApiKey(options: { keyId: string; teamId?: string; actor?: AuditActor }): Promise<boolean> {
  const where = options.teamId === undefined ? { id: options.keyId } : { id: options.keyId, teamId: options.teamId };
  return db().$transaction(async (tx) => {
    const key = await tx.apiKey.findFirst({ where, select: { teamId: true } });
    if (!key) return false;
    const { count } = await tx.apiKey.deleteMany({ where });
    if (count === 1 && key.teamId) {
      await recordAuditEvent(
        { teamId: key.teamId, action: "api_key.deleted", actor: actorOf(options.actor, null), targetId: options.keyId },
        tx,
      );
    }
    return count === 1;
  });
}

export type ApiKeyListItem = {
  keyId: string;
  description: string | null;
  createdAt: Date;
  createdByEmail: string | null;
  copied: boolean;
  copiedAt: Date | null;
  lastUsedAt: Date | null;
  /** The full secret until its first copy, then the masked form. */
  secretDisplay: string;
};

export async function listApiKeys(teamId: string): Promise<ApiKeyListItem[]> {
  const rows = await db().apiKey.findMany({ where: { teamId }, orderBy: { createdAt: "desc" } });
  const creatorIds = [...new Set(rows.map((r) => r.createdById).filter((id): id is string => id !== null))];
  const creators = creatorIds.length
    ? await db().user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, email: true } })
    : [];
  const emailOf = new Map(creators.map((u) => [u.id, u.email]));
  return rows.map((row) => {
    const copied = row.copiedAt !== null || row.secretCiphertext === null;
    return {
      keyId: row.id,
      description: row.description,
      createdAt: row.createdAt,
      createdByEmail: row.createdById ? (emailOf.get(row.createdById) ?? null) : null,
      copied,
      copiedAt: row.copiedAt,
      lastUsedAt: row.lastUsedAt,
      secretDisplay: copied ? maskSecret(row.secretPrefix) : open(row.secretCiphertext!, row.id),
    };
  });
}

/**
 * The first copy of a secret: returns it and erases the recoverable copy in one
 * conditional update, so of two simultaneous copies only one gets the secret.
 */
export async function takeSecretForCopy(options: {
  keyId: string;
  teamId: string;
  userId: string | null;
  actor?: AuditActor;
}): Promise<string | null> {
  const row = await db().apiKey.findFirst({
    where: { id: options.keyId, teamId: options.teamId, copiedAt: null },
    select: { secretCiphertext: true },
  });
  if (!row?.secretCiphertext) return null;
  const ciphertext = row.secretCiphertext;
  const taken = await db().$transaction(async (tx) => {
    const { count } = await tx.apiKey.updateMany({
      where: { id: options.keyId, teamId: options.teamId, copiedAt: null },
      data: { copiedAt: new Date(), copiedById: options.userId, secretCiphertext: null },
    });
    if (count !== 1) return false;
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "api_key.secret_copied",
        actor: actorOf(options.actor, options.userId),
        targetId: options.keyId,
      },
      tx,
    );
    return true;
  });
  return taken ? open(ciphertext, options.keyId) : null;
}

export type KeyForAuth = {
  id: string;
  secretDigest: string;
  lastUsedAt: Date | null;
  team: { id: string; slug: string; defaultPhoneCountry: string | null } | null;
};

type KeyForAuthRow = {
  id: string;
  secretDigest: string;
  lastUsedAt: Date | string | null;
  teamId: string | null;
  teamSlug: string | null;
  defaultPhoneCountry: string | null;
};

/**
 * The key and its team in one statement. This runs on every create_lead, and a raw query
 * costs a fraction of Prisma's two model queries (key, then team: README "Performance").
 * Identical SQL on SQLite and PostgreSQL.
 */
export async function findKeyForAuth(keyId: string): Promise<KeyForAuth | null> {
  const rows = await db().$queryRaw<KeyForAuthRow[]>`
    SELECT k."id", k."secretDigest", k."lastUsedAt", t."id" AS "teamId", t."slug" AS "teamSlug", t."defaultPhoneCountry"
    FROM "ApiKey" k LEFT JOIN "Team" t ON t."id" = k."teamId"
    WHERE k."id" = ${keyId}`;
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    secretDigest: row.secretDigest,
    lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt),
    team: row.teamId === null ? null : { id: row.teamId, slug: row.teamSlug!, defaultPhoneCountry: row.defaultPhoneCountry },
  };
}

/** Records use of a key at most once a minute, so the hot path rarely writes. */
export async function touchApiKey(key: { id: string; lastUsedAt: Date | null }, now = new Date()): Promise<void> {
  const staleBefore = new Date(now.getTime() - 60_000);
  if (key.lastUsedAt && key.lastUsedAt > staleBefore) return;
  await db().apiKey.updateMany({
    where: { id: key.id, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: staleBefore } }] },
    data: { lastUsedAt: now },
  });
}

/** The description of one of the team's keys, or null when the key is gone (the lead detail names its key). */
export async function findApiKeyDescription(options: { keyId: string; teamId: string }): Promise<{ description: string | null } | null> {
  return db().apiKey.findFirst({ where: { id: options.keyId, teamId: options.teamId }, select: { description: true } });
}
