import { existsSync } from "node:fs";

// Debian's chromium-headless-shell: Chromium's headless shell (the "old" headless mode, built
// from the same source and version as Debian's chromium), which is what Playwright itself
// runs for headless Chromium. The full browser in its new headless mode cost a third more CPU
// on the browser journeys (docs/development.md "How long the suite takes").
export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";

/** The UI tests drive Debian's Chromium headless shell; say exactly how to get it when it is missing. */
export function assertChromium(): void {
  if (existsSync(CHROMIUM)) return;
  throw new Error(
    `Chromium not found at ${CHROMIUM}. Install Debian's build: sudo apt-get install -y chromium-headless-shell ` +
      "(or set CHROMIUM_PATH). Do not run `npx playwright install`: it downloads from outside the npm registry.",
  );
}
