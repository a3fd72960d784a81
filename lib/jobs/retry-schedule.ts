// When a failed delivery is tried again (docs/webhooks.md "Retries"): exponential backoff,
// 30 s × 3^(n−1) after the n-th failed attempt, each delay jittered by ±20 % so that
// deliveries failing together do not retry together. Nine attempts in all: the last
// one comes about 27 hours after the first, after which the delivery has failed.
//
//   attempt  2      3       4       5        6        7      8      9
//   after    30 s   1.5 min 4.5 min 13.5 min 40.5 min 2 h    6 h    18 h   (≈ 27 h in all)

export const MAX_ATTEMPTS = 9;
const FACTOR = 3;
const JITTER = 0.2;

/**
 * The delay before the attempt after `failedAttempts` failures. `random` (0 ≤ r < 1) is
 * injected so tests can pin the jitter; `baseMs` is JOB_RETRY_BASE_SECONDS.
 */
export function retryDelayMs(failedAttempts: number, baseMs: number, random: number = Math.random()): number {
  const exact = baseMs * FACTOR ** Math.max(0, failedAttempts - 1);
  return Math.round(exact * (1 - JITTER + 2 * JITTER * random));
}
