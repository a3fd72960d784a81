// Where to go after sign-in. A string-prefix check is not enough: browsers and the WHATWG
// URL parser drop tabs and newlines and read "\" as "/", so "/\t/evil.example" becomes
// "//evil.example". So: refuse control characters outright, let the URL parser resolve the
// value against an origin of our own, and keep it only when the origin did not change. What
// is returned is the parser's own serialisation (path, query, fragment), never the input.

// Any fixed origin works: only whether parsing moved away from it matters.
const OWN_ORIGIN = "http://lead-intake.invalid";

// C0 controls, DEL and C1 controls: never part of a path we produce ourselves.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** A same-origin path to return to after sign-in; anything else becomes "/". */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || value.length > 2_000 || CONTROL.test(value) || !value.startsWith("/")) return "/";
  let url: URL;
  try {
    url = new URL(value, OWN_ORIGIN);
  } catch {
    return "/";
  }
  if (url.origin !== OWN_ORIGIN) return "/";
  const path = `${url.pathname}${url.search}${url.hash}`;
  // "/a/..//evil.example" resolves to the path "//evil.example": same origin here, but a
  // protocol-relative URL once handed to the browser.
  if (path.startsWith("//") || path.startsWith("/\\")) return "/";
  return path;
}
