import { execFileSync } from "node:child_process";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { DEMO_ADMIN } from "../support/demo-admin";
import { startServer, type ServerProcess } from "../support/server-process";

// The spam quarantine's journey (issue 42, docs/spam.md): a spam post to a web form is
// answered as a lead, is not in the lead list and waits in Leads → Spam with its reasons;
// "Not spam" moves it into the list, where the team's rule assigns it and its owner gets the
// new-lead email. The email is real: this file's own server sends it to an SMTP sink here
// (the shared server sends no email), so its database is seeded by a script of its own.

test.describe.configure({ timeout: 240_000 });

const ROOT = path.resolve(import.meta.dirname, "../..");
const SITE = "https://www.example.com";
const MEMBER = { email: "mia.member@example.test", password: "e2e-member-passphrase" };

type Mail = { to: string[]; raw: string };
const received: Mail[] = [];
let sink: SMTPServer;
let server: ServerProcess;
let seeded: { slug: string; formId: string };

test.beforeAll(async () => {
  test.setTimeout(240_000);
  sink = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        // Quoted-printable's soft line breaks undone, so a lead id is found whole.
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.replace(/=\r?\n/g, "") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const smtp = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  server = await startServer({ env: { SMTP_URL: smtp, MAIL_FROM: "Lead Intake <leads@example.test>" } });
  const output = execFileSync(
    process.execPath,
    ["--import", "tsx", "e2e/support/spam-journey-seed.ts", SITE, MEMBER.email, MEMBER.password],
    { cwd: ROOT, env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: `file:${server.databaseFile}` }, encoding: "utf8" },
  );
  seeded = JSON.parse(output.trim().split("\n").at(-1)!) as typeof seeded;
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
});

test(
  "a spam post waits in Leads → Spam with its reasons; Not spam moves it into the list, assigned, with its new-lead email",
  { tag: "@own-server" },
  async ({ browser }) => {
    // The form answers the spam post exactly as it answers a lead.
    const post = (fields: Record<string, string>) =>
      fetch(`${server.url}/api/forms/${seeded.formId}`, {
        method: "POST",
        headers: { origin: SITE, accept: "application/json", "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams(fields),
      });
    const spam = await post({ name: "Cheap SEO http://seo-offer.example/now", email: "offer@mailinator.com", message: "Rank first" });
    const real = await post({ name: "Ada Lovelace", email: "ada@example.com" });
    expect([spam.status, real.status]).toEqual([201, 201]);
    const [spamBody, realBody] = [(await spam.json()) as { lead_id: string; message: string }, (await real.json()) as { message: string }];
    expect(spamBody.message).toBe(realBody.message);

    const page = await (await browser.newContext({ baseURL: server.url })).newPage();
    await page.goto("/signin");
    await page.getByLabel("Email").fill(DEMO_ADMIN.email);
    await page.getByLabel("Password").fill(DEMO_ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Leads", exact: true })).toBeVisible();
    await page.goto(`/t/${seeded.slug}/leads`);
    await expect(page.getByRole("row").filter({ hasText: "Ada Lovelace" })).toBeVisible();
    await expect(page.getByText("Cheap SEO")).toHaveCount(0);

    await page.getByRole("link", { name: "Spam (1)" }).click();
    await expect(page.getByRole("heading", { name: "Spam" })).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: spamBody.lead_id });
    await expect(row).toContainText("Cheap SEO http://seo-offer.example/now");
    await expect(row).toContainText("Link, address or markup in a name (name)");
    await expect(row).toContainText("Disposable email address (email)");
    await expect(row).toContainText("Web form");

    // The new-lead email of the kept lead went out; none for the spam post.
    await expect.poll(() => received.filter((mail) => mail.to.includes(MEMBER.email)).length, { timeout: 30_000 }).toBe(1);
    expect(received.some((mail) => mail.raw.includes(spamBody.lead_id))).toBe(false);

    await row.getByRole("button", { name: `Not spam: release ${spamBody.lead_id}` }).click();
    await expect(page.getByRole("row").filter({ hasText: spamBody.lead_id })).toHaveCount(0);
    await page.goto(`/t/${seeded.slug}/leads`);
    const released = page.getByRole("row").filter({ hasText: "Cheap SEO" });
    await expect(released).toBeVisible();
    await expect(released).toContainText("Mia Member");
    await expect(page.getByRole("link", { name: "Spam (0)" })).toBeVisible();

    // Its owner gets its new-lead email, naming the lead.
    await expect
      .poll(() => received.filter((mail) => mail.to.includes(MEMBER.email) && mail.raw.includes(spamBody.lead_id)).length, {
        timeout: 30_000,
      })
      .toBe(1);
  },
);
