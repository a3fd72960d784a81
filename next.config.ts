import type { NextConfig } from "next";

import { STATIC_CONTENT_SECURITY_POLICY } from "./lib/http/content-security-policy";
import { VISITOR_PAGE_POLICY } from "./lib/web-forms/visitor-page";

// Security headers on every response (docs/security.md "Hardening"). Set here rather than in the
// proxy, which would make Next buffer the API's request bodies for it.
//
// Pages get their Content-Security-Policy, with a per-response nonce for scripts, from
// proxy.ts, which replaces the one below. This one covers what the proxy does not see
// (static files, prefetches): the same policy, and no inline script at all.
// API responses are JSON, never documents: nothing may load from them or frame them.
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const common = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  // Never a referrer to another site (invite and reset links are in URLs), but the page's
  // own form posts keep their Origin: under no-referrer a browser sends "Origin: null",
  // and server actions posted before the scripts load were refused.
  { key: "Referrer-Policy", value: "same-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The type check is npm test's (its "Type check" stage: next typegen, then tsc over the
  // whole tree, Next's route types included), run before any build; checking again here
  // cost every build (each first npm start, each CI run) about 25 s of a 45 s build.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  async headers() {
    return [
      { source: "/:path*", headers: [...common, { key: "Content-Security-Policy", value: STATIC_CONTENT_SECURITY_POLICY }] },
      // Later rules win for the same header name.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
      // A web form's refusal is a small HTML page for the visitor (lib/web-forms/visitor-page.ts):
      // its inline style may apply; still no script, no form, no frame.
      { source: "/api/forms/:path*", headers: [{ key: "Content-Security-Policy", value: VISITOR_PAGE_POLICY }] },
      {
        // HSTS only when the request came over https: scripts/serve.mjs sets
        // X-Forwarded-Proto from the socket, or keeps a trusted proxy's value.
        source: "/:path*",
        has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
        headers: [{ key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" }],
      },
    ];
  },
};

export default nextConfig;
