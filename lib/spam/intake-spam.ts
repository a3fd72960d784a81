import type { Quarantine } from "../leads/lead-write";
import type { LeadInput } from "../leads/parse-lead-input";
import { DEFAULT_SPAM_SETTINGS, spamVerdict } from "./spam-verdict";

// The spam checks at intake (docs/spam.md): on a channel that runs them, the parsed
// submission and the sender's address go through spamVerdict with the team's threshold; a
// submission at or over it goes to the quarantine (lib/leads/lead-write.ts), answered as a
// kept lead is. Pure and synchronous, in the request's path: no round trip.

/** The quarantine of a submission, or null when it is kept (or the channel runs no checks). */
export function quarantineOf(options: { checks: boolean; threshold: number; input: LeadInput; ip: string | null }): Quarantine | null {
  if (!options.checks) return null;
  const { input } = options;
  const verdict = spamVerdict(
    {
      name: input.name,
      organization: input.organization,
      email: input.email,
      phone: input.phone,
      mobile: input.mobile_no,
      extraFields: input.extraFields,
      senderIp: options.ip ?? undefined,
    },
    { ...DEFAULT_SPAM_SETTINGS, threshold: options.threshold },
  );
  if (!verdict.quarantined) return null;
  return {
    score: verdict.score,
    reasons: verdict.reasons.map(({ code, field, points }) => ({ code, field, points })),
    ip: options.ip,
  };
}
