import { copyFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { test, type Page } from "@playwright/test";

const DOCS = path.resolve(import.meta.dirname, "../../docs/screenshots");

/**
 * A full-page screenshot kept as a test artefact (test-results/, attached to the report).
 * With UPDATE_SCREENSHOTS=1 it also replaces the README's copy in docs/screenshots/, so
 * an ordinary `npm test` never dirties the working tree.
 */
export async function saveScreenshot(page: Page, name: string): Promise<void> {
  const info = test.info();
  const file = info.outputPath(`${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  await info.attach(name, { path: file, contentType: "image/png" });
  if (process.env.UPDATE_SCREENSHOTS === "1") {
    mkdirSync(DOCS, { recursive: true });
    copyFileSync(file, path.join(DOCS, `${name}.png`));
  }
}
