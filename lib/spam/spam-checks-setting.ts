// Whether a channel (an API key, a web form, a connection) runs the spam checks on its
// submissions (docs/spam.md "Per channel", issue 42). Web forms and connections are open to
// anyone who finds them and start with the checks on; a key is held by a server, which often
// filters already, and starts with them off until its page turns them on.

export const API_KEY_SPAM_CHECKS_DEFAULT = false;
export const CHANNEL_SPAM_CHECKS_DEFAULT = true;

/** The words the CLIs and the pages send. */
export const SPAM_CHECKS_WORDS = ["on", "off"] as const;
export type SpamChecksWord = (typeof SPAM_CHECKS_WORDS)[number];

export const spamChecksWord = (on: boolean): SpamChecksWord => (on ? "on" : "off");

/** The setting as sent ("on" or "off"); null when it is neither. */
export function parseSpamChecks(value: unknown): boolean | null {
  return value === "on" ? true : value === "off" ? false : null;
}

export const SPAM_CHECKS_REFUSED = "Choose whether the spam checks run: on or off.";

/** The setting chosen, or the refusal's message (words a person can act on, never a 500). */
export function parseSpamChecksChoice(value: unknown): { spamChecks: boolean } | { problem: string } {
  const spamChecks = parseSpamChecks(value);
  return spamChecks === null ? { problem: SPAM_CHECKS_REFUSED } : { spamChecks };
}
