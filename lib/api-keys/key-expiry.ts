// The expiries a key can be given: when it is generated or edited (EXPIRY_CHOICES), and
// for the old key when it is rolled (ROLL_CHOICES: "now" cuts it over at once). Each is a
// duration from `from`: the actions pass the app's clock (lib/time/clock.ts), so tests can
// move past it. No server-only imports: the dialogs list the choices too.

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const DURATION = { now: 0, "1h": HOUR, "24h": DAY, "7d": 7 * DAY, "30d": 30 * DAY, "90d": 90 * DAY } as const;

export const EXPIRY_CHOICES = ["never", "1h", "24h", "7d", "30d", "90d"] as const;
export const ROLL_CHOICES = ["now", "1h", "24h", "7d"] as const;
export type ExpiryChoice = (typeof EXPIRY_CHOICES)[number] | (typeof ROLL_CHOICES)[number];

export const EXPIRY_LABEL: Record<ExpiryChoice, string> = {
  never: "Never",
  now: "Now",
  "1h": "In 1 hour",
  "24h": "In 24 hours",
  "7d": "In 7 days",
  "30d": "In 30 days",
  "90d": "In 90 days",
};

/** The instant a choice means, from now; null for "never". */
export function expiryFrom(choice: ExpiryChoice, from: Date): Date | null {
  return choice === "never" ? null : new Date(from.getTime() + DURATION[choice]);
}
