// How long a New lead has waited for its first contact ("waiting 2 h"), from its creation
// (docs/routing.md). Pure, so that the lead's page and, later, the list word it alike.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "waiting 5 min", "waiting 2 h", "waiting 3 d" (whole units, rounded down); a lead from the future has waited 0 min. */
export function waitingTime(createdAt: Date, now: Date): string {
  const waited = Math.max(0, now.getTime() - createdAt.getTime());
  if (waited < HOUR) return `waiting ${Math.floor(waited / MINUTE)} min`;
  if (waited < 2 * DAY) return `waiting ${Math.floor(waited / HOUR)} h`;
  return `waiting ${Math.floor(waited / DAY)} d`;
}
