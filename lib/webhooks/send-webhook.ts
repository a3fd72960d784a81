import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { resolveTarget, TargetRefused } from "./target-address";

// One webhook POST: signed with the Standard Webhooks scheme (the standardwebhooks
// package), sent to the address the SSRF guard checked, with a 10 s deadline for the whole
// exchange. Redirects are not followed (a 3xx is a failed attempt), and at most
// RESPONSE_EXCERPT_BYTES of the answer are read.

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 2048;
const USER_AGENT = "LeadIntake-Webhooks/1.0";

export type SendResult = {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

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
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (error: string, statusCode: number | null = null, excerpt: string | null = null): SendResult => ({
    ok: false,
    statusCode,
    durationMs: elapsed(),
    error,
    responseExcerpt: excerpt,
  });

  const url = new URL(options.url);
  let target;
  try {
    target = await resolveTarget(url.hostname, { allowPrivate: options.allowPrivate });
  } catch (error) {
    if (error instanceof TargetRefused) return failure(error.message);
    throw error;
  }
  // The connection goes to the checked address; TLS still verifies the certificate
  // against the URL's host name (SNI and hostname check use `hostname`).
  const pinned: LookupFunction = (_host, lookupOptions, callback) => {
    if (lookupOptions.all) callback(null, [{ address: target.address, family: target.family }]);
    else callback(null, target.address, target.family);
  };
  const body = Buffer.from(options.payload, "utf8");
  const headers = {
    ...signatureHeaders(options.secrets, options.eventId, now(), options.payload),
    "content-type": "application/json",
    "content-length": String(body.length),
    "user-agent": USER_AGENT,
  };

  return new Promise<SendResult>((resolve) => {
    const transport = url.protocol === "https:" ? https : http;
    const request = transport.request(
      url,
      { method: "POST", headers, lookup: pinned, agent: false, signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS) },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const finish = () => {
          const statusCode = response.statusCode ?? 0;
          const excerpt = Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8") || null;
          request.destroy();
          if (statusCode >= 200 && statusCode < 300) {
            resolve({ ok: true, statusCode, durationMs: elapsed(), error: null, responseExcerpt: excerpt });
          } else if (statusCode >= 300 && statusCode < 400) {
            resolve(failure(`Redirect (${statusCode}) not followed`, statusCode, excerpt));
          } else {
            resolve(failure(`HTTP ${statusCode}`, statusCode, excerpt));
          }
        };
        response.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_EXCERPT_BYTES) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) finish();
        });
        response.on("end", finish);
        response.on("error", () => finish());
      },
    );
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason =
        error.name === "AbortError" || error.name === "TimeoutError"
          ? `No answer within ${DELIVERY_TIMEOUT_MS / 1000} s`
          : `Network error: ${error.code ?? error.message}`;
      resolve(failure(reason));
    });
    request.end(body);
  });
}
