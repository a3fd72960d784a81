import { execFileSync } from "node:child_process";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { SMTPServer } from "smtp-server";
import { checkAtBothWidths } from "../support/accessibility-check";
import { DEMO_ADMIN } from "../support/demo-admin";
import { startServer, type ServerProcess } from "../support/server-process";

// Double opt-in in Chromium (issue 46, step 2; docs/consent.md "Double opt-in"): an admin turns
// it on in the form's Consent card (its "When to create the lead" choice left at "now"), a visitor ticks the consent box on the hosted form, the confirmation email arrives
// (this file's own server sends it to an SMTP sink here: the shared server sends no email),
// its link opens the page with the team's name, "Confirm" confirms, and the lead's page shows
// the confirmed evidence beside the pending one; "Resend confirmation" on a pending lead is
// refused within 24 h of its email, saying when. axe on the link's pages, the lead's page and
// the dialog, at 1280 and 390 px.

test.describe.configure({ timeout: 240_000 });

const ROOT = path.resolve(import.meta.dirname, "../..");
const SITE = "https://www.example.com";
const TEXT = "I agree that the team may send me its monthly newsletter. I can withdraw at any time.";

type Mail = { to: string[]; raw: string };
const received: Mail[] = [];
let sink: SMTPServer;
let server: ServerProcess;
let seeded: { slug: string; teamName: string; formId: string };

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
        // Quoted-printable's soft line breaks undone, so the link is found whole.
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.replace(/=\r?\n/g, "") });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  const smtp = `smtp://127.0.0.1:${(sink.server.address() as AddressInfo).port}`;
  server = await startServer({ env: { SMTP_URL: smtp, MAIL_FROM: "Lead Intake <leads@example.test>" } });
  const output = execFileSync(process.execPath, ["--import", "tsx", "e2e/support/double-opt-in-seed.ts", SITE, TEXT], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: `file:${server.databaseFile}` },
    encoding: "utf8",
  });
  seeded = JSON.parse(output.trim().split("\n").at(-1)!) as typeof seeded;
});

test.afterAll(async () => {
  await server?.stop();
  await new Promise<void>((resolve) => (sink ? sink.close(() => resolve()) : resolve()));
});

