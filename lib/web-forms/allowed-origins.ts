// The origins a web form accepts submissions from (exact scheme, host and port, like the
// browser's Origin header), and the origin a request comes from.

export const MAX_ALLOWED_ORIGINS = 20;

/**
 * "https://Example.com/" → "https://example.com"; null for anything that is not an origin
 * a browser can send: another scheme, a path, a query, credentials, or no host.
 */
export function normaliseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  if (!url.hostname) return null;
  return url.origin;
}

/**
 * The form setting: origins separated by new lines, commas or spaces, each normalised;
 * at least one. Returns the list, or the first problem in words.
 */
export function parseAllowedOrigins(text: string): { origins: string[] } | { problem: string } {
  const entries = text.split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return { problem: "Add at least one allowed origin, such as https://example.com" };
  const origins: string[] = [];
  for (const entry of entries) {
    const origin = normaliseOrigin(entry);
    if (!origin) {
      const shown = entry.length > 60 ? `${entry.slice(0, 60)}…` : entry;
      return { problem: `"${shown}" is not an origin: use the scheme and host only, such as https://example.com` };
    }
    if (!origins.includes(origin)) origins.push(origin);
  }
  if (origins.length > MAX_ALLOWED_ORIGINS) return { problem: `At most ${MAX_ALLOWED_ORIGINS} allowed origins` };
  return { origins };
}

/**
 * Where a browser request comes from: the Origin header, or, when a browser sent none,
 * the Referer's origin. "null" (a sandboxed frame, a file:// page) is no origin.
 */
export function requestOrigin(headers: Pick<Headers, "get">): string | null {
  const origin = headers.get("origin");
  if (origin !== null) return origin === "null" ? null : normaliseOrigin(origin);
  const referer = headers.get("referer");
  if (!referer) return null;
  try {
    const url = new URL(referer);
    return url.protocol === "https:" || url.protocol === "http:" ? url.origin : null;
  } catch {
    return null;
  }
}
