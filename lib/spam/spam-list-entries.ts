// The kinds of entry a team's spam lists hold (SpamListEntry.list) and how a typed value is
// read: trimmed, compared as the checks compare it (lib/spam/team-lists.ts), refused with a
// reason when it cannot match anything. Pure: Settings → Spam, the CLI and a release that
// allow-lists its sender all read values through here.
import { normalizeDomain } from "./email-domains";
import { parseIpRange } from "./ip-ranges";
import { foldCase, type SpamLists } from "./team-lists";

export const SPAM_LIST_KINDS = [
  "blocked_word",
  "blocked_email_domain",
  "blocked_email",
  "blocked_ip",
  "allow_email",
  "allow_email_domain",
] as const;

export type SpamListKind = (typeof SPAM_LIST_KINDS)[number];

/** Each list as Settings → Spam and the audit log name it, and what it does. */
export const SPAM_LIST_LABELS: Record<SpamListKind, { title: string; hint: string; example: string }> = {
  blocked_word: {
    title: "Blocked words",
    hint: "A word or phrase found as a whole word in any field, in any case.",
    example: "backlinks",
  },
  blocked_email_domain: {
    title: "Blocked e-mail domains",
    hint: "Addresses at this domain or any of its subdomains.",
    example: "spam-offers.example",
  },
  blocked_email: { title: "Blocked addresses", hint: "One e-mail address.", example: "seo@spam-offers.example" },
  blocked_ip: {
    title: "Blocked IP ranges",
    hint: "A sender's IP address, or a CIDR range of them (IPv4 or IPv6).",
    example: "203.0.113.0/24",
  },
  allow_email: {
    title: "Allowed addresses",
    hint: "Never spam: wins over every check, the lists above included.",
    example: "partner@customer.example",
  },
  allow_email_domain: {
    title: "Allowed domains",
    hint: "Never spam: addresses at this domain or its subdomains win over every check.",
    example: "customer.example",
  },
};

/** The field of SpamLists each kind fills. */
export const LIST_FIELD: Record<SpamListKind, keyof SpamLists> = {
  blocked_word: "blockedWords",
  blocked_email_domain: "blockedEmailDomains",
  blocked_email: "blockedEmails",
  blocked_ip: "blockedIpRanges",
  allow_email: "allowEmails",
  allow_email_domain: "allowEmailDomains",
};

export const isSpamListKind = (value: unknown): value is SpamListKind => SPAM_LIST_KINDS.includes(value as SpamListKind);

/** The longest value an entry takes (a word or phrase, an address, a domain, a range). */
export const MAX_ENTRY_LENGTH = 254;

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;
const ADDRESS = /^[^\s@]+@[^\s@]+$/;

/** The value as the list keeps it, or the reason it cannot be kept. */
export function normalizeListValue(kind: SpamListKind, typed: string): { value: string } | { error: string } {
  const text = typeof typed === "string" ? typed.trim() : "";
  if (!text) return { error: "Enter a value." };
  if (text.length > MAX_ENTRY_LENGTH) return { error: `At most ${MAX_ENTRY_LENGTH} characters.` };
  switch (kind) {
    case "blocked_word": {
      const word = foldCase(text).replace(/\s+/g, " ");
      return /[\p{L}\p{N}]/u.test(word) ? { value: word } : { error: "A word needs a letter or a digit." };
    }
    case "blocked_email_domain":
    case "allow_email_domain": {
      const domain = normalizeDomain(text);
      return DOMAIN.test(domain) ? { value: domain } : { error: `"${text}" is not a domain (example.com).` };
    }
    case "blocked_email":
    case "allow_email": {
      const at = text.lastIndexOf("@");
      if (!ADDRESS.test(text) || at < 1) return { error: `"${text}" is not an e-mail address.` };
      const domain = normalizeDomain(text.slice(at + 1));
      return DOMAIN.test(domain)
        ? { value: `${text.slice(0, at).toLowerCase()}@${domain}` }
        : { error: `"${text}" is not an e-mail address.` };
    }
    case "blocked_ip": {
      const range = parseIpRange(text);
      if (!range) return { error: `"${text}" is not an IP address or CIDR range (203.0.113.0/24, 2001:db8::/32).` };
      const [address, prefix] = range;
      const full = address.kind() === "ipv4" ? 32 : 128;
      // An IPv6 client is known by its /64 (lib/http/request-context.ts): a narrower range never matches.
      if (address.kind() === "ipv6" && prefix > 64)
        return { error: `"${text}": an IPv6 sender is known by its /64; block a /64 or wider.` };
      return { value: prefix === full ? address.toString() : `${address.toString()}/${prefix}` };
    }
  }
}

/** Entries read back from the database, grouped as the checks take them. */
export function listsOf(entries: readonly { list: string; value: string }[]): SpamLists {
  const lists: Record<keyof SpamLists, string[]> = {
    blockedWords: [],
    blockedEmailDomains: [],
    blockedEmails: [],
    blockedIpRanges: [],
    allowEmails: [],
    allowEmailDomains: [],
  };
  for (const entry of entries) if (isSpamListKind(entry.list)) lists[LIST_FIELD[entry.list]].push(entry.value);
  return lists;
}
