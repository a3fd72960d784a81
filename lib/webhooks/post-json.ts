import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { resolveTarget, TargetRefused } from "./target-address";

// One JSON POST to a URL someone outside the app chose (a webhook endpoint, a chat
// destination): sent to the address the SSRF guard checked, with a 10 s deadline for the
// whole exchange. Redirects are not followed (a 3xx is a failed attempt), and at most
// RESPONSE_EXCERPT_BYTES of the answer are read. The URL is never in a result or an error.

export const DELIVERY_TIMEOUT_MS = 10_000;
export const RESPONSE_EXCERPT_BYTES = 2048;

export type SendResult = {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseExcerpt: string | null;
};

/** A 429's or 503's Retry-After header (seconds, or an HTTP date), as given; null without one. */
export type PostResult = SendResult & { retryAfter: string | null };

export async function postJson(options: {
  url: string;
  body: string;
  headers: Record<string, string>;
  allowPrivate: boolean;
}): Promise<PostResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failure = (
    error: string,
    statusCode: number | null = null,
    excerpt: string | null = null,
    retryAfter: string | null = null,
  ): PostResult => ({
    ok: false,
    statusCode,
    durationMs: elapsed(),
    error,
    responseExcerpt: excerpt,
    retryAfter,
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
  const body = Buffer.from(options.body, "utf8");
  const headers = { ...options.headers, "content-type": "application/json", "content-length": String(body.length) };

  return new Promise<PostResult>((resolve) => {
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
          const retryAfter = response.headers["retry-after"] ?? null;
          request.destroy();
          if (statusCode >= 200 && statusCode < 300) {
            resolve({ ok: true, statusCode, durationMs: elapsed(), error: null, responseExcerpt: excerpt, retryAfter: null });
          } else if (statusCode >= 300 && statusCode < 400) {
            resolve(failure(`Redirect (${statusCode}) not followed`, statusCode, excerpt));
          } else {
            resolve(failure(`HTTP ${statusCode}`, statusCode, excerpt, retryAfter));
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
