// `npm start`: migrate, seed, build if needed, then serve (scripts/serve.mjs). Honours PORT,
// HOSTNAME, DATABASE_URL and DATA_DIR (README "Two commands").
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { databaseProvider, databaseUrl, sqliteFilePath } from "../lib/db/database-url";
import { encryptionKey } from "../lib/api-keys/secret-box";
import { migrate } from "../lib/setup/migrate";
import { persistentSecret } from "../lib/setup/runtime-secrets";
import { seed, type SeedResult } from "../lib/setup/seed";
import { foldExistingSearchKeys } from "../lib/setup/fold-search-keys";
import { deriveExistingAttribution } from "../lib/setup/derive-attribution";
import { startRetentionSchedule } from "../lib/maintenance/lead-retention";
import { maskStoredWebhookUrls } from "../lib/maintenance/masked-audit-urls";
import { sharedSecretWarnings } from "../lib/setup/shared-secrets";
import { db } from "../lib/db/client";
import { env as appEnv } from "../lib/env";
import { startBackupSchedule } from "../lib/operations/backup-schedule";
import { removePidFile, writePidFile } from "../lib/operations/sqlite-backup";
import { testClockFile } from "../lib/time/clock";
import { ignoreBrokenPipes } from "./broken-pipes.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const SOURCES = ["app", "components", "lib", "next.config.ts", "proxy.ts", "package.json", "postcss.config.mjs", "tsconfig.json"];

function newestMtime(entry: string): number {
  if (!existsSync(entry)) return 0;
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestMtime(path.join(entry, name))), stat.mtimeMs);
}

/** True when there is no production build or a source file is newer than it. */
export function buildIsStale(): boolean {
  const buildId = path.join(ROOT, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return true;
  const built = statSync(buildId).mtimeMs;
  return SOURCES.some((entry) => newestMtime(path.join(ROOT, entry)) > built);
}

async function main() {
  const port = process.env.PORT || "3000";
  const hostname = process.env.HOSTNAME || "0.0.0.0";
  const dataDir = process.env.DATA_DIR || "./data";
  const url = databaseUrl();
  const provider = databaseProvider(url);

  for (const line of sharedSecretWarnings(process.env, provider)) console.warn(line);
  const clockFile = testClockFile();
  if (clockFile) console.warn(`TEST CLOCK: the time comes from ${clockFile} (LEAD_INTAKE_TEST_CLOCK_FILE). Never set this in production.`);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: dataDir,
    NEXTAUTH_URL: process.env.NEXTAUTH_URL || `http://localhost:${port}`,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || persistentSecret(dataDir, "auth.secret"),
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
  };

  console.log(`Database: ${provider === "sqlite" ? url : "PostgreSQL"}; applying migrations…`);
  migrate(env);
  Object.assign(process.env, env);
  encryptionKey();
  const admin = await seed(env);
  const folded = await foldExistingSearchKeys();
  if (folded) console.log(`Folded the search keys of ${folded} existing leads (accent-insensitive search).`);
  const derived = await deriveExistingAttribution();
  if (derived) console.log(`Derived the channel groups of ${derived} existing leads from their UTM and attribution fields.`);
  const masked = await maskStoredWebhookUrls();
  if (masked) console.log(`Masked the webhook URLs of ${masked} older audit entries (a secret in a URL stays out of the log).`);
  await db().$disconnect();

  if (buildIsStale()) {
    console.log("Building the app (next build)…");
    const build = spawnSync(path.join(ROOT, "node_modules/.bin/next"), ["build"], { cwd: ROOT, env, stdio: "inherit" });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }

  // scripts/serve.mjs is `next start` plus the client address from the socket and a
  // SIGTERM drain with a deadline (docs/security.md "Hardening"); it answers both signals itself.
  const settings = appEnv();
  const server = spawn(
    process.execPath,
    [
      path.join(ROOT, "scripts/serve.mjs"),
      ...["--port", port, "--hostname", hostname],
      ...["--trust-proxy-hops", String(settings.TRUST_PROXY_HOPS), "--grace-seconds", String(settings.SHUTDOWN_GRACE_SECONDS)],
    ],
    { cwd: ROOT, env, stdio: ["ignore", "inherit", "inherit"] },
  );
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  // `npm run restore` refuses while this file names a live process.
  writePidFile(dataDir, process.pid);
  server.on("exit", (code, signal) => {
    removePidFile(dataDir, process.pid);
    process.exit(code ?? (signal ? 0 : 1));
  });
  // Lead retention (docs/leads.md): every instance ticks, one per hour runs it.
  startRetentionSchedule();
  if (settings.BACKUP_DIR && settings.BACKUP_EVERY_HOURS) {
    if (provider === "sqlite") {
      startBackupSchedule({
        database: sqliteFilePath(url),
        dir: settings.BACKUP_DIR,
        everyHours: settings.BACKUP_EVERY_HOURS,
        keep: settings.BACKUP_KEEP,
      });
      console.log(`Backups: every ${settings.BACKUP_EVERY_HOURS} h into ${settings.BACKUP_DIR}, the newest ${settings.BACKUP_KEEP} kept.`);
    } else {
      console.warn("BACKUP_DIR is for the embedded SQLite database; back up PostgreSQL with pg_dump (docs/operations.md).");
    }
  }

  console.log(["", `Lead Intake is starting on http://localhost:${port}`, ...signInHint(admin, port), ""].join("\n"));
}

/**
 * How to sign in. A generated password is shown once, when the admin is made (like
 * Jenkins' initial admin password); a chosen one, and every later start, never shows one.
 */
function signInHint(admin: SeedResult, port: string): string[] {
  const signIn = `Sign in at http://localhost:${port}/signin as ${admin.email}`;
  const keys = `Create an API key: npm run keys -- create --team demo --description "My site"`;
  if (!admin.createdAdmin) return [`${signIn} (if that account still exists; its password was shown when it was created).`, keys];
  if (!admin.generatedPassword) return [`${signIn} with the password from DEMO_ADMIN_PASSWORD.`, keys];
  return [
    "*".repeat(72),
    "The demo admin was created with this password; it is shown only now:",
    "",
    `    ${admin.generatedPassword}`,
    "",
    `${signIn} with it, and keep it somewhere safe.`,
    "*".repeat(72),
    keys,
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  // The wrapper outlives its log reader too (scripts/broken-pipes.mjs): it forwards signals to the server.
  ignoreBrokenPipes();
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
