import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { databaseProvider } from "../../lib/db/database-url";
import { restoreSqlite } from "../../lib/operations/sqlite-backup";
import { BASE_URL, CREATE_LEAD, authHeaders, newTeamWithKey } from "../support/fixtures";

// Issue 15: `npm run backup` while the shared server takes 200 concurrent creates. The copy
// holds every lead acknowledged before the backup began, passes PRAGMA integrity_check,
// and restores into a fresh deployment. On PostgreSQL the command points to pg_dump.

const ROOT = path.resolve(import.meta.dirname, "../..");
const sqlite = databaseProvider(process.env.DATABASE_URL ?? "") === "sqlite";

function npmRun(script: string, file: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "--silent", script, "--", file], { cwd: ROOT, env: process.env });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("a backup taken during 200 concurrent creates holds every lead acknowledged before it began", async () => {
  test.setTimeout(180_000);
  const file = path.join(mkdtempSync(path.join(tmpdir(), "lead-intake-backup-")), "during-load.db");
  if (!sqlite) {
    const { code, output } = await npmRun("backup", file);
    expect(code).toBe(2);
    expect(output).toContain("pg_dump --format=custom");
    return;
  }
  const { team, key } = await newTeamWithKey();
  const acknowledged: { id: string; at: number }[] = [];
  let backupStarted = Infinity;
  let someAcknowledged: () => void = () => undefined;
  const firstTwenty = new Promise<void>((resolve) => (someAcknowledged = resolve));
  const creates = Array.from({ length: 200 }, async (_, i) => {
    // The first twenty go at once; the other 180 are paced over the next ~3.6 s, while
    // the backup command starts and copies.
    if (i >= 20) await firstTwenty.then(() => new Promise((resolve) => setTimeout(resolve, (i - 20) * 20)));
    const res = await fetch(`${BASE_URL}${CREATE_LEAD}`, {
      method: "POST",
      headers: { ...authHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ name: `Backup ${i}`, email: `backup${i}@example.com` }),
    });
    expect(res.status).toBe(201);
    acknowledged.push({ id: ((await res.json()) as { lead_id: string }).lead_id, at: Date.now() });
    if (acknowledged.length === 20) someAcknowledged();
  });
  await firstTwenty;
  backupStarted = Date.now();
  const backup = npmRun("backup", file);
  await Promise.all(creates);
  const { code, output } = await backup;
  expect(code, output).toBe(0);

  const before = acknowledged.filter((a) => a.at < backupStarted).map((a) => a.id);
  expect(before.length).toBeGreaterThan(0);
  const copy = new Database(file, { readonly: true });
  expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
  const stored = new Set(
    (copy.prepare(`SELECT "id" FROM "Lead" WHERE "teamId" = ?`).all(team.id) as { id: string }[]).map((row) => row.id),
  );
  copy.close();
  for (const id of before) expect(stored.has(id), `${id} was acknowledged before the backup began`).toBe(true);

  // And it restores into a fresh deployment (never over the shared server's database).
  const fresh = mkdtempSync(path.join(tmpdir(), "lead-intake-restore-"));
  const restored = restoreSqlite(file, path.join(fresh, "app.db"), fresh);
  expect(restored.leads).toBeGreaterThanOrEqual(before.length);
});
