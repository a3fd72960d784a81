// Issue 42 check 4: a message-like field (an extra field longer than a sentence) with
// several links, or a link in HTML or BBCode markup (in any extra field: no honest form
// field holds an <a href>). Honest messages carry at most a link or two to their own site.
import { BARE_DOMAIN, MARKUP_LINK, SCHEME_URL, WWW_HOST } from "./link-patterns";

/** Longer than a sentence: shorter values are answers (a budget, a country), not messages. */
export const MESSAGE_MIN_LENGTH = 40;
/** Spam shows its links early; scanning more of a 10,000-character field only costs time. */
const SCANNED = 4000;

const LINK = new RegExp(`${SCHEME_URL}|${WWW_HOST}|${BARE_DOMAIN}`, "giu");
const MARKUP = new RegExp(MARKUP_LINK, "iu");

export type MessageLinks = { links: number; markup: boolean };

export function messageLinks(value: string): MessageLinks {
  const text = value.slice(0, SCANNED);
  const markup = MARKUP.test(text);
  if (text.length < MESSAGE_MIN_LENGTH) return { links: 0, markup };
  let links = 0;
  LINK.lastIndex = 0;
  while (LINK.exec(text)) links++;
  return { links, markup };
}
