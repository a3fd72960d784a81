// A scheme is letters before ":" not followed by a digit: "example.com:8080" is a host and port.
const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:(?!\d)/i;

/**
 * The website field as an http(s) URL: a bare host ("example.com/about") is read as https,
 * a user name and password are removed (they would be shown to every team member). Null
 * when the text is no http(s) URL ("n/a", "javascript:…", "ftp://…"): the caller skips
 * the field and keeps what was typed, as for phones, so the lead is never lost for it.
 */
export function parseWebsite(value: string): string | null {
  if (/\s/.test(value)) return null;
  // "//example.com" is a scheme-relative URL: the host follows the slashes.
  const candidate = HAS_SCHEME.test(value) ? value : `https://${value.replace(/^\/\/+/, "")}`;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  const validHost = url.hostname.includes(".") || url.hostname === "localhost";
  if ((url.protocol !== "http:" && url.protocol !== "https:") || !validHost) return null;
  if (!url.username && !url.password) return candidate;
  url.username = "";
  url.password = "";
  return url.toString();
}
