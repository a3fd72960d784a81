import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig } from "@playwright/test";
import { CHROMIUM, assertChromium } from "./e2e/support/chromium";
import { DEMO_ADMIN } from "./e2e/support/demo-admin";
import { freePort } from "./e2e/support/free-port";
import { E2E_METRICS_TOKEN } from "./e2e/support/metrics-token";

// One `next start` on a fresh database for the whole run. The config is evaluated
// again in every worker, so the folder and port are chosen once and handed down by env
// (E2E_PORT and E2E_DATA_DIR may also be set by the caller).
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), "lead-intake-e2e-"));
process.env.E2E_PORT ??= String(freePort());
const dataDir = process.env.E2E_DATA_DIR;
const port = Number(process.env.E2E_PORT);
process.env.DATA_DIR = dataDir;
process.env.DATABASE_URL = process.env.E2E_DATABASE_URL ?? `file:${path.join(dataDir, "e2e.db")}`;
export const baseURL = `http://127.0.0.1:${port}`;
// The shared server's public URL, as its own NEXTAUTH_URL below: what an operator CLI run in a
// worker prints (the form-builder specs run the connections CLI there: scripts/cli.fixtures.ts) names this server.
process.env.NEXTAUTH_URL = baseURL;

assertChromium();

// npm test runs this suite twice: on SQLite, then on PostgreSQL (E2E_DATABASE_URL set). The
// PostgreSQL run keeps what can behave differently there (docs/development.md "What runs on
// which database"): every HTTP spec against the shared server, and the browser journeys whose
// server side stores, counts, copies once, imports, delivers or erases. It leaves out
// - tests tagged @own-server: they start servers of their own on their own SQLite files
//   whatever the run, so a second run repeats the first exactly;
// - browser journeys whose server side is the same on either database (sign-in, layout,
//   accessibility, settings pages): their stores are tested on both by node:test;
// - lead-management: each of its journeys (delete, bulk delete by filter, erasure, export,
//   filters and counts, search, merge and its race) renders what a store returns, and each
//   store is tested on both databases by node:test (delete-leads, erase-person,
//   receive-delivery-erasure, lead-filter, lead-search, merge-leads, lead-import-fields).
const onPostgres = Boolean(process.env.E2E_DATABASE_URL);
const UI_ON_BOTH_DATABASES = ["api-keys", "consent", "copy-once", "key-lifecycle", "lead-import", "leads", "notifications", "webhooks"];
const uiSpecs = onPostgres ? new RegExp(`/e2e/ui/(${UI_ON_BOTH_DATABASES.join("|")})\\.spec\\.ts$`) : /\/e2e\/ui\/.*\.spec\.ts$/;

export default defineConfig({
  testDir: "./e2e",
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  grepInvert: onPostgres ? /@own-server/ : undefined,
  // No retries, on CI or anywhere: a test that fails once is a defect of the test or of the
  // product, to be found and fixed (docs/development.md "Tests").
  retries: 0,
  reporter: [["list"]],
  timeout: 30_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL,
    // A trace is recorded for every test when it is on (kept only for failures): its DOM
    // snapshots and screencast cost a quarter of the browser specs' CPU (accessibility and
    // lead-management: 71 s of CPU with it, 53 s without), on a 2-core machine the suite
    // saturates. Off by default; E2E_TRACE=1 records them again to look into a failure
    // (docs/development.md, Tests). A failure always keeps its screenshot and error context.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    screenshot: "only-on-failure",
    // A person's Chrome lets a page write to the clipboard on a click; the headless shell
    // (e2e/support/chromium.ts) asks for the permission instead: granted, as a person's browser
    // does. Reading it stays a permission of the contexts that ask (e2e/support/test.ts).
    permissions: ["clipboard-write"],
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
  },
  projects: [
    { name: "api", testMatch: /\/e2e\/api\/.*\.spec\.ts$/ },
    // Browser journeys sign several users in (Argon2id) and walk through several pages; on
    // the shared 2-core machines one can take longer than the 30 s default.
    { name: "ui", testMatch: uiSpecs, use: { browserName: "chromium" }, timeout: 90_000 },
  ],
  webServer: {
    command: "npx tsx scripts/start.ts",
    url: `${baseURL}/api/ping`,
    timeout: 180_000,
    reuseExistingServer: false,
    stdout: "pipe",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: process.env.DATABASE_URL,
      NEXTAUTH_URL: baseURL,
      DEMO_ADMIN_PASSWORD: DEMO_ADMIN.password,
      // Every test connects from 127.0.0.1, and many fail authentication on purpose:
      // the shared server's failure limits are raised; e2e/api/abuse-limits.spec.ts and
      // e2e/ui/sign-in-limits.spec.ts test the limits on servers of their own.
      AUTH_FAILURES_PER_IP: "1000000",
      AUTH_FAILURES_PER_KEY_ID: "1000000",
      SIGN_IN_FAILURES_PER_IP: "1000000",
      SIGN_IN_FAILURES_PER_EMAIL_AND_IP: "1000000",
      // Web forms: every visitor is 127.0.0.1 too; e2e/api/web-forms.spec.ts tests the limits.
      FORM_SUBMISSIONS_PER_IP: "1000000",
      FORM_CHALLENGES_PER_IP: "1000000",
      // Connections' failed signatures: lib/intake/receive-delivery-limits.test.ts tests the limits.
      CONNECTION_SIGNATURE_FAILURES_PER_IP: "1000000",
      CONNECTION_SIGNATURE_FAILURES_PER_CONNECTION: "1000000",
      // Webhook tests deliver to receivers on 127.0.0.1 (docs/webhooks.md "Private addresses");
      // lib/webhooks/webhook-delivery-claims.test.ts tests the refusal without it.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
      // e2e/api/operations.spec.ts scrapes /api/metrics with it.
      METRICS_TOKEN: E2E_METRICS_TOKEN,
    },
  },
});
