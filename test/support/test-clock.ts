import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after } from "node:test";

/**
 * The app's test clock (lib/time/clock.ts reads LEAD_INTAKE_TEST_CLOCK_FILE) for a test file, in
 * hours from the file's start: `START` (ms) and `setClock(hours)`, set to 0 at once. Call it at
 * the top of the file, before the app's modules are imported.
 */
export function useHourClock(prefix: string): { START: number; setClock: (hours: number) => void } {
  const clockFile = path.join(mkdtempSync(path.join(tmpdir(), `${prefix}-clock-`)), "now");
  process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
  after(() => delete process.env.LEAD_INTAKE_TEST_CLOCK_FILE);
  const START = Date.now();
  const setClock = (hours: number) => writeFileSync(clockFile, new Date(START + hours * 3_600_000).toISOString());
  setClock(0);
  return { START, setClock };
}
