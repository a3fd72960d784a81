import type { Quarantine } from "../leads/lead-write";
import type { LeadInput } from "../leads/parse-lead-input";
import type { IntakeTeam } from "../teams/intake-team";
import { countBurst } from "./burst-counts";
import { spamVerdict } from "./spam-verdict";
import { teamSpamLists } from "./team-spam-lists";

// The spam checks at intake (docs/spam.md): on a channel that runs them, the parsed
// submission and the sender's address go through spamVerdict with the team's settings, its
// lists (a per-process copy, read again when their version changes) and the burst counts (the
// rate limiter's counters); a submission at or over the threshold goes to the quarantine
// (lib/leads/lead-write.ts), answered as a kept lead is. No database read in the usual case.

export type SpamCheckOptions = {
  checks: boolean;
  team: IntakeTeam;
  input: LeadInput;
  ip: string | null;
  /** A web form's sender is the visitor's browser: its address counts towards a burst. */
  senderIsVisitor: boolean;
};

/** The quarantine of a submission, or null when it is kept (or the channel runs no checks). */
export async function quarantineOf(options: SpamCheckOptions): Promise<Quarantine | null> {
  if (!options.checks) return null;
  const { input, team } = options;
  const [lists, burst] = await Promise.all([
    teamSpamLists(team),
    countBurst(team, { email: input.email ?? null, senderIp: options.senderIsVisitor ? options.ip : null }),
  ]);
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
    { threshold: team.spamThreshold, businessEmailOnly: team.spamBusinessOnly, lists },
    burst,
  );
  if (!verdict.quarantined) return null;
  return {
    score: verdict.score,
    reasons: verdict.reasons.map(({ code, field, points }) => ({ code, field, points })),
    ip: options.ip,
  };
}
