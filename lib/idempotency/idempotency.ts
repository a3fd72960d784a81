import { createHash } from "node:crypto";
import { ApiError, badRequest, validationError } from "../http/api-error";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import {
  ClaimLostError,
  insertClaim,
  purgeExpired,
  releaseClaim,
  takeOverClaim,
  type Claim,
  type StoredResponse,
} from "./idempotency-store";

// Idempotency-Key with Stripe's semantics (docs/security.md "Hardening"):
// - scoped to the API key, kept 24 h with a fingerprint of the request and its response;
// - a retry with the same parameters replays the stored status and body, creating nothing;
// - the same key with other parameters: 422; while the first request still runs: 409;
// - requests that fail before creating anything (bad input, 5xx) store nothing, so the
//   key can be retried.
// The claim row is inserted before the lead is created, so a concurrent retry can see
// that the first request is running (409); the response is stored in the lead's own
// transaction, fenced by the claim's token, so exactly one lead is created per key.

export const RETENTION_MS = 24 * 60 * 60 * 1000;
/** A claim with no response after this long belongs to a request that died. */
export const STALE_CLAIM_MS = 60 * 1000;
const PURGE_EVERY_MS = 60 * 1000;

export type IdempotentRequest = { apiKeyId: string; key: string; fingerprint: string };
/**
 * A claim for the creating transaction to complete: it stores the response where the row
 * still has this `id` and `token` and no response, and rolls back with `lost()` otherwise
 * (lib/leads/lead-writer.ts).
 */
export type ClaimToComplete = Claim & { lost: () => Error };
export type Outcome = StoredResponse & { replayed: boolean };

const KEY_TEXT = /^[\x21-\x7e]{1,255}$/;

/** The Idempotency-Key header: absent → null; otherwise 1–255 visible ASCII characters. */
export function idempotencyKeyFrom(headers: Headers): string | null {
  const value = headers.get("idempotency-key");
  if (value === null) return null;
  const key = value.trim();
  if (!KEY_TEXT.test(key)) throw badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters");
  return key;
}

/**
 * What "the same request" means: the operation and its parameters, by name, whatever
 * the body's encoding, field order or multipart boundary. Values keep their JSON type.
 */
export function fingerprint(operation: string, fields: readonly (readonly [string, unknown])[]): string {
  const sorted = [...fields].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([operation, sorted]))
    .digest("hex");
}

let lastPurge = 0;

function purgeNowAndThen(now: Date, context: RequestContext): void {
  if (now.getTime() - lastPurge < PURGE_EVERY_MS) return;
  lastPurge = now.getTime();
  purgeExpired(now).catch((error: unknown) =>
    log("warn", "idempotency.purge_failed", { request_id: context.requestId, error: (error as Error)?.name }),
  );
}

function stillProcessing(): ApiError {
  return new ApiError(409, "A request with this Idempotency-Key is still being processed; retry shortly", "Conflict", {
    "Retry-After": "1",
  });
}

async function claim(request: IdempotentRequest, now: Date): Promise<{ claim: Claim } | { replay: StoredResponse }> {
  const expiresAt = new Date(now.getTime() + RETENTION_MS);
  const inserted = await insertClaim({ ...request, now, expiresAt });
  if ("claim" in inserted) return inserted;

  const record = inserted.existing;
  const expired = record.expiresAt <= now;
  if (!expired && record.fingerprint !== request.fingerprint) {
    throw validationError("This Idempotency-Key was already used with a different request");
  }
  if (!expired && record.response) return { replay: record.response };

  const stale = expired || now.getTime() - record.lockedAt.getTime() > STALE_CLAIM_MS;
  if (stale) {
    const taken = await takeOverClaim({ record, fingerprint: request.fingerprint, now, expiresAt });
    if (taken) return { claim: taken };
  }
  throw stillProcessing();
}

/**
 * Runs `create` at most once per (API key, Idempotency-Key). Without a key it simply
 * runs. `create` must complete the claim inside the transaction that creates the resource.
 */
export async function runIdempotently(
  request: IdempotentRequest | null,
  context: RequestContext,
  create: (claim: ClaimToComplete | null) => Promise<StoredResponse>,
): Promise<Outcome> {
  if (!request) return { ...(await create(null)), replayed: false };

  const now = new Date();
  purgeNowAndThen(now, context);
  const claimed = await claim(request, now);
  if ("replay" in claimed) return { ...claimed.replay, replayed: true };

  try {
    const response = await create({ ...claimed.claim, lost: () => new ClaimLostError("Idempotency claim lost before completion") });
    return { ...response, replayed: false };
  } catch (error) {
    // Nothing was created (the transaction rolled back), so the key is free again.
    await releaseClaim(claimed.claim).catch(() => undefined);
    // A retry took the key over while this request ran too long: that retry is the one
    // that counts, and this caller retries to get its answer (replayed).
    if (error instanceof ClaimLostError) throw stillProcessing();
    throw error;
  }
}
