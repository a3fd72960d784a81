// "2 hours ago", "in 3 days": how far an instant is from now, in the largest unit that
// fits (Intl.RelativeTimeFormat words it). Rendered on the server, next to the exact time.

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const format = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

export function relativeTime(value: Date, now: Date): string {
  const seconds = (value.getTime() - now.getTime()) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return format.format(Math.round(seconds / size), unit);
  }
  return seconds < 0 ? "just now" : "in less than a minute";
}
