/**
 * Each reason's words on Leads → Spam: the checks' codes (lib/spam/spam-reason.ts
 * SPAM_REASON_CODES) and "reported", a lead a person moved here (lib/spam/report-spam.ts),
 * which no check gives and the intake's metric never counts.
 */
export const REASON_WORDS: Record<string, string> = {
  link_in_name: "Link, address or markup in a name",
  random_name: "Name reads as random characters",
  disposable_email: "Disposable email address",
  free_email: "Free-mail address (business addresses only)",
  message_links: "Links in a message",
  blocked_word: "A blocked word",
  blocked_email: "A blocked address or domain",
  blocked_ip: "A blocked IP range",
  burst: "Many submissions from one sender",
  akismet: "Akismet called it spam",
  reported: "Reported as spam from the lead list",
};
