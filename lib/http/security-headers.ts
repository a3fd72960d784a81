// The security headers of every response (docs/security.md "Hardening"), in one list for the
// two places that answer requests: next.config.ts's headers() for what Next serves, and
// lib/http/direct-routes.ts for the API routes served beside Next's router.

export type HeaderEntry = { key: string; value: string };

export const COMMON_SECURITY_HEADERS: readonly HeaderEntry[] = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Never a referrer to another site (invite and reset links are in URLs), but the page's
  // own form posts keep their Origin: under no-referrer a browser sends "Origin: null",
  // and server actions posted before the scripts load were refused.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

// API responses are JSON, never documents: nothing may load from them or frame them.
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Only when the request came over https: scripts/serve.mjs sets X-Forwarded-Proto from the
 * socket, or keeps a trusted proxy's value.
 */
export const HSTS: HeaderEntry = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

const API_HEADERS: readonly HeaderEntry[] = [
  ...COMMON_SECURITY_HEADERS,
  { key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY },
];
const API_HEADERS_OVER_HTTPS: readonly HeaderEntry[] = [...API_HEADERS, HSTS];

/** What an API response of a direct route carries, as next.config.ts gives it to the API's routes (two constant lists). */
export function apiSecurityHeaders(overHttps: boolean): readonly HeaderEntry[] {
  return overHttps ? API_HEADERS_OVER_HTTPS : API_HEADERS;
}
