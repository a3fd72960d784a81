import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { formTree, hasZeroUnix, phpJson } from "./wpforms-form";

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
 * Framer (https://www.framer.com/help/articles/framer-form-webhook-setup/, "How to secure
 * webhook destinations"): `Framer-Signature` is "A SHA-256 hash of the form data and
 * submission ID, signed with your secret", written `sha256=` and 64 hex digits;
 * `Framer-Webhook-Submission-Id` is the submission's id. Checked as hex
 * HMAC-SHA256(secret, the body's bytes followed by the submission id), nothing between them
 * and no timestamp: the page's order, and what every public receiver of Framer's webhooks
 * checks (the page's own code sample is not in the copy read: docs/connections.md "Framer").
 * A missing id, a header without `sha256=`, or another digest after it is a refusal.
 */
export function verifyFramerSignature(rawBody: Uint8Array, header: string | null, submissionId: string | null, secret: string): boolean {
  const prefix = "sha256=";
  if (header === null || !submissionId || secret === "" || !header.startsWith(prefix)) return false;
  const digest = createHmac("sha256", secret).update(rawBody).update(submissionId, "utf8").digest("hex");
  return equalText(header.slice(prefix.length), digest);
}

/** How far WPForms' timestamp may be from our clock, either way: the addon signs "like Stripe", whose check allows 5 minutes. */
export const WPFORMS_TOLERANCE_MS = 5 * 60 * 1000;

/**
 * WPForms' Webhooks addon (its src/Process.php, generate_signature, "We do it like a Stripe"):
 * `X-WPForms-Webhook-Signature` is `t=<unix seconds>,v=<hex HMAC-SHA256(the webhook's Secret,
 * "<t>.<body>")>`, the timestamp taken when the delivery is sent. The body signed is the JSON
 * text sent (Request Format JSON: checked over the raw bytes) or, sent as a form, the JSON
 * wp_json_encode writes of the same keys (rebuilt from the form: wpforms-form.ts). A header
 * not exactly of that form, a timestamp more than 5 minutes from `now`, or another body
 * type is a refusal.
 */
export function verifyWPFormsSignature(
  body: { bytes: Uint8Array; mediaType: string },
  header: string | null,
  secret: string,
  now: Date,
): boolean {
  const parts = header === null ? null : /^t=(\d{1,12}),v=([0-9a-f]{64})$/.exec(header);
  if (parts === null || secret === "") return false;
  const [, timestamp, signature] = parts as RegExpExecArray & [string, string, string];
  if (Math.abs(now.getTime() - Number(timestamp) * 1000) > WPFORMS_TOLERANCE_MS) return false;
  const candidates: (Uint8Array | string)[] = [];
  if (body.mediaType === "application/json") candidates.push(body.bytes);
  if (body.mediaType === "application/x-www-form-urlencoded") {
    const tree = formTree(body.bytes);
    if (tree) candidates.push(phpJson(tree));
    // A date the addon could not read: signed with unix false, sent as 0.
    if (tree && hasZeroUnix(tree)) candidates.push(phpJson(tree, { unixFalse: true }));
  }
  return candidates.some((signed) =>
    equalText(signature, createHmac("sha256", secret).update(`${timestamp}.`).update(signed).digest("hex")),
  );
}

/** The `v` of a WPForms signature header (its HMAC, which covers the timestamp and the body); null when there is none. */
export function wpformsSignatureOf(header: string | null): string | null {
  return (header === null ? null : /^t=\d{1,12},v=([0-9a-f]{64})$/.exec(header)?.[1]) ?? null;
}

/** The header a Generic JSON connection's sender puts its secret in, once the team set one. */
export const SECRET_HEADER = "x-connection-secret";

/**
 * Generic JSON's optional second factor: the header holds the team's secret. Compared as
 * SHA-256 digests in constant time: unlike an HMAC's, the secret's length is not public, and
 * comparing digests of equal length tells a timing nothing of it.
 */
export function verifySecretHeader(header: string | null, secret: string): boolean {
  if (header === null || secret === "") return false;
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(header.trim()), digest(secret));
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
