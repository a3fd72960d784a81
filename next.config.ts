import type { NextConfig } from "next";

import { STATIC_CONTENT_SECURITY_POLICY } from "./lib/http/content-security-policy";
import { API_CONTENT_SECURITY_POLICY, COMMON_SECURITY_HEADERS, HSTS } from "./lib/http/security-headers";
import { VISITOR_PAGE_POLICY } from "./lib/web-forms/visitor-page";

// Security headers on every response (docs/security.md "Hardening"; the list is
// lib/http/security-headers.ts, which the API routes served beside Next's router use too). Set
// here rather than in the proxy, which would make Next buffer the API's request bodies for it.
//
// Pages get their Content-Security-Policy, with a per-response nonce for scripts, from
// proxy.ts, which replaces the one below. This one covers what the proxy does not see
// (static files, prefetches): the same policy, and no inline script at all.
const nextConfig: NextConfig = {
  poweredByHeader: false,
  // The type check is npm test's (its "Type check" stage: next typegen, then tsc over the
  // whole tree, Next's route types included), run before any build; checking again here
  // cost every build (each first npm start, each CI run) about 25 s of a 45 s build.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  async headers() {
    return [
      {
        source: "/:path*",
        headers: [...COMMON_SECURITY_HEADERS, { key: "Content-Security-Policy", value: STATIC_CONTENT_SECURITY_POLICY }],
      },
      // Later rules win for the same header name.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
      // A web form's refusal is a small HTML page for the visitor (lib/web-forms/visitor-page.ts):
      // its inline style may apply; still no script, no form, no frame.
      { source: "/api/forms/:path*", headers: [{ key: "Content-Security-Policy", value: VISITOR_PAGE_POLICY }] },
      // HSTS only when the request came over https.
      { source: "/:path*", has: [{ type: "header", key: "x-forwarded-proto", value: "https" }], headers: [HSTS] },
    ];
  },
};

export default nextConfig;