test(
  "a visitor gives consent on a hosted form with double opt-in, confirms by the email's link, and the lead's page shows the evidence",
  { tag: "@own-server" },
  async ({ browser }) => {
    const admin = await (await browser.newContext({ baseURL: server.url })).newPage();
    await admin.goto("/signin");
    await admin.getByLabel("Email").fill(DEMO_ADMIN.email);
    await admin.getByLabel("Password").fill(DEMO_ADMIN.password);
    await admin.getByRole("button", { name: "Sign in" }).click();
    await expect(admin.getByRole("heading", { name: "Leads", exact: true })).toBeVisible();
    await admin.goto(`/t/${seeded.slug}/settings/web-forms/${seeded.formId}`);
    const consent = admin.getByRole("form", { name: "Consent" });
    await consent.getByLabel(/^Double opt-in/).check();
    await consent.getByRole("button", { name: "Save consent" }).click();
    await expect(consent.getByText("Saved.")).toBeVisible();
    await admin.reload();
    const saved = admin.getByRole("form", { name: "Consent" });
    await expect(saved.getByLabel(/^Double opt-in/)).toBeChecked();
    // When to create the lead: now and pending (the default, this journey's) or only once confirmed.
    const when = saved.getByRole("group", { name: "When to create the lead" });
    await expect(when.getByLabel("Create the lead now and mark it pending until the person confirms")).toBeChecked();
    await expect(when.getByLabel("Create the lead only once confirmed")).not.toBeChecked();
    await checkAtBothWidths(admin, "consent card with double opt-in");

    const visitor = await (await browser.newContext({ baseURL: server.url, userAgent: "DoubleOptInJourney/1.0 Chromium" })).newPage();
    await visitor.goto(`/f/${seeded.formId}`);
    await visitor.getByLabel("Name").fill("Ada Lovelace");
    await visitor.getByRole("textbox", { name: "Email", exact: true }).fill("ada@example.com");
    await visitor.getByRole("checkbox", { name: new RegExp(TEXT.slice(0, 40)) }).check();
    await visitor.getByRole("button", { name: "Send" }).click();
    await expect(visitor.getByRole("heading", { name: "Thank you!" })).toBeVisible();
    await expect(visitor.getByText(/check your email: we sent you a link to confirm it/)).toBeVisible();

    await expect.poll(() => received.filter((mail) => mail.to.includes("ada@example.com")).length, { timeout: 30_000 }).toBe(1);
    const mail = received.find((item) => item.to.includes("ada@example.com"))!;
    expect(mail.raw).toContain("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
    const link = /https?:\/\/[^\s"<>]+\/api\/consent\/[^\s"<>]+/.exec(mail.raw)![0].replace(/\/unsubscribe$/, "");

    await visitor.goto(link);
    await expect(visitor.getByRole("heading", { name: `Confirm your consent for ${seeded.teamName}` })).toBeVisible();
    await checkAtBothWidths(visitor, "confirmation link page");
    await visitor.getByRole("button", { name: "Confirm" }).click();
    await expect(visitor.getByRole("heading", { name: "Thank you: your consent is confirmed" })).toBeVisible();
    await expect(visitor.getByText(seeded.teamName)).toBeVisible();
    await checkAtBothWidths(visitor, "consent confirmed page");

    await admin.goto(`/t/${seeded.slug}/leads`);
    await admin
      .getByRole("link", { name: /Ada Lovelace/ })
      .first()
      .click();
    const section = admin.getByRole("region", { name: /Consent/ });
    await expect(section.getByRole("heading", { name: /Consent/ })).toContainText("Confirmed");
    await expect(section.getByText("Confirmation email link", { exact: true })).toBeVisible();
    // The newest evidence (the confirmation) first; the submission's, pending, is under History.
    await expect(section.getByText("DoubleOptInJourney/1.0 Chromium", { exact: true }).first()).toBeVisible();
    await expect(section.getByText(TEXT, { exact: true }).first()).toBeVisible();
    await section.getByText(/History \(1 earlier\)/).click();
    await expect(section.getByText("Pending confirmation", { exact: true })).toBeVisible();
    await checkAtBothWidths(admin, "lead page with confirmed consent");
    await expect(section.getByRole("button", { name: "Resend confirmation" })).toHaveCount(0);

    // A second person, still pending: the admin's resend is refused within 24 h of the email.
    await visitor.goto(`/f/${seeded.formId}`);
    await visitor.getByLabel("Name").fill("Grace Hopper");
    await visitor.getByRole("textbox", { name: "Email", exact: true }).fill("grace@example.com");
    await visitor.getByRole("checkbox", { name: new RegExp(TEXT.slice(0, 40)) }).check();
    await visitor.getByRole("button", { name: "Send" }).click();
    await expect(visitor.getByRole("heading", { name: "Thank you!" })).toBeVisible();
    await admin.goto(`/t/${seeded.slug}/leads`);
    await admin
      .getByRole("link", { name: /Grace Hopper/ })
      .first()
      .click();
    const pending = admin.getByRole("region", { name: /Consent/ });
    await expect(pending.getByRole("heading", { name: /Consent/ })).toContainText("Pending confirmation");
    await expect(pending.getByText(/At most one email a day goes to a person/)).toBeVisible();
    await pending.getByRole("button", { name: "Resend confirmation" }).click();
    const dialog = admin.getByRole("dialog", { name: "Resend the confirmation email" });
    await expect(dialog).toContainText("At most one confirmation email goes to a person in 24 hours");
    await checkAtBothWidths(admin, "resend confirmation dialog");
    await dialog.getByRole("button", { name: "Resend" }).click();
    await expect(dialog.getByText(/A confirmation email was sent less than 24 hours ago. You can resend it after/)).toBeVisible();
    await expect.poll(() => received.filter((mail) => mail.to.includes("grace@example.com")).length, { timeout: 30_000 }).toBe(1);
  },
);
