import { AuthenticationError } from "../http/api-error";
import type { IntakeTeam } from "../teams/intake-team";
import type { Repeats } from "../leads/repeats";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { assertNotLockedOut, consumeKeyBudget, recordAuthFailure, recordAuthSuccess } from "../rate-limit/abuse-limits";
import { keyForAuth, rememberKey } from "./key-cache";
import { touchApiKey } from "./key-lookup-store";
import { now } from "../time/clock";
import { secretMatches } from "./secret";

export type AuthenticatedKey = { keyId: string; team: IntakeTeam; repeats: Repeats; spamChecks: boolean };

const KEY_ID = /^[0-9a-f]{20}$/;

/** The key a failure is about, when the presented id is a real key of a team. */
export type FailedKey = { keyId: string; teamId: string };

type Failure = { error: string; reason: string; key?: FailedKey };

/**
 * Spec section 5: the X-API-Key / X-API-Secret pair identifies a team. Unknown key,
 * wrong secret and deleted key fail identically ("Invalid API key"); a key whose team
 * is gone fails with "Team ID required", told only to a caller holding the right secret.
 * Around it, the abuse limits of lib/rate-limit/abuse-limits.ts: lockouts are checked
 * before the credentials, failures counted and logged after; the caller spends the key's
 * budget (spendKeyBudget) once it can record a refusal in the key's request log.
 * The key's row comes from the per-process key cache (./key-cache.ts) while its versions are
 * unchanged; every outcome, and every failure counted, is the same as without it.
 */
export async function authenticate(headers: Headers, context: RequestContext): Promise<AuthenticatedKey> {
  const presentedKeyId = headers.get("x-api-key")?.trim() ?? "";
  const secret = headers.get("x-api-secret")?.trim() ?? "";
  const keyId = KEY_ID.test(presentedKeyId) ? presentedKeyId : null;

  await assertNotLockedOut(context, keyId);
  const verdict = await verify(keyId, presentedKeyId, secret);
  if ("error" in verdict) {
    await recordAuthFailure(context, keyId);
    log("warn", "auth.failed", {
      request_id: context.requestId,
      ip: context.ip,
      reason: verdict.reason,
      // Only a well-formed id is logged; anything else is the caller's free text.
      key_id: keyId,
    });
    throw new AuthenticationError(verdict.error, verdict.key ?? null);
  }

  await recordAuthSuccess(context, verdict.keyId);
  return verdict;
}

/** The authenticated key's request budget (429 past it); spent after authentication. */
export function spendKeyBudget(context: RequestContext, key: AuthenticatedKey): Promise<void> {
  return consumeKeyBudget(context, key.keyId);
}

async function verify(keyId: string | null, presentedKeyId: string, secret: string): Promise<AuthenticatedKey | Failure> {
  if (!presentedKeyId || !secret) return { error: "API key required", reason: "missing_credentials" };

  const key = keyId ? await keyForAuth(keyId) : null;
  if (!secretMatches(secret, key?.secretDigest ?? null) || !key) {
    if (!key) return { error: "Invalid API key", reason: "unknown_or_deleted_key" };
    return { error: "Invalid API key", reason: "wrong_secret", ...(key.team ? { key: { keyId: key.id, teamId: key.team.id } } : {}) };
  }
  if (!key.team) return { error: "Team ID required", reason: "team_deleted" };
  // An expired key (rolled, or given an expiry) answers like a deleted one; the team sees
  // the refusal in the key's request log.
  if (key.expiresAt && key.expiresAt.getTime() <= now().getTime()) {
    return { error: "Invalid API key", reason: "expired_key", key: { keyId: key.id, teamId: key.team.id } };
  }

  await touchApiKey(key);
  rememberKey(key);
  return { keyId: key.id, team: key.team, repeats: key.repeats, spamChecks: key.spamChecks };
}
