// The times a team may choose for the New-lead reminder (docs/routing.md "Emails"), in
// minutes, and how the page and the email name them. Pure: the settings form uses it too.

export const REMINDER_DELAYS = [15, 60, 240, 1440] as const;
export type ReminderDelay = (typeof REMINDER_DELAYS)[number];

export function isReminderDelay(minutes: unknown): minutes is ReminderDelay {
  return (REMINDER_DELAYS as readonly unknown[]).includes(minutes);
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;

/** "15 minutes", "1 hour", "4 hours", "1 day": whole days or hours when it is some. */
export function delayLabel(minutes: number): string {
  if (minutes > 0 && minutes % 1440 === 0) return plural(minutes / 1440, "day");
  if (minutes > 0 && minutes % 60 === 0) return plural(minutes / 60, "hour");
  return plural(minutes, "minute");
}
