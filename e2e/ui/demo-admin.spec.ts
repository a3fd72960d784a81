import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import { expect, test, type Browser } from "@playwright/test";
import { DEFAULT_DEMO_ADMIN_EMAIL } from "../../lib/setup/seed";
import { readDatabase, startServer, type ServerProcess } from "../support/server-process";

// The demo admin (docs/security.md "Demo admin"), on servers of this file's own started as
// `npm start` does without DEMO_ADMIN_PASSWORD: a random password printed once, at
// creation; an owner's removal of that admin survives a restart, which prints no password.

test.describe.configure({ mode: "serial", timeout: 240_000 });

const PASSWORD_LINE = /shown only now:\s+(\S+)\s/;
const servers: ServerProcess[] = [];
test.afterAll(async () => Promise.all(servers.map((server) => server.stop())));

async function signInAsAdmin(browser: Browser, server: ServerProcess, password: string) {
  const page = await (await browser.newContext()).newPage();
  await page.goto(`${server.url}/signin`);
  await page.getByLabel("Email").fill(DEFAULT_DEMO_ADMIN_EMAIL);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).not.toHaveURL(/\/signin/);
  return page;
}

const auditCount = (server: ServerProcess) =>
  readDatabase(server.databaseFile, (db) => (db.prepare('SELECT count(*) AS n FROM "AuditEvent"').get() as { n: number }).n);
const adminRoles = (server: ServerProcess) =>
  readDatabase(server.databaseFile, (db) =>
    db.prepare('SELECT m.role FROM "Membership" m JOIN "User" u ON u.id = m."userId" WHERE u.email = ?').all(DEFAULT_DEMO_ADMIN_EMAIL),
  );

test(
  "first start prints a random admin password once; a removed admin stays removed after a restart that prints none",
  { tag: "@own-server" },
  async ({ browser }) => {
    const first = await startServer({ fromScratch: true, env: { DEMO_ADMIN_PASSWORD: "" } });
    servers.push(first);
    const password = PASSWORD_LINE.exec(first.output())?.[1];
    expect(password, first.output()).toMatch(/^[\w-]{24}$/);
    expect(first.output()).not.toContain("demo-admin-password");
    const page = await signInAsAdmin(browser, first, password!);
    await expect(page).toHaveURL(/\/t\/demo\/leads$/);

    // Another owner takes over and the demo admin leaves team demo.
    const db = new Database(first.databaseFile);
    const team = db.prepare('SELECT id FROM "Team" WHERE slug = ?').get("demo") as { id: string };
    const ownerId = randomUUID();
    db.prepare('INSERT INTO "User" (id, email, "passwordHash") VALUES (?, ?, ?)').run(ownerId, "new-owner@example.test", "x");
    db.prepare('INSERT INTO "Membership" (id, "userId", "teamId", role) VALUES (?, ?, ?, ?)').run(randomUUID(), ownerId, team.id, "owner");
    db.prepare('DELETE FROM "Membership" WHERE "teamId" = ? AND "userId" <> ?').run(team.id, ownerId);
    db.close();
    expect(adminRoles(first)).toEqual([]);
    const audited = auditCount(first);
    await first.stop();

    const second = await startServer({ dataDir: first.dataDir, env: { DEMO_ADMIN_PASSWORD: "" } });
    servers.push(second);
    expect(second.output()).not.toContain(password!);
    expect(second.output()).not.toMatch(PASSWORD_LINE);
    expect(adminRoles(second)).toEqual([]);
    expect(auditCount(second)).toBe(audited);
    // The account itself still signs in, to no team.
    const again = await signInAsAdmin(browser, second, password!);
    await expect(again.getByText(/not a member of any team yet/)).toBeVisible();
  },
);
