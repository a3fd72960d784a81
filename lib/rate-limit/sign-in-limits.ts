import { env } from "../env";
import { log } from "../log/logger";
import { consume, createLimiter, limiterSet, used } from "./limiter-store";

// Password guessing on the sign-in form (docs/operations.md "Abuse limits, Redis and proxies"):
//
// - failed sign-ins per email and client address: SIGN_IN_FAILURES_PER_EMAIL_AND_IP per
//   AUTH_FAILURE_WINDOW_SECONDS. Keyed on the pair, not the email alone, so nobody can
//   lock an admin out by failing their email from elsewhere; a success clears the pair.
// - failed sign-ins per client address, whatever the email: SIGN_IN_FAILURES_PER_IP.
//
// Once spent, the sign-in is refused before the password is checked (no hashing round).
// The current password asked by Account → Change password is a guess at the same secret:
// it spends and checks the same budgets (lib/users/change-password.ts).
// The email is never logged: people type passwords into the email field.

const limiters = limiterSet("leadIntakeSignInLimiters", (config) => ({
  perEmailAndIp: createLimiter("signin-email-ip", config.SIGN_IN_FAILURES_PER_EMAIL_AND_IP, config.AUTH_FAILURE_WINDOW_SECONDS),
  perIp: createLimiter("signin-ip", config.SIGN_IN_FAILURES_PER_IP, config.AUTH_FAILURE_WINDOW_SECONDS),
}));

/** The error text next-auth passes to the sign-in form: the code, a colon, seconds to wait. */
export const SIGN_IN_THROTTLED = "SignInThrottled";

function pairKey(email: string, ip: string): string {
  return `${email.toLowerCase()}|${ip}`;
}

/** Seconds until this address, or this email from it, may try a password again; null when it may now. */
export async function passwordRetryAfter(email: string, ip: string): Promise<number | null> {
  const { perEmailAndIp, perIp } = limiters();
  const config = env();
  const [pair, address] = await Promise.all([used(perEmailAndIp, pairKey(email, ip)), used(perIp, ip)]);
  const over =
    address.points >= config.SIGN_IN_FAILURES_PER_IP
      ? { limit: "sign_in_failures_per_ip", ms: address.msBeforeNext }
      : pair.points >= config.SIGN_IN_FAILURES_PER_EMAIL_AND_IP
        ? { limit: "sign_in_failures_per_email_and_ip", ms: pair.msBeforeNext }
        : null;
  if (!over) return null;
  log("warn", "rate_limit.exceeded", { ip, limit: over.limit });
  return Math.max(1, Math.ceil(over.ms / 1000));
}

/** Throws `SignInThrottled:<seconds>` when this address, or this email from it, has spent its budget. */
export async function assertSignInAllowed(email: string, ip: string): Promise<void> {
  const seconds = await passwordRetryAfter(email, ip);
  if (seconds !== null) throw new Error(`${SIGN_IN_THROTTLED}:${seconds}`);
}

/** Counts a failed sign-in against the address and the email from that address. */
export async function recordSignInFailure(email: string, ip: string): Promise<void> {
  const { perEmailAndIp, perIp } = limiters();
  await Promise.all([consume(perEmailAndIp, pairKey(email, ip)), consume(perIp, ip)]);
  log("warn", "sign_in.failed", { ip });
}

/** A successful sign-in forgets this pair's failures (the address's count stays). */
export async function clearSignInFailures(email: string, ip: string): Promise<void> {
  await limiters().perEmailAndIp.delete(pairKey(email, ip));
}
