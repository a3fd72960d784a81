import { createHmac, timingSafeEqual } from "node:crypto";

// Each builder's signature, exactly as its own documentation describes it, checked over
// the body's bytes as they arrived (never a re-serialised parse) and compared in constant
// time. Every check answers false, never throws, for a missing or malformed header.

/**
 * Tally (https://tally.so/help/webhooks, "Add a signing secret"): the `Tally-Signature`
 * header is base64(HMAC-SHA256(signing secret, the JSON payload)), with no timestamp.
 * Tally's own example hashes `JSON.stringify(req.body)`: the payload as compact JSON. The
 * raw bytes are checked first (they are that text when Tally sends compact JSON); should
 * they differ in spacing or escapes, the payload re-serialised as Tally's example does is
 * checked too. Either way the digest needs the secret.
 */
export function verifyTallySignature(rawBody: Uint8Array, header: string | null, secret: string): boolean {
  if (header === null || secret === "") return false;
  const digest = (bytes: Uint8Array | string) => createHmac("sha256", secret).update(bytes).digest("base64");
  if (equalText(header, digest(rawBody))) return true;
  let compact: string;
  try {
    compact = JSON.stringify(JSON.parse(Buffer.from(rawBody).toString("utf8")));
  } catch {
    return false;
  }
  return equalText(header, digest(compact));
}

/**
 * Typeform (https://www.typeform.com/developers/webhooks/secure-your-webhooks/): the
 * `Typeform-Signature` header is `sha256=` and base64(HMAC-SHA256(the webhook's secret, the
 * entire received payload as binary)), with no timestamp. Checked over the raw bytes only:
 * Typeform's own examples hash the body as received, never a re-serialised parse. A header
 * without the `sha256=` prefix, or with another digest after it, is a refusal.
 */
export function verifyTypeformSignature(rawBody: Uint8Array, header: string | null, secret: string): boolean {
  const prefix = "sha256=";
  if (header === null || secret === "" || !header.startsWith(prefix)) return false;
  const digest = createHmac("sha256", secret).update(rawBody).digest("base64");
  return equalText(header.slice(prefix.length), digest);
}

/** How far Webflow's timestamp may be from our clock, either way: Webflow says to refuse a request "older than 5 minutes". */
export const WEBFLOW_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * Webflow (https://developers.webflow.com/data/docs/working-with-webhooks, "Validating request
 * signatures"; its SDK's webhooks.verifySignature): `x-webflow-signature` is hex
 * HMAC-SHA256(secret, `<x-webflow-timestamp>:<the request body>`), the timestamp in
 * milliseconds since the epoch. The secret is the one Webflow returned when the webhook was
 * created through its API, or the OAuth app's client secret. A timestamp missing, not a whole
 * number, or more than 5 minutes from `now` (older, or ahead of our clock) is a refusal: a
 * replayed delivery. The raw bytes are checked first; the body re-serialised as Webflow's
 * examples hash it (JSON.stringify of the parsed body) is checked too.
 */
export function verifyWebflowSignature(rawBody: Uint8Array, headers: Headers, secret: string, now: Date): boolean {
  const timestamp = headers.get("x-webflow-timestamp");
  const signature = headers.get("x-webflow-signature");
  if (timestamp === null || signature === null || secret === "" || !/^\d{1,16}$/.test(timestamp)) return false;
  if (Math.abs(now.getTime() - Number(timestamp)) > WEBFLOW_TOLERANCE_MS) return false;
  const digest = (bytes: Uint8Array | string) => createHmac("sha256", secret).update(`${timestamp}:`).update(bytes).digest("hex");
  if (equalText(signature, digest(rawBody))) return true;
  let compact: string;
  try {
    compact = JSON.stringify(JSON.parse(Buffer.from(rawBody).toString("utf8")));
  } catch {
    return false;
  }
  return equalText(signature, digest(compact));
}

/**
 * Constant-time equality of two texts, compared as their UTF-8 bytes. Texts of different
 * lengths differ at once: only the expected length (public, 44 for a base64 SHA-256)
 * can be learnt from the timing.
 */
export function equalText(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, "utf8");
  const b = Buffer.from(expected, "utf8");
  return a.length === b.length && timingSafeEqual(a, b);
}
