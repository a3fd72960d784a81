// Issue 42 check 4: a message-like field (an extra field longer than a sentence) with
// several links, or a link in HTML or BBCode markup (in any extra field: no honest form
// field holds an <a href>). Honest messages carry a link or two, mostly to the sender's
// own site: links to the domain of the sender's address do not count, nor more than two
// to any one site.
import { BARE_DOMAIN, MARKUP_LINK, SCHEME_URL, WWW_HOST } from "./link-patterns";

/** Longer than a sentence: shorter values are answers (a budget, a country), not messages. */
export const MESSAGE_MIN_LENGTH = 40;
/** Spam shows its links early; scanning more of a 10,000-character field only costs time. */
const SCANNED = 4000;

const LINK = new RegExp(`${SCHEME_URL}|${WWW_HOST}|${BARE_DOMAIN}`, "giu");
const MARKUP = new RegExp(MARKUP_LINK, "iu");

/** `links`: the links that count (not to the sender's own domain, at most two a site). */
export type MessageLinks = { links: number; markup: boolean };

/** An honest message may link one site's pages (docs, shop, pricing); a third link to it adds nothing. */
const LINKS_PER_SITE = 2;
// Second-level labels that registries sell under a country's TLD (acme.co.uk, acme.com.br, acme.ne.jp).
const REGISTRY_LABELS = new Set(["co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go", "gob", "gouv", "ltd", "plc"]);

/** The registrable part of a host name, near enough: "docs.acme.co.uk" → "acme.co.uk". */
export function baseDomain(host: string): string {
  const labels = host.toLowerCase().split(".").filter(Boolean);
  const [secondLevel = "", top = ""] = labels.slice(-2);
  const keep = top.length === 2 && REGISTRY_LABELS.has(secondLevel) && labels.length > 2 ? 3 : 2;
  return labels.slice(-keep).join(".");
}

const hostOf = (link: string) => link.replace(/^[a-z]+:\/\//i, "").split(/[/:?#]/, 1)[0]!;

/** `ownDomain`: the domain of the sender's address, whose links do not count. */
export function messageLinks(value: string, ownDomain: string | null): MessageLinks {
  const text = value.slice(0, SCANNED);
  const markup = MARKUP.test(text);
  if (text.length < MESSAGE_MIN_LENGTH) return { links: 0, markup };
  // A link has a dot before a letter or digit ("acme.io", "www.") or a scheme's "://".
  if (!/\.[\p{L}\p{N}]|:\/\//u.test(text)) return { links: 0, markup };
  const own = ownDomain ? baseDomain(ownDomain) : null;
  const perSite = new Map<string, number>();
  for (const [link] of text.matchAll(LINK)) {
    const site = baseDomain(hostOf(link));
    if (site !== own) perSite.set(site, Math.min((perSite.get(site) ?? 0) + 1, LINKS_PER_SITE));
  }
  let links = 0;
  for (const count of perSite.values()) links += count;
  return { links, markup };
}
