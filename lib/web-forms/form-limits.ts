import { ApiError } from "../http/api-error";
import type { RequestContext } from "../http/request-context";
import { log } from "../log/logger";
import { RATE_LIMITED } from "../rate-limit/abuse-limits";
import { consume, createLimiter, limiterSet } from "../rate-limit/limiter-store";

// The web forms' limits (docs/web-forms.md): submissions per client address (over every
// form of this deployment) and per form, and challenge fetches per address, each per
// FORM_RATE_LIMIT_WINDOW_SECONDS; in Redis when REDIS_URL is set, like the API's limits.
// A form builder's connection (docs/connections.md) has a budget of its own in the same
// window.

const limiters = limiterSet("leadIntakeFormLimiters", (config) => {
  const window = config.FORM_RATE_LIMIT_WINDOW_SECONDS;
  return {
    submissionsPerIp: createLimiter("form-ip", config.FORM_SUBMISSIONS_PER_IP, window),
    submissionsPerForm: createLimiter("form", config.FORM_SUBMISSIONS_PER_FORM, window),
    challengesPerIp: createLimiter("form-challenge-ip", config.FORM_CHALLENGES_PER_IP, window),
    deliveriesPerConnection: createLimiter("connection", config.CONNECTION_DELIVERIES_PER_CONNECTION, window),
    signatureFailuresPerConnection: createLimiter("connection-sigfail", config.CONNECTION_SIGNATURE_FAILURES_PER_CONNECTION, window),
    signatureFailuresPerIp: createLimiter("connection-sigfail-ip", config.CONNECTION_SIGNATURE_FAILURES_PER_IP, window),
  };
});

type Channel = { form_id: string } | { connection_id: string };

function refuse(context: RequestContext, limit: string, channel: Channel, msBeforeNext: number, error: string): never {
  log("warn", "rate_limit.exceeded", { request_id: context.requestId, ip: context.ip, limit, ...channel });
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  throw new ApiError(429, `${error}; retry in ${seconds} s`, RATE_LIMITED, { "Retry-After": String(seconds) });
}

/**
 * Spends one submission of the address's budget (over every form); 429 when it is gone.
 * Every post spends it, before its body is read.
 */
export async function spendAddressBudget(context: RequestContext, formId: string): Promise<void> {
  const byIp = await consume(limiters().submissionsPerIp, context.ip);
  if (byIp) refuse(context, "form_submissions_per_ip", { form_id: formId }, byIp.msBeforeNext, "Too many submissions from this address");
}

/**
 * Spends one submission of the form's budget; 429 when it is gone. Only a submission that
 * passed the honeypot, the proof-of-work and the lead's rules spends it, just before the
 * lead is written: posts that cost their sender nothing cannot lock a form.
 */
export async function spendFormBudget(context: RequestContext, formId: string): Promise<void> {
  const byForm = await consume(limiters().submissionsPerForm, formId);
  if (byForm) refuse(context, "form_submissions_per_form", { form_id: formId }, byForm.msBeforeNext, "Too many submissions to this form");
}

/** Spends one challenge fetch of the address's budget; 429 when it is gone. */
export async function spendChallengeBudget(context: RequestContext, formId: string): Promise<void> {
  const verdict = await consume(limiters().challengesPerIp, context.ip);
  if (verdict)
    refuse(context, "form_challenges_per_ip", { form_id: formId }, verdict.msBeforeNext, "Too many spam-check requests from this address");
}

/**
 * Spends one delivery of a form builder's connection (CONNECTION_DELIVERIES_PER_CONNECTION
 * per window); 429 with Retry-After when it is gone, which the builders retry. A connection
 * authenticated by its URL alone spends it on every post, before the body is read (the URL is
 * what a flood needs); a signing one only once the signature held (issue 40, finding 2), so
 * whoever has the URL but not the secret cannot spend it.
 */
export async function spendConnectionBudget(context: RequestContext, connectionId: string): Promise<void> {
  const verdict = await consume(limiters().deliveriesPerConnection, connectionId);
  if (verdict)
    refuse(
      context,
      "connection_deliveries",
      { connection_id: connectionId },
      verdict.msBeforeNext,
      "Too many deliveries to this connection",
    );
}

/**
 * Counts a post to a signing connection whose signature did not hold (or could not be
 * checked), against the connection and the sender's address, each with a budget of its own
 * (CONNECTION_SIGNATURE_FAILURES_PER_CONNECTION, _PER_IP). Once either is spent the failure is
 * answered 429 instead of 401. Only failures are ever refused by it: it is counted after the
 * signature is checked, never before, so a builder's shared sending address cannot be locked
 * out by someone else's forgeries sent through the same builder.
 */
export async function spendSignatureFailure(context: RequestContext, connectionId: string): Promise<void> {
  const { signatureFailuresPerConnection, signatureFailuresPerIp } = limiters();
  const [byConnection, byIp] = await Promise.all([
    consume(signatureFailuresPerConnection, connectionId),
    consume(signatureFailuresPerIp, context.ip),
  ]);
  const spent = byIp ?? byConnection;
  if (spent)
    refuse(
      context,
      byIp ? "connection_signature_failures_per_ip" : "connection_signature_failures",
      { connection_id: connectionId },
      spent.msBeforeNext,
      byIp ? "Too many failed signatures from this address" : "Too many failed signatures for this connection",
    );
}
