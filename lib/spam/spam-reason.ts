// The reasons a submission scores as spam: stable machine codes (they appear in logs, a
// Prometheus label and the UI, so the set is small and documented in docs/spam.md), the
// field they concern, their points and a short text. A reason's text never quotes the
// submission: reasons are logged.

export const SPAM_REASON_CODES = [
  "link_in_name",
  "random_name",
  "disposable_email",
  "free_email",
  "message_links",
  "blocked_word",
  "blocked_email",
  "blocked_ip",
  "burst",
  "akismet",
] as const;

export type SpamReasonCode = (typeof SPAM_REASON_CODES)[number];

export type SpamReason = {
  code: SpamReasonCode;
  /** The submission's field ("name", "email", an extra field's name), "ip" or "sender". */
  field: string;
  points: number;
  text: string;
};

/** A submission scoring this much or more is quarantined, unless the team sets its own threshold. */
export const DEFAULT_SPAM_THRESHOLD = 10;

/**
 * Points per finding. A finding no real lead shows (a link in a name, a disposable
 * address, a listed sender) reaches the threshold alone; a weaker hint needs company.
 */
export const SPAM_POINTS = {
  linkInName: 10,
  randomName: 10,
  digitsInName: 5,
  disposableEmail: 10,
  freeEmail: 10,
  markupLink: 10,
  manyLinks: 10,
  twoLinks: 5,
  blocked: 10,
  burst: 10,
} as const;

export const reason = (code: SpamReasonCode, field: string, points: number, text: string): SpamReason => ({ code, field, points, text });
