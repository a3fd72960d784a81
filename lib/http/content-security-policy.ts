import { randomBytes } from "node:crypto";

// The Content Security Policy of pages (docs/security.md "Hardening"). proxy.ts
// sets it on every page request and response with a fresh nonce; Next reads the nonce
// from the request's header while rendering and puts it on its own scripts (its runtime,
// the page's bundles and the inline scripts that stream the RSC payload). A script
// without the nonce, such as one injected into the HTML, does not run.
//
// script-src: this origin's files and the response's nonce; no 'unsafe-inline', no
// 'strict-dynamic' (every script the app loads is its own, from /_next/static).
// style-src keeps 'unsafe-inline': React renders `style` attributes into the server
// HTML, and a nonce covers elements, never attributes. An injected style cannot run
// code, and cannot send anything away either: images, fonts and connections are
// limited to this origin.

/** A fresh nonce: 128 random bits, base64. */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

export function pageContentSecurityPolicy(nonce: string, options: { development?: boolean } = {}): string {
  return [
    "default-src 'self'",
    // React's development build evaluates code for its error overlay; production never does.
    `script-src 'self' 'nonce-${nonce}'${options.development ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * For responses the proxy does not see (static files, prefetches): the same policy
 * without a nonce, so no inline script runs there at all.
 */
export const STATIC_CONTENT_SECURITY_POLICY = pageContentSecurityPolicy("").replace(" 'nonce-'", "");
