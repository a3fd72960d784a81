// Issue 42's local spam checks in one pure call: the submission, the team's settings and
// the burst counts the caller measured go in; a score, its reasons and the quarantine
// decision come out. No database, no clock, no network; lists and the name model are
// loaded once per process by the modules below. Never throws, whatever the input.
import { emailDomain, isDisposableDomain, isFreeMailDomain } from "./email-domains";
import { messageLinks } from "./message-links";
import { nameContent } from "./name-content";
import { randomTokenRule } from "./random-token";
import { DEFAULT_SPAM_THRESHOLD, reason, SPAM_POINTS, type SpamReason } from "./spam-reason";
import { compileLists, EMPTY_SPAM_LISTS, hasBlockedWord, isAllowedEmail, isBlockedEmail, isBlockedIp, type SpamLists } from "./team-lists";

export { DEFAULT_SPAM_THRESHOLD, SPAM_REASON_CODES, type SpamReason, type SpamReasonCode } from "./spam-reason";
export { EMPTY_SPAM_LISTS, type SpamLists } from "./team-lists";

export type SpamFieldValue = string | number | boolean | readonly (string | number | boolean)[];

/** The parsed lead (lib/leads/parse-lead-input.ts) and the sender's address. */
export type SpamSubmission = {
  name?: string;
  first_name?: string;
  last_name?: string;
  organization?: string;
  email?: string;
  phone?: string;
  mobile?: string;
  extraFields?: Readonly<Record<string, SpamFieldValue>>;
  /** The client's IP address as the request reports it (IPv4, IPv6 or IPv4-mapped IPv6). */
  senderIp?: string;
};

export type SpamSettings = {
  /** Quarantine at this score or more; DEFAULT_SPAM_THRESHOLD unless the team sets another. */
  threshold: number;
  /** Free-mail addresses score too (a team that takes business addresses only). */
  businessEmailOnly: boolean;
  lists: SpamLists;
};

export const DEFAULT_SPAM_SETTINGS: SpamSettings = Object.freeze({
  threshold: DEFAULT_SPAM_THRESHOLD,
  businessEmailOnly: false,
  lists: EMPTY_SPAM_LISTS,
});

/**
 * What the caller counted before calling: leads already accepted in the team's burst
 * window (M minutes), not counting this one. More than `burstLimit` (N) leads in the
 * window, this one included, is a burst.
 */
export type SpamContext = { recentFromAddress: number; recentFromSender: number; burstLimit: number };

export type SpamVerdict = {
  score: number;
  reasons: SpamReason[];
  quarantined: boolean;
  /** The address or its domain is on the team's allow list: no check ran. */
  allowListed: boolean;
};

const NAME_FIELDS = [
  ["name", true],
  ["first_name", true],
  ["last_name", true],
  ["organization", false],
] as const;

const text = (value: unknown): string => (typeof value === "string" ? value : "");

function extraText(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(extraText).join("\n");
  return "";
}

function extraEntries(fields: unknown): [string, string][] {
  if (!fields || typeof fields !== "object") return [];
  return Object.entries(fields).map(([key, value]) => [key, extraText(value)]);
}

function nameReasons(field: string, value: string, person: boolean): SpamReason[] {
  if (!value) return [];
  if (nameContent(value, person)) return [reason("link_in_name", field, SPAM_POINTS.linkInName, "link, address or markup in a name field")];
  const rule = randomTokenRule(value, person);
  if (rule === "digits") return [reason("random_name", field, SPAM_POINTS.digitsInName, "digits in a name")];
  if (rule) return [reason("random_name", field, SPAM_POINTS.randomName, "name reads as a random token")];
  return [];
}

function emailReasons(domain: string | null, businessEmailOnly: boolean): SpamReason[] {
  if (domain === null) return [];
  if (isDisposableDomain(domain)) return [reason("disposable_email", "email", SPAM_POINTS.disposableEmail, "disposable e-mail domain")];
  if (businessEmailOnly && isFreeMailDomain(domain)) {
    return [reason("free_email", "email", SPAM_POINTS.freeEmail, "free-mail address where business addresses are required")];
  }
  return [];
}

function messageReasons(field: string, value: string, ownDomain: string | null): SpamReason[] {
  const { links, markup } = messageLinks(value, ownDomain);
  if (markup) return [reason("message_links", field, SPAM_POINTS.markupLink, "link in HTML or BBCode markup")];
  if (links >= 3) return [reason("message_links", field, SPAM_POINTS.manyLinks, `${links} links in a message`)];
  if (links === 2) return [reason("message_links", field, SPAM_POINTS.twoLinks, "2 links in a message")];
  return [];
}

function burstReasons(context: Partial<SpamContext> | undefined): SpamReason[] {
  const limit = context?.burstLimit;
  if (typeof limit !== "number" || !(limit >= 0)) return [];
  const over = (count: unknown) => typeof count === "number" && count + 1 > limit;
  const reasons: SpamReason[] = [];
  if (over(context?.recentFromAddress))
    reasons.push(reason("burst", "email", SPAM_POINTS.burst, "more leads from this address than the burst limit"));
  if (over(context?.recentFromSender))
    reasons.push(reason("burst", "sender", SPAM_POINTS.burst, "more leads from this sender than the burst limit"));
  return reasons;
}

export function spamVerdict(
  submission: SpamSubmission,
  settings: SpamSettings = DEFAULT_SPAM_SETTINGS,
  context?: SpamContext,
): SpamVerdict {
  const lead: Partial<SpamSubmission> = submission && typeof submission === "object" ? submission : {};
  const lists = compileLists(settings?.lists && typeof settings.lists === "object" ? settings.lists : EMPTY_SPAM_LISTS);
  const email = text(lead.email);
  const domain = emailDomain(email);
  if (isAllowedEmail(lists, email, domain)) return { score: 0, reasons: [], quarantined: false, allowListed: true };

  const reasons: SpamReason[] = [];
  const texts: [string, string][] = [];
  for (const [field, person] of NAME_FIELDS) {
    const value = text(lead[field]);
    reasons.push(...nameReasons(field, value, person));
    texts.push([field, value]);
  }
  reasons.push(...emailReasons(domain, settings?.businessEmailOnly === true));
  if (email && isBlockedEmail(lists, email, domain))
    reasons.push(reason("blocked_email", "email", SPAM_POINTS.blocked, "address or domain on the team's block list"));
  if (isBlockedIp(lists, text(lead.senderIp)))
    reasons.push(reason("blocked_ip", "ip", SPAM_POINTS.blocked, "sender in a blocked IP range"));
  for (const [field, value] of extraEntries(lead.extraFields)) {
    reasons.push(...messageReasons(field, value, domain));
    texts.push([field, value]);
  }
  texts.push(["email", email], ["phone", text(lead.phone)], ["mobile", text(lead.mobile)]);
  for (const [field, value] of texts) {
    if (value && hasBlockedWord(lists, value))
      reasons.push(reason("blocked_word", field, SPAM_POINTS.blocked, "a word on the team's block list"));
  }
  reasons.push(...burstReasons(context));

  const score = reasons.reduce((sum, { points }) => sum + points, 0);
  const threshold =
    typeof settings?.threshold === "number" && !Number.isNaN(settings.threshold) ? settings.threshold : DEFAULT_SPAM_THRESHOLD;
  return { score, reasons, quarantined: score >= threshold, allowListed: false };
}
