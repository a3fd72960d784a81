import { REPEAT_WINDOW_MAX_DAYS } from "../leads/repeats";

// The team's repeat window as Settings → General sends it (docs/team-settings.md): how many
// days after a lead's last submission a repeat submission still joins it; 0: never.

/** The window in whole days, 0 to REPEAT_WINDOW_MAX_DAYS, or why it cannot be one. */
export function parseRepeatWindowDays(value: unknown): { days: number } | { problem: string } {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
  const problem = `Enter a whole number of days from 0 (never) to ${REPEAT_WINDOW_MAX_DAYS.toLocaleString("en-US")}.`;
  if (!/^\d{1,5}$/.test(text)) return { problem };
  const days = Number(text);
  return days <= REPEAT_WINDOW_MAX_DAYS ? { days } : { problem };
}
