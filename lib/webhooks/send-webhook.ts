import { Webhook } from "standardwebhooks";
import { postJson, type SendResult } from "./post-json";

// One webhook POST: signed with the Standard Webhooks scheme (the standardwebhooks
// package), sent by postJson (the SSRF guard, the deadline, no redirects).

export { DELIVERY_TIMEOUT_MS, RESPONSE_EXCERPT_BYTES, type SendResult } from "./post-json";
const USER_AGENT = "LeadIntake-Webhooks/1.0";

/**
 * The three Standard Webhooks headers for `payload`, sent as message `eventId` at `at`:
 * one `v1,…` signature per secret, space-separated (during a rotation's grace period the
 * current and the replaced secret both sign, so a receiver with either verifies it).
 */
export function signatureHeaders(secrets: string[], eventId: string, at: Date, payload: string): Record<string, string> {
  return {
    "webhook-id": eventId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets.map((secret) => new Webhook(secret).sign(eventId, at, payload)).join(" "),
  };
}

export async function sendWebhook(options: {
  url: string;
  /** The current signing secret first, then any still in a rotation's grace period. */
  secrets: string[];
  eventId: string;
  payload: string;
  allowPrivate: boolean;
  now?: () => Date;
}): Promise<SendResult> {
  const now = options.now ?? (() => new Date());
  const { retryAfter: _retryAfter, ...result } = await postJson({
    url: options.url,
    body: options.payload,
    headers: { ...signatureHeaders(options.secrets, options.eventId, now(), options.payload), "user-agent": USER_AGENT },
    allowPrivate: options.allowPrivate,
  });
  return result;
}
