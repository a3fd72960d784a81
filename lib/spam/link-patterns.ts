// The shapes of a link, shared by the name check (name-content.ts) and the message check
// (message-links.ts). Every quantifier is bounded, so a long field cannot make a pattern
// backtrack for long.

// Top-level domains that stand for a link in free text. Only these: "Dr.Smith" or
// "J.R.Tolkien" must not read as domains, and most name-like words are some ccTLD.
const LINK_TLDS = (
  "com net org info biz io co me xyz top online site club shop store live pro app dev tech space fun icu vip win bid loan click link work today life world agency digital media " +
  "marketing finance money casino bet ru su ua cn tk ml ga cf gq pw ws cc de uk us in br pl fr it nl eu ly gl to"
)
  .split(" ")
  .join("|");

const LABEL = String.raw`[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?`;
/** A host name ending in one of LINK_TLDS (or one and a country's, co.za), not inside an e-mail address or a longer word. */
export const BARE_DOMAIN = String.raw`(?<![\p{L}\p{N}@.\-/])(?:${LABEL}\.){1,6}(?:${LINK_TLDS})(?:\.[a-z]{2})?(?![\p{L}\p{N}\-]|\.[\p{L}\p{N}])`;
export const SCHEME_URL = String.raw`\b(?:https?|ftp):\/\/[^\s<>"'\[\]]{1,2000}`;
export const WWW_HOST = String.raw`(?<![\p{L}\p{N}./])www\.${LABEL}`;
export const EMAIL_LIKE = String.raw`[^\s@<>()\[\]]{1,64}@${LABEL}(?:\.${LABEL}){0,6}\.\p{L}{2,24}`;
export const HTML_TAG = String.raw`<\s{0,5}\/?\s{0,5}[a-z][a-z0-9]{0,15}(?:\s[^<>]{0,500})?>`;
export const BBCODE_TAG = String.raw`\[\s{0,5}\/?\s{0,5}(?:url|link|img|email|b|i|u|s|color|size|quote|center)\b[^\]\n]{0,500}\]`;
/** A link written in markup: an HTML anchor with an href, or BBCode's [url]/[link]. */
export const MARKUP_LINK = String.raw`<\s{0,5}a\s[^<>]{0,500}href\s{0,5}=|\[\s{0,5}(?:url|link)\b`;
