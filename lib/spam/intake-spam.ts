import type { Quarantine } from "../leads/lead-write";
import { log } from "../log/logger";
import type { LeadInput } from "../leads/parse-lead-input";
import type { IntakeTeam } from "../teams/intake-team";
import { akismetCheck } from "./akismet";
import { countBurst } from "./burst-counts";
import { EMPTY_SPAM_LISTS, spamVerdict, type SpamReason } from "./spam-verdict";
import { teamSpamLists } from "./team-spam-lists";

// The spam checks at intake (docs/spam.md): on a channel that runs them, the parsed
// submission and the sender's address go through spamVerdict with the team's settings, its
// lists (a per-process copy, read again when their version changes) and the burst counts (the
// rate limiter's counters); a submission at or over the threshold goes to the quarantine
// (lib/leads/lead-write.ts), answered as a kept lead is. No database read in the usual case.
// Where the operator set AKISMET_API_KEY, a submission the local checks keep (and the allow
// list does not name) then goes to Akismet (lib/spam/akismet.ts); its "spam" quarantines alone,
// and no answer within its budget leaves the local verdict standing.

export type SpamCheckOptions = {
  checks: boolean;
  team: IntakeTeam;
  input: LeadInput;
  ip: string | null;
  /** A web form's sender is the visitor's browser: its address counts towards a burst. */
  senderIsVisitor: boolean;
  /** What names the submission across its sender's retries (a form builder's): counted once towards a burst. */
  submissionKey?: string;
  /** The request's User-Agent and Referer: Akismet reads them (a web form's are the visitor's browser's). */
  userAgent?: string | null;
  referrer?: string | null;
};

/** The quarantine of a submission, or null when it is kept (or the channel runs no checks). */
export async function quarantineOf(options: SpamCheckOptions): Promise<Quarantine | null> {
  if (!options.checks) return null;
  const { input, team } = options;
  // A check that cannot read what it needs is left out, never the lead: without the team's
  // lists the checks run with none, without the burst counts with no burst.
  const [lists, burst] = await Promise.all([
    degraded("lists", () => teamSpamLists(team), EMPTY_SPAM_LISTS),
    degraded(
      "burst",
      () =>
        countBurst(team, {
          email: input.email ?? null,
          senderIp: options.senderIsVisitor ? options.ip : null,
          once: options.submissionKey,
        }),
      undefined,
    ),
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
  if (verdict.quarantined) return quarantine(verdict.reasons, options.ip);
  // Akismet judges the sender's address: only a web form's is the person's (a key's server and
  // a form builder post everyone's leads from theirs).
  if (verdict.allowListed || !options.senderIsVisitor || (await akismetOf(options)) !== "spam") return null;
  return quarantine([...verdict.reasons, { code: "akismet", field: "content", points: team.spamThreshold }], options.ip);
}

async function degraded<T>(check: string, run: () => T | Promise<T>, fallback: T): Promise<T> {
  try {
    return await run();
  } catch (error) {
    log("warn", "spam.check_failed", { check, error: error instanceof Error ? error.name : "unknown" });
    return fallback;
  }
}

function quarantine(reasons: Pick<SpamReason, "code" | "field" | "points">[], ip: string | null): Quarantine {
  return {
    score: reasons.reduce((sum, { points }) => sum + points, 0),
    reasons: reasons.map(({ code, field, points }) => ({ code, field, points })),
    ip,
  };
}

const extraText = (value: unknown): string[] =>
  typeof value === "string" ? [value] : Array.isArray(value) ? value.flatMap(extraText) : typeof value === "number" ? [String(value)] : [];

/**
 * Akismet's comment-check: the person, and the submission's free text (its extra fields) as
 * the content. The browser's User-Agent and Referer only from a web form: an API client's or a
 * form builder's are a server's, not the person's.
 */
function akismetOf({ input, ip, senderIsVisitor, userAgent, referrer }: SpamCheckOptions) {
  const content = Object.values(input.extraFields).flatMap(extraText).join("\n\n");
  const browser = senderIsVisitor ? { userAgent, referrer } : {};
  return akismetCheck({ ip, ...browser, author: input.name, email: input.email, url: input.website, content });
}
