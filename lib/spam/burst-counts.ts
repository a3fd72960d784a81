import { createHash } from "node:crypto";
import { countOne, createLimiter, limiterSet, used, type Limiter } from "../rate-limit/limiter-store";
import { isInternalAddress } from "./ip-ranges";
import type { SpamContext } from "./spam-verdict";

// The burst check's counts (docs/spam.md "Burst"): submissions per team from one e-mail
// address, and from one sender address, in the team's window of M minutes. They live in the
// rate limiter's counters (process memory, or Redis shared by every instance when REDIS_URL
// is set), never in a database read. Windows are fixed, as the rate limits' are: a burst that
// straddles two windows is counted in both halves.
//
// The sender is counted on web forms only: a key's server and a form builder post every
// visitor's lead from their own address, so that address says nothing about the person. A
// loopback or private sender address is not counted either: it is a proxy's (one whose hops
// TRUST_PROXY_HOPS does not count), shared by every visitor behind it.
//
// A form builder's retry of one submission (its submission id again, on the same connection)
// is not another submission: it is counted once. Counted each time, a builder retrying a slow
// answer pushed the person's own next submission over the limit, and a retry run at once with
// the first attempt could be the one quarantined and commit first, the person's lead then in
// the quarantine rather than the list.

// One limiter per window length a team chose (1 to 1,440 minutes): all of them fit.
const MAX_WINDOWS = 1_440;
const limiters = limiterSet("spamBurstLimiters", () => new Map<number, Limiter>());

function limiterFor(minutes: number): Limiter {
  const windows = limiters();
  let limiter = windows.get(minutes);
  if (!limiter) {
    if (windows.size >= MAX_WINDOWS) windows.delete(windows.keys().next().value!);
    // The points only bound the counter: the burst limit is the team's, compared in spamVerdict.
    limiter = createLimiter(`spam-burst-${minutes}m`, Number.MAX_SAFE_INTEGER, minutes * 60);
    windows.set(minutes, limiter);
  }
  return limiter;
}

export type BurstSettings = { spamBurstLimit: number; spamBurstMinutes: number };

const digest = (text: string) => createHash("sha256").update(text).digest("base64url");

/**
 * Counts this submission and returns what spamVerdict needs; undefined when the team turned the
 * check off. `once`: what names the submission across a sender's retries (a form builder's
 * connection and submission id); a retry within the window reads the counts without adding to them.
 */
export async function countBurst(
  team: BurstSettings & { id: string },
  submission: { email: string | null; senderIp: string | null; once?: string },
): Promise<SpamContext | undefined> {
  if (team.spamBurstLimit <= 0 || team.spamBurstMinutes <= 0) return undefined;
  const limiter = limiterFor(team.spamBurstMinutes);
  const retry = submission.once !== undefined && (await countOne(limiter, `${team.id}:once:${digest(submission.once)}`)) > 1;
  const count = retry ? async (key: string) => (await used(limiter, key)).points : (key: string) => countOne(limiter, key);
  // The address is hashed: a shared Redis holds no person's address.
  const email = submission.email?.trim() ? digest(submission.email.trim().toLowerCase()) : null;
  const [fromAddress, fromSender] = await Promise.all([
    email ? count(`${team.id}:email:${email}`) : 0,
    submission.senderIp && !isInternalAddress(submission.senderIp) ? count(`${team.id}:ip:${submission.senderIp}`) : 0,
  ]);
  // spamVerdict counts this one itself.
  return {
    recentFromAddress: Math.max(0, fromAddress - 1),
    recentFromSender: Math.max(0, fromSender - 1),
    burstLimit: team.spamBurstLimit,
  };
}
