// Issue 42 check 5: the team's own lists. Blocked words (whole words, Unicode case-folded),
// blocked e-mail domains (subdomains included) and addresses, blocked IP ranges, and an
// allow list of addresses and domains that wins over every check (a released sender is
// added to it). A team's lists are compiled once and cached by their content.
import { domainInSet, normalizeDomain } from "./email-domains";
import { inRanges, parseIpRange, parseSender, type IpRange } from "./ip-ranges";

export type SpamLists = {
  blockedWords: readonly string[];
  blockedEmailDomains: readonly string[];
  blockedEmails: readonly string[];
  /** CIDR ranges ("203.0.113.0/24", "2001:db8::/32") or single addresses. */
  blockedIpRanges: readonly string[];
  allowEmails: readonly string[];
  allowEmailDomains: readonly string[];
};

export const EMPTY_SPAM_LISTS: SpamLists = Object.freeze({
  blockedWords: [],
  blockedEmailDomains: [],
  blockedEmails: [],
  blockedIpRanges: [],
  allowEmails: [],
  allowEmailDomains: [],
});

export type CompiledLists = {
  blockedWords: RegExp | null;
  blockedDomains: ReadonlySet<string>;
  blockedEmails: ReadonlySet<string>;
  blockedIps: readonly IpRange[];
  allowEmails: ReadonlySet<string>;
  allowDomains: ReadonlySet<string>;
};

/**
 * Unicode case folding as far as JavaScript has it: upper- then lower-casing maps ß to ss
 * and final sigma to sigma; NFKC joins compatibility forms (ﬁ, full-width letters).
 */
const ASCII = /^[\x20-\x7e\t\n\r]*$/;
export function foldCase(text: string): string {
  // Printable ASCII needs lower-casing only, and most text is that.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize("NFKC")
    .toUpperCase()
    .toLowerCase()
    .replace(/i\u0307/g, "i");
}

// Scripts written without spaces between words: a word there is found anywhere.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const WORD_CHAR = String.raw`[\p{L}\p{N}\p{M}]`;

// Only the characters that Unicode-mode patterns let be escaped ("\-" is a syntax error there).
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

function wordsPattern(words: readonly string[]): RegExp | null {
  const folded = [...new Set(words.filter((word) => typeof word === "string").map((word) => foldCase(word).trim()))].filter(Boolean);
  if (!folded.length) return null;
  // Longest first, so a phrase wins over a word it starts with.
  folded.sort((a, b) => b.length - a.length);
  const source = (list: string[]) =>
    list
      .map((word) =>
        word
          .split(/\s+/)
          .map(escapeRegExp)
          .join(String.raw`\s+`),
      )
      .join("|");
  const spaced = folded.filter((word) => !UNSPACED.test(word));
  const unspaced = folded.filter((word) => UNSPACED.test(word));
  const parts = [];
  if (spaced.length) parts.push(`(?<!${WORD_CHAR})(?:${source(spaced)})(?!${WORD_CHAR})`);
  if (unspaced.length) parts.push(`(?:${source(unspaced)})`);
  return new RegExp(parts.join("|"), "u");
}

const strings = (list: unknown): string[] => (Array.isArray(list) ? list.filter((item): item is string => typeof item === "string") : []);
const domains = (list: string[]) => new Set(list.map(normalizeDomain).filter(Boolean));
const addresses = (list: string[]) => new Set(list.map((address) => address.trim().toLowerCase()));

// Keyed by content: a team's settings are read per request, and compiling its words into
// one pattern costs about a millisecond. Bounded, oldest out first.
const compiled = new Map<string, CompiledLists>();
const CACHE_SIZE = 256;

// The same lists object (a team's per-process copy, lib/spam/team-spam-lists.ts) is
// compiled once, without even serialising it again.
const byObject = new WeakMap<SpamLists, CompiledLists>();

export function compileLists(lists: SpamLists): CompiledLists {
  const known = byObject.get(lists);
  if (known) return known;
  const result = compileBySource(lists);
  byObject.set(lists, result);
  return result;
}

function compileBySource(lists: SpamLists): CompiledLists {
  const source = {
    blockedWords: strings(lists.blockedWords),
    blockedEmailDomains: strings(lists.blockedEmailDomains),
    blockedEmails: strings(lists.blockedEmails),
    blockedIpRanges: strings(lists.blockedIpRanges),
    allowEmails: strings(lists.allowEmails),
    allowEmailDomains: strings(lists.allowEmailDomains),
  };
  const key = JSON.stringify(source);
  const cached = compiled.get(key);
  if (cached) return cached;
  const result: CompiledLists = {
    blockedWords: wordsPattern(source.blockedWords),
    blockedDomains: domains(source.blockedEmailDomains),
    blockedEmails: addresses(source.blockedEmails),
    blockedIps: source.blockedIpRanges.flatMap((entry) => {
      const range = parseIpRange(entry);
      return range ? [range] : [];
    }),
    allowEmails: addresses(source.allowEmails),
    allowDomains: domains(source.allowEmailDomains),
  };
  if (compiled.size >= CACHE_SIZE) compiled.delete(compiled.keys().next().value!);
  compiled.set(key, result);
  return result;
}

export const hasBlockedWord = (lists: CompiledLists, text: string): boolean => lists.blockedWords?.test(foldCase(text)) ?? false;

/** The address is blocked by name, or its domain (or a parent domain) is. */
export const isBlockedEmail = (lists: CompiledLists, address: string, domain: string | null): boolean =>
  lists.blockedEmails.has(address.trim().toLowerCase()) || (domain !== null && domainInSet(domain, lists.blockedDomains));

export const isAllowedEmail = (lists: CompiledLists, address: string, domain: string | null): boolean =>
  lists.allowEmails.has(address.trim().toLowerCase()) || (domain !== null && domainInSet(domain, lists.allowDomains));

export function isBlockedIp(lists: CompiledLists, ip: string): boolean {
  if (!lists.blockedIps.length) return false;
  const sender = parseSender(ip);
  return sender !== null && inRanges(sender, lists.blockedIps);
}
