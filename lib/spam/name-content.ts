// Issue 42 check 1: a link, URL, e-mail address, HTML tag or BBCode in a name-like field.
// Bots put their link wherever a form echoes text back (a "Hello {name}" mail).
import { BARE_DOMAIN, BBCODE_TAG, EMAIL_LIKE, HTML_TAG, SCHEME_URL, WWW_HOST } from "./link-patterns";

export type NameContentKind = "url" | "email" | "html" | "bbcode" | "domain";

/** Name-like fields are short; the rest of an overlong one changes nothing. */
const SCANNED = 500;

const PATTERNS: [NameContentKind, RegExp][] = [
  ["url", new RegExp(`${SCHEME_URL}|${WWW_HOST}`, "iu")],
  ["email", new RegExp(EMAIL_LIKE, "iu")],
  ["html", new RegExp(HTML_TAG, "iu")],
  ["bbcode", new RegExp(BBCODE_TAG, "iu")],
];
const DOMAIN = new RegExp(BARE_DOMAIN, "iu");
const DOMAIN_WITH_PATH = new RegExp(`${BARE_DOMAIN}\\/`, "iu");

/**
 * What link-like content the value holds, or null. `person`: a person's name, where a bare
 * domain ("cheap-seo.ru") counts; an organization may be named after its domain
 * (Booking.com), so there only a domain with a path counts.
 */
export function nameContent(value: string, person: boolean): NameContentKind | null {
  const text = value.slice(0, SCANNED);
  // Every shape needs one of these characters; most names have none.
  if (!/[.@<[:]/.test(text)) return null;
  for (const [kind, pattern] of PATTERNS) if (pattern.test(text)) return kind;
  if (person ? DOMAIN.test(text) : DOMAIN_WITH_PATH.test(text)) return "domain";
  return null;
}
