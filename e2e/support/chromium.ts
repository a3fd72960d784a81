import { existsSync } from "node:fs";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** The UI tests drive Debian's Chromium; say exactly how to get it when it is missing. */
export function assertChromium(): void {
  if (existsSync(CHROMIUM)) return;
  throw new Error(
    `Chromium not found at ${CHROMIUM}. Install Debian's build: sudo apt-get install -y chromium ` +
      "(or set CHROMIUM_PATH). Do not run `npx playwright install`: it downloads from outside the npm registry.",
  );
}
