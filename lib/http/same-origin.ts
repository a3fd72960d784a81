// CSRF guard of every server action (docs/security.md "Hardening"). Next itself refuses an action
// whose Origin host differs from X-Forwarded-Host/Host, but lets a request with no Origin
// through with a warning. Browsers send Origin on every POST, so only a hand-made request
// lacks it: we refuse both a missing and a foreign Origin before any action runs.

export type OriginProblem = "missing" | "foreign";

/**
 * Why this request's Origin is not this site, or null when it is. "This site" is the
 * host the request was addressed to: X-Forwarded-Host (scripts/serve.mjs sets it from
 * Host unless a trusted proxy set it) or Host, compared as host[:port] like Next does.
 */
export function originProblem(headers: Pick<Headers, "get">): OriginProblem | null {
  const origin = headers.get("origin");
  if (!origin) return "missing";
  const expected = (headers.get("x-forwarded-host") ?? headers.get("host") ?? "").split(",")[0]!.trim().toLowerCase();
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return "foreign"; // "null" (sandboxed frames, file:) and garbage
  }
  return host !== "" && host === expected ? null : "foreign";
}

export const FOREIGN_REQUEST_MESSAGE = "This request did not come from this site's pages; reload the page and try again.";
