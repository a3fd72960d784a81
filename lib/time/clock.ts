import { readFileSync } from "node:fs";
import { log } from "../log/logger";

// The app's "now" for rules that depend on time (API key expiry). In production it is the
// system clock. A server started with LEAD_INTAKE_TEST_CLOCK_FILE=<file> — a test flag,
// never set in production (scripts/start.ts warns when it is) — reads the instant from
// that file on every call instead, so HTTP tests move time by writing an ISO timestamp
// into it, with no sleeps (docs/development.md "A controllable clock"). A missing or
// empty file means the system clock.

const CLOCK_FILE_VARIABLE = "LEAD_INTAKE_TEST_CLOCK_FILE";

export function now(): Date {
  const file = process.env[CLOCK_FILE_VARIABLE];
  if (!file) return new Date();
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch {
    return new Date();
  }
  if (!text) return new Date();
  const instant = new Date(text);
  if (Number.isNaN(instant.getTime())) {
    log("warn", "test_clock.invalid", { file });
    return new Date();
  }
  return instant;
}

/** Whether this process runs on a test clock (for the start-up warning). */
export function testClockFile(): string | null {
  return process.env[CLOCK_FILE_VARIABLE] || null;
}

/** The instant `hours` before now (system clock), e.g. the start of a page's "last 24 hours". */
export function hoursAgo(hours: number): Date {
  return new Date(Date.now() - hours * 60 * 60 * 1000);
}
