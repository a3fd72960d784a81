import { randomBytes } from "node:crypto";
import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";

// Every database access for Idempotency-Key records lives here.

export type StoredResponse = { status: number; body: string };

/** The right to run a request under a key, held until completed or released. */
export type Claim = { id: string; token: string };

export type IdempotencyRecord = {
  id: string;
  token: string;
  fingerprint: string;
  lockedAt: Date;
  expiresAt: Date;
  response: StoredResponse | null;
};

const SELECT = {
  id: true,
  token: true,
  fingerprint: true,
  lockedAt: true,
  expiresAt: true,
  responseStatus: true,
  responseBody: true,
} as const;

type Row = {
  id: string;
  token: string;
  fingerprint: string;
  lockedAt: Date;
  expiresAt: Date;
  responseStatus: number | null;
  responseBody: string | null;
};

function toRecord(row: Row): IdempotencyRecord {
  const response = row.responseStatus === null || row.responseBody === null ? null : { status: row.responseStatus, body: row.responseBody };
  return { id: row.id, token: row.token, fingerprint: row.fingerprint, lockedAt: row.lockedAt, expiresAt: row.expiresAt, response };
}

const newToken = () => randomBytes(16).toString("hex");

/**
 * Inserts the claim for (apiKeyId, key). The unique index decides between concurrent
 * requests: exactly one insert succeeds; the others get the existing record back.
 */
export async function insertClaim(options: {
  apiKeyId: string;
  key: string;
  fingerprint: string;
  now: Date;
  expiresAt: Date;
}): Promise<{ claim: Claim } | { existing: IdempotencyRecord }> {
  const token = newToken();
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const row = await db().idempotencyRecord.create({
        data: {
          apiKeyId: options.apiKeyId,
          key: options.key,
          fingerprint: options.fingerprint,
          token,
          lockedAt: options.now,
          expiresAt: options.expiresAt,
        },
        select: { id: true },
      });
      return { claim: { id: row.id, token } };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
    const row = await db().idempotencyRecord.findUnique({
      where: { apiKeyId_key: { apiKeyId: options.apiKeyId, key: options.key } },
      select: SELECT,
    });
    // Gone between the insert and the read (released or purged): try the insert again.
    if (row) return { existing: toRecord(row) };
  }
  throw new Error("Idempotency claim kept disappearing");
}

/**
 * Takes over a record whose holder is gone (expired, or claimed long ago with no
 * response). Conditional on the token seen, so of two takers only one wins, and the
 * old holder can no longer complete (its token no longer matches).
 */
export async function takeOverClaim(options: {
  record: IdempotencyRecord;
  fingerprint: string;
  now: Date;
  expiresAt: Date;
}): Promise<Claim | null> {
  const token = newToken();
  const { count } = await db().idempotencyRecord.updateMany({
    where: { id: options.record.id, token: options.record.token },
    data: {
      token,
      fingerprint: options.fingerprint,
      lockedAt: options.now,
      expiresAt: options.expiresAt,
      responseStatus: null,
      responseBody: null,
    },
  });
  return count === 1 ? { id: options.record.id, token } : null;
}

/** The claim was taken over (its request ran past the stale limit) before it completed. */
export class ClaimLostError extends Error {
  override name = "ClaimLostError";
}

/** Gives a claim back when its request failed without creating anything. */
export async function releaseClaim(claim: Claim): Promise<void> {
  await db().idempotencyRecord.deleteMany({ where: { id: claim.id, token: claim.token, responseStatus: null } });
}

export async function purgeExpired(now: Date): Promise<number> {
  const { count } = await db().idempotencyRecord.deleteMany({ where: { expiresAt: { lt: now } } });
  return count;
}

/**
 * An erasure (lib/leads/erase-person.ts): deletes the stored responses that name these
 * leads, so a replay can no longer answer with an erased lead's id. Lead ids are unique
 * across teams; the match includes the JSON key and quotes, so CRM-LEAD-10000 never
 * matches CRM-LEAD-100000.
 */
export async function eraseLeadResponses(tx: Tx, leadIds: readonly string[]): Promise<number> {
  let erased = 0;
  for (const id of leadIds) {
    const { count } = await tx.idempotencyRecord.deleteMany({ where: { responseBody: { contains: `"lead_id":${JSON.stringify(id)}` } } });
    erased += count;
  }
  return erased;
}
