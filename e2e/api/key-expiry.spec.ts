import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { createApiKey, rollApiKey, updateApiKey } from "../../lib/api-keys/api-key-store";
import { listRequests } from "../../lib/request-log/request-log-store";
import { authHeaders, CREATE_LEAD, newTeam } from "../support/fixtures";
import { startServer, type ServerProcess } from "../support/server-process";

// A key works until its expiry and not after, over real HTTP against `npm start`. Time is
// moved by the test clock (lib/time/clock.ts): this server runs with
// LEAD_INTAKE_TEST_CLOCK_FILE and reads "now" from that file on every request, so no test
// sleeps. The server shares the run's database, so keys are made with the library here.

const T0 = new Date("2031-03-01T12:00:00.000Z");
const at = (ms: number) => new Date(T0.getTime() + ms);
const HOUR = 3_600_000;

test.describe("API key expiry on a test clock", () => {
  // One server for the three tests (and one clock file): they move the same clock.
  test.describe.configure({ mode: "serial" });
  let server: ServerProcess;
  let clockDir: string;
  let clockFile: string;
  const setClock = (instant: Date) => writeFileSync(clockFile, instant.toISOString());

  test.beforeAll(async () => {
    test.setTimeout(180_000); // servers start slowly on a busy machine
    clockDir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-clock-"));
    clockFile = path.join(clockDir, "now");
    setClock(T0);
    const start = () => startServer({ databaseUrl: process.env.DATABASE_URL, env: { LEAD_INTAKE_TEST_CLOCK_FILE: clockFile } });
    // Its `prisma migrate deploy` runs against the run's live database; on SQLite, while other
    // tests write, it can fail once on the file lock (seen as a connector timeout). One retry.
    server = await start().catch((error: unknown) => {
      console.warn(`key-expiry: the test-clock server failed to start once, retrying: ${String(error).slice(0, 200)}`);
      return start();
    });
  });
  test.afterAll(async () => {
    await server?.stop();
    rmSync(clockDir, { recursive: true, force: true });
  });

  const post = (key: { keyId: string; secret: string }, name: string) =>
    fetch(`${server.url}${CREATE_LEAD}`, { method: "POST", headers: { ...authHeaders(key), "Content-Type": "application/json" }, body: JSON.stringify({ name }) });

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
      .poll(async () => (await listRequests({ teamId: team.id, of: { apiKeyId: key.keyId } })).rows.map((row) => [row.status, row.error]))
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
    const replacement = await rollApiKey({ keyId: old.keyId, teamId: team.id, oldKeyExpiresAt: at(24 * HOUR), createdById: null });
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
