import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { authHeaders, CREATE_LEAD, uniqueSlug } from "../support/fixtures";
import type { KeyOp } from "../support/key-ops";
import { atWorkerExit, startServer, type ServerProcess } from "../support/server-process";

// A key works until its expiry and not after, over real HTTP against `npm start`. Time is
// moved by the test clock (lib/time/clock.ts): this server runs with
// LEAD_INTAKE_TEST_CLOCK_FILE and reads "now" from that file on every request, so no test
// sleeps. The server has a database of its own (a SQLite file, or on a PostgreSQL run a
// database of its own on the run's cluster): a server living in 2031 never touches the
// shared run's rows (its dispatcher and retention job), and its start never contends with
// the shared server for the SQLite file. Keys are made on that database by the library,
// in a child process (e2e/support/key-ops.ts).

const ROOT = path.resolve(import.meta.dirname, "../..");
const run = promisify(execFile);

const T0 = new Date("2031-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

test.describe("API key expiry on a test clock", () => {
  // One server for the three tests (and one clock file): they move the same clock.
  // Each key operation starts a child process (a second or more on a busy machine).
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  let server: ServerProcess;
  let databaseUrl: string | undefined;
  let clockDir: string;
  let clockFile: string;
  const setClock = (instant: Date) => writeFileSync(clockFile, instant.toISOString());

  /** A PostgreSQL database of this file's own on the run's cluster; on SQLite, undefined (the server's own file). */
  async function ownPostgresDatabase(): Promise<string | undefined> {
    const shared = process.env.E2E_DATABASE_URL;
    if (!shared) return undefined;
    const name = `key_expiry_${randomBytes(4).toString("hex")}`;
    const client = new pg.Client({ connectionString: shared });
    await client.connect();
    try {
      await client.query(`CREATE DATABASE "${name}"`);
    } finally {
      await client.end();
    }
    const url = new URL(shared);
    url.pathname = `/${name}`;
    return url.toString();
  }

  /** Runs a key operation on the server's own database. */
  async function keyOp<T>(operation: KeyOp): Promise<T> {
    const { stdout } = await run(process.execPath, ["--import", "tsx", "e2e/support/key-ops.ts", JSON.stringify(operation)], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl ?? `file:${server.databaseFile}`, DATA_DIR: server.dataDir },
    });
    return JSON.parse(stdout.trim().split("\n").at(-1)!) as T;
  }
  const newTeam = async () => ({ id: await keyOp<string>({ op: "team", slug: uniqueSlug("clock") }) });
  const createApiKey = (options: { teamId: string; description: string; expiresAt?: Date }) =>
    keyOp<{ keyId: string; secret: string }>({ op: "create", ...options, expiresAt: options.expiresAt?.toISOString() ?? null });
  const updateApiKey = (options: { teamId: string; keyId: string; expiresAt: Date | null }) =>
    keyOp<boolean>({ op: "update", ...options, expiresAt: options.expiresAt?.toISOString() ?? null });
  const rollApiKey = (options: { teamId: string; keyId: string; oldKeyExpiresAt: Date }) =>
    keyOp<{ keyId: string; secret: string } | null>({ op: "roll", ...options, oldKeyExpiresAt: options.oldKeyExpiresAt.toISOString() });

  test.beforeAll(async () => {
    test.setTimeout(180_000); // servers start slowly on a busy machine
    clockDir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-clock-"));
    atWorkerExit(() => rmSync(clockDir, { recursive: true, force: true }));
    clockFile = path.join(clockDir, "now");
    setClock(T0);
    databaseUrl = await ownPostgresDatabase();
    server = await startServer({ databaseUrl, env: { LEAD_INTAKE_TEST_CLOCK_FILE: clockFile } });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(clockDir, { recursive: true, force: true });
  });

  const post = (key: { keyId: string; secret: string }, name: string) =>
    fetch(`${server.url}${CREATE_LEAD}`, {
      method: "POST",
      headers: { ...authHeaders(key), "Content-Type": "application/json" },
      body: JSON.stringify({ name }),
    });

  async function expectRefused(key: { keyId: string; secret: string }, name: string) {
    const response = await post(key, name);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ success: false, error: "Invalid API key", message: "Authentication failed" });
  }

  test("the server says it runs on a test clock", () => {
    expect(server.output()).toContain("TEST CLOCK");
  });

  test("a key with an expiry works until that instant and answers Invalid API key from it on", async () => {
    const team = await newTeam();
    const key = await createApiKey({ teamId: team.id, description: "Expiring", expiresAt: at(HOUR) });
    setClock(T0);
    expect((await post(key, "Before expiry")).status).toBe(201);
    setClock(at(HOUR - 1000));
    expect((await post(key, "A second before")).status).toBe(201);
    setClock(at(HOUR));
    await expectRefused(key, "At expiry");
    setClock(at(2 * HOUR));
    await expectRefused(key, "After expiry");
    // The refusal is visible to the team in the key's request log.
    await expect
      .poll(() => keyOp<[number, string | null][]>({ op: "requests", teamId: team.id, keyId: key.keyId }), { timeout: 60_000 })
      .toEqual([
        [401, "Invalid API key"],
        [401, "Invalid API key"],
        [201, null],
        [201, null],
      ]);

    // Removing the expiry brings the key back; a new one in the past cuts it again.
    await updateApiKey({ keyId: key.keyId, teamId: team.id, expiresAt: null });
    expect((await post(key, "No expiry")).status).toBe(201);
    await updateApiKey({ keyId: key.keyId, teamId: team.id, expiresAt: at(HOUR) });
    await expectRefused(key, "Expired again");
  });

  test("a rolled key: the replacement works at once, the old key until its expiry (24 h) and not after", async () => {
    const team = await newTeam();
    const old = await createApiKey({ teamId: team.id, description: "Website form" });
    setClock(T0);
    const replacement = await rollApiKey({ keyId: old.keyId, teamId: team.id, oldKeyExpiresAt: at(24 * HOUR) });
    expect(replacement).not.toBeNull();
    expect((await post(replacement!, "New key")).status).toBe(201);
    expect((await post(old, "Old key, still in its grace period")).status).toBe(201);
    setClock(at(24 * HOUR - 1));
    expect((await post(old, "Old key, last millisecond")).status).toBe(201);
    setClock(at(24 * HOUR));
    await expectRefused(old, "Old key after its expiry");
    expect((await post(replacement!, "New key, a day later")).status).toBe(201);
  });
});
