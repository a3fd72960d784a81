import type { NextConfig } from "next";

// Security headers on every response (README "Hardening"). Set here rather than in a
// proxy (middleware): a proxy would make Next buffer every request body for it, and
// these headers do not depend on the request.
//
// Pages: scripts and styles only from this origin. 'unsafe-inline' stays for scripts
// because Next's App Router streams its payload in inline <script> tags; nonces would
// need a proxy and per-request rendering of every page.
const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

// API responses are JSON, never documents: nothing may load from them or frame them.
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

const common = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  async headers() {
    return [
      { source: "/:path*", headers: [...common, { key: "Content-Security-Policy", value: PAGE_CSP }] },
      // Later rules win for the same header name.
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CSP }] },
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
