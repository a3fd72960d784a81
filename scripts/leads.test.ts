import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";
import { useTestDatabase } from "../test/support/test-database";
import { listAuditEvents } from "../lib/audit/audit-log";
import { suppressAddresses } from "../lib/consent/suppression-store";
import { db } from "../lib/db/client";
import { BATCH_ROWS } from "../lib/imports/import-job";
import { createLead } from "../lib/leads/create-lead";
import { createTeam } from "../lib/teams/team-store";
import { cli } from "./cli.fixtures";

// npm run leads -- import / resume / unsuppress, run as an operator would, on this test's
// database: in this process (cli(): the CLI's parsing, handler, output and exit code), and as
// a process of its own for the import that is killed mid-way.
const database = await useTestDatabase();
const ROOT = path.resolve(import.meta.dirname, "..");
const clockFile = path.join(database.dir, "clock.txt");
// The app's clock for this process and the killed CLI's (lib/time/clock.ts).
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
const setClock = (at: Date) => writeFileSync(clockFile, at.toISOString());
const t0 = new Date("2026-11-26T12:00:00Z");
const leads = (...args: string[]) => cli("leads", ...args);

test("leads import: the file mapped from its header, progress, the report and the refused rows", async () => {
  setClock(t0);
  const team = await createTeam({ slug: "cli-import", name: "CLI import", defaultPhoneCountry: "GB" });
  await createLead({ team, apiKeyId: null, input: { name: "Already Here", email: "dup@example.com", extraFields: {} } });
  const file = path.join(database.dir, "people.csv");
  writeFileSync(
    file,
    "Full name;E-mail;Mobile;Notes\nAda Lovelace;ada@example.com;07911 123456;first\nDup Person;DUP@example.com;;\n;nobody@example.com;;\nAlan Turing;alan@;;\n",
  );

  const run = await leads("import", file, "--team", team.slug);
  assert.equal(run.status, 0, run.stderr);
  assert.match(run.stdout, /people\.csv: 4 rows; columns mapped from their names:/);
  assert.match(run.stdout, /Full name → Full name\n {2}E-mail → Email\n {2}Mobile → Mobile\n {2}Notes → Extra field/);
  assert.match(run.stdout, /\[#+\] 4 \/ 4 rows/);
  assert.match(run.stdout, /done: 1 created, 0 updated, 1 skipped as duplicates, 2 refused \(4 of 4 rows\)/);
  const refused = readFileSync(path.join(database.dir, "people.refused.csv"), "utf8");
  assert.equal(
    refused,
    '\uFEFF"Full name","E-mail","Mobile","Notes","reason"\r\n"","nobody@example.com","","","Name is required"\r\n"Alan Turing","alan@","","","Invalid email address: alan@"\r\n',
  );
  const lead = await db().lead.findFirstOrThrow({ where: { teamId: team.id, email: "ada@example.com" } });
  assert.deepEqual(
    [lead.firstName, lead.lastName, lead.mobileNo, lead.extraFields],
    ["Ada", "Lovelace", "+447911123456", { Notes: "first" }],
  );
  assert.deepEqual(
    (await listAuditEvents(team.id)).map((e) => [e.action, e.via]),
    [
      ["lead.imported", "cli"],
      ["lead.import_started", "cli"],
    ],
  );

  const image = path.join(database.dir, "photo.csv");
  writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
  const bad = await leads("import", image, "--team", team.slug);
  assert.equal(bad.status, 1);
  assert.match(bad.stderr, /photo\.csv: This is not a CSV file: it is a PNG image/);
  assert.equal(await db().import.count({ where: { teamId: team.id } }), 1, "nothing recorded for it");
  assert.match((await leads("import", path.join(database.dir, "missing.csv"), "--team", team.slug)).stderr, /No file/);
  assert.equal((await leads("import", file, "--team", team.slug, "--duplicates", "merge")).status, 2);
});

test("an import whose CLI was killed mid-way is resumed after its last committed batch, never doubled", async () => {
  setClock(t0);
  const team = await createTeam({ slug: "cli-killed", name: "CLI killed" });
  // Eight batches: killed after the first, seven are left to resume.
  const total = 8 * BATCH_ROWS;
  const file = path.join(database.dir, "many.csv");
  writeFileSync(file, ["Name", ...Array.from({ length: total }, (_, i) => `Person ${i}`)].join("\n"));

  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "scripts/leads.ts"), "import", file, "--team", team.slug], {
    env: { ...process.env, JOB_LEASE_SECONDS: "60" },
    cwd: ROOT,
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      // The first progress line after a committed batch: kill it there, mid-import.
      if (new RegExp(`\\] [1-9][\\d,]* / ${total.toLocaleString("en")} rows`).test(chunk.toString())) {
        child.kill("SIGKILL");
        resolve();
      }
    });
    child.on("exit", () => resolve());
    child.on("error", reject);
  });
  await new Promise((resolve) => child.on("close", resolve));
  const killed = await db().import.findFirstOrThrow({ where: { teamId: team.id } });
  assert.equal(killed.status, "running");
  assert.ok(killed.cursor > 0 && killed.cursor < total, `killed mid-way (at ${killed.cursor})`);
  assert.equal(await db().lead.count({ where: { teamId: team.id } }), killed.cursor, "only committed batches are there");

  // Its claim still holds: a resume now watches instead of running it twice…
  // …so the clock moves past the lease first; then the resume claims and finishes it.
  setClock(new Date(t0.getTime() + 61_000));
  const resumed = await leads("resume", "--team", team.slug);
  assert.equal(resumed.status, 0, resumed.stderr);
  assert.match(resumed.stdout, new RegExp(`done: ${total} created`));
  const names = await db().lead.findMany({
    where: { teamId: team.id },
    orderBy: { seq: "asc" },
    select: { firstName: true, lastName: true },
  });
  assert.equal(names.length, total);
  assert.ok(
    names.every((n, i) => `${n.firstName} ${n.lastName}` === `Person ${i}`),
    "every row once, in file order",
  );
});

test("leads unsuppress: takes an address off the team's suppression list, audited without it", async () => {
  const team = await createTeam({ slug: "cli-unsuppress", name: "CLI unsuppress" });
  await db().$transaction((tx) =>
    suppressAddresses(tx, { teamId: team.id, emails: ["ada@example.com"], reason: "withdrawn", at: new Date() }),
  );
  const removed = await leads("unsuppress", " Ada@Example.com", "--team", team.slug);
  assert.equal(removed.status, 0, removed.stderr);
  assert.match(
    removed.stdout,
    /Removed from team "cli-unsuppress"'s suppression list \(it was there because the person withdrew consent\)/,
  );
  assert.equal(await db().consentSuppression.count({ where: { teamId: team.id } }), 0);
  const again = await leads("unsuppress", "ada@example.com", "--team", team.slug);
  assert.equal(again.status, 0, again.stderr);
  assert.match(again.stdout, /not on team "cli-unsuppress"'s suppression list: nothing changed/);
  const events = await listAuditEvents(team.id);
  assert.deepEqual(
    events.map((e) => [e.action, e.via]),
    [["consent.suppression_purged", "cli"]],
  );
  assert.ok(!JSON.stringify(events).includes("ada@"));
});
