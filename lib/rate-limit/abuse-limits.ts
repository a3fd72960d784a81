import { env } from "../env";
import { ApiError } from "../http/api-error";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { consume, createLimiter, limiterSet, used } from "./limiter-store";

// The endpoint's abuse limits (docs/operations.md "Abuse limits, Redis and proxies"):
//
// - per API key: RATE_LIMIT_PER_KEY requests per RATE_LIMIT_WINDOW_SECONDS, counted only
//   after the secret is verified, so nobody can spend another team's budget;
// - failed authentications per client IP: AUTH_FAILURES_PER_IP per window; once spent,
//   that IP is refused before any credential is checked;
// - failed authentications per key id: AUTH_FAILURES_PER_KEY_ID per window. Once spent,
//   the key id is refused before its secret is checked, except from addresses where it
//   has recently authenticated successfully. Hammering a team's key id from elsewhere
//   therefore stops the guessing without locking out the team's own servers; the price
//   is that a brand-new address of that team waits out the window too.
//
// Checks read the failure counters before the credentials are verified and count after:
// a burst of concurrent guesses can pass the check together, at most one per open
// connection, before the counter catches up.

const KNOWN_ADDRESS_DAYS = 7;
const KNOWN_ADDRESS_REFRESH_MS = 60 * 60 * 1000;
const KNOWN_ADDRESS_CACHE = 50_000;

const limiters = limiterSet("leadIntakeLimiters", (config) => {
  const failureWindow = config.AUTH_FAILURE_WINDOW_SECONDS;
  return {
    perKey: createLimiter("key", config.RATE_LIMIT_PER_KEY, config.RATE_LIMIT_WINDOW_SECONDS),
    failuresPerIp: createLimiter("authfail-ip", config.AUTH_FAILURES_PER_IP, failureWindow),
    failuresPerKeyId: createLimiter("authfail-key", config.AUTH_FAILURES_PER_KEY_ID, failureWindow),
    knownAddresses: createLimiter("auth-ok", 1, KNOWN_ADDRESS_DAYS * 24 * 3600),
  };
});

export const RATE_LIMITED = "Rate limit exceeded";

function tooMany(error: string, msBeforeNext: number): ApiError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new ApiError(429, `${error}; retry in ${seconds} s`, RATE_LIMITED, { "Retry-After": String(seconds) });
}

function limitHit(context: RequestContext, limit: string, fields: Record<string, unknown>): void {
  log("warn", "rate_limit.exceeded", { request_id: context.requestId, ip: context.ip, limit, ...fields });
}

/**
 * Refuses (429) a caller whose address, or the key id it presents, has spent its
 * failed-authentication budget. `keyId` is only given when it is well-formed.
 */
export async function assertNotLockedOut(context: RequestContext, keyId: string | null): Promise<void> {
  const { failuresPerIp, failuresPerKeyId, knownAddresses } = limiters();
  const [byIp, byKey] = await Promise.all([used(failuresPerIp, context.ip), keyId ? used(failuresPerKeyId, keyId) : null]);
  if (byIp.points >= env().AUTH_FAILURES_PER_IP) {
    limitHit(context, "auth_failures_per_ip", { key_id: keyId });
    throw tooMany("Too many failed authentication attempts", byIp.msBeforeNext);
  }
  if (keyId && byKey && byKey.points >= env().AUTH_FAILURES_PER_KEY_ID) {
    const known = await knownAddresses.get(knownAddressKey(keyId, context.ip));
    if (!known) {
      limitHit(context, "auth_failures_per_key_id", { key_id: keyId });
      throw tooMany("Too many failed authentication attempts", byKey.msBeforeNext);
    }
  }
}

/** Counts one failed authentication against the address and, when well-formed, the key id. */
export async function recordAuthFailure(context: RequestContext, keyId: string | null): Promise<void> {
  const { failuresPerIp, failuresPerKeyId } = limiters();
  await Promise.all([consume(failuresPerIp, context.ip), keyId ? consume(failuresPerKeyId, keyId) : null]);
}

const recentlyKnown = new Map<string, number>();

/** Remembers that `keyId` authenticated from this address (written at most hourly per pair). */
export async function recordAuthSuccess(context: RequestContext, keyId: string): Promise<void> {
  const pair = knownAddressKey(keyId, context.ip);
  const now = Date.now();
  if (now - (recentlyKnown.get(pair) ?? 0) < KNOWN_ADDRESS_REFRESH_MS) return;
  if (recentlyKnown.size >= KNOWN_ADDRESS_CACHE) recentlyKnown.clear();
  recentlyKnown.set(pair, now);
  await limiters().knownAddresses.set(pair, 1, KNOWN_ADDRESS_DAYS * 24 * 3600);
}

/** Spends one request of the key's budget; 429 with Retry-After when it is gone. */
export async function consumeKeyBudget(context: RequestContext, keyId: string): Promise<void> {
  const verdict = await consume(limiters().perKey, keyId);
  if (!verdict) return;
  limitHit(context, "requests_per_key", { key_id: keyId });
  const { RATE_LIMIT_PER_KEY, RATE_LIMIT_WINDOW_SECONDS } = env();
  throw tooMany(
    `Rate limit of ${RATE_LIMIT_PER_KEY} requests per ${RATE_LIMIT_WINDOW_SECONDS} s exceeded for this API key`,
    verdict.msBeforeNext,
  );
}

function knownAddressKey(keyId: string, ip: string): string {
  return `${keyId}|${ip}`;
}
