// Operator CLI for leads (docs/import.md "From the command line"):
//   npm run leads -- import <file.csv> --team <slug> [--duplicates skip|update|create]
//   npm run leads -- resume --team <slug>
//   npm run leads -- unsuppress <email> --team <slug>   (docs/consent.md "Withdrawal and the suppression list")
// The same upload checks, job and report as Leads → Import: the CLI queues the import and
// runs its job itself (or watches the server that took it first), with a progress bar.
import { createReadStream, createWriteStream, existsSync, statSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { purgeSuppression } from "../lib/consent/consent-changes";
import { env } from "../lib/env";
import { TARGET_LABELS } from "../lib/imports/column-mapping";
import { importHandler } from "../lib/imports/import-job";
import {
  activeImport,
  DUPLICATES_MODES,
  findImport,
  importJobId,
  type DuplicatesMode,
  type ImportRecord,
} from "../lib/imports/import-store";
import { CsvFileError, refusedRowsCsv, startImport, uploadImport } from "../lib/imports/lead-import";
import { Dispatcher } from "../lib/jobs/dispatcher";
import { claimJobById } from "../lib/jobs/job-store";
import { now } from "../lib/time/clock";
import { defineCli, runIfEntryPoint, teamOfOption, UsageError } from "./cli";

const USAGE = `Usage:
  npm run leads -- import <file.csv> --team <slug> [--duplicates skip|update|create]
      imports a CSV file (mapped from its header, as the web page proposes); rows whose email or
      phone matches a lead are skipped by default; refused rows are written to <file>.refused.csv
  npm run leads -- resume --team <slug>
      resumes the team's import whose process was killed (once its claim has run out)
  npm run leads -- unsuppress <email> --team <slug>
      takes the address off the team's consent suppression list (audited, without the address)`;

const OPTIONS = {
  team: { type: "string" },
  duplicates: { type: "string", default: "skip" },
} as const;

const ACTIVE = ["queued", "running", "cancelling"];

function progressLine(record: ImportRecord, startedAt: number): string {
  const done = record.cursor;
  const total = Math.max(record.totalRows, 1);
  const width = 30;
  const filled = Math.round((done / total) * width);
  const seconds = (Date.now() - startedAt) / 1000;
  const rate = seconds > 0 ? done / seconds : 0;
  const left = rate > 0 ? Math.ceil((record.totalRows - done) / rate) : null;
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done.toLocaleString("en")} / ${record.totalRows.toLocaleString("en")} rows  ${Math.round(rate).toLocaleString("en")} rows/s${left !== null ? `  ${left} s left` : ""}`;
}

/** Runs the import's job in this process when it can claim it, else watches whoever has it; returns the ended import. */
async function runOrWatch(record: ImportRecord): Promise<ImportRecord> {
  const settings = env();
  const jobId = await importJobId(record.id);
  const lanes = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: settings.JOB_LEASE_SECONDS * 1000,
    retryBaseMs: settings.JOB_RETRY_BASE_SECONDS * 1000,
    now,
  });
  const job = jobId
    ? await claimJobById({ id: jobId, workerId: lanes.workerId, now: now(), leaseMs: settings.JOB_LEASE_SECONDS * 1000 })
    : null;
  if (!job)
    console.log("The import's job is held by another process (a server, or an earlier run whose claim has not run out): watching it.");
  const tty = process.stdout.isTTY;
  const startedAt = Date.now();
  let shown = -1;
  const show = async (): Promise<ImportRecord> => {
    const current = (await findImport(record.teamId, record.id))!;
    if (current.cursor !== shown) {
      shown = current.cursor;
      const line = progressLine(current, startedAt);
      if (tty) process.stdout.write(`\r${line}`);
      else console.log(line);
    }
    return current;
  };
  // The attempt records its own outcome (lib/jobs/dispatcher.ts); the loop shows progress meanwhile.
  const attempt = job ? lanes.attempt(job).then(() => "ended" as const) : null;
  for (;;) {
    const tick = new Promise<"tick">((resolve) => setTimeout(() => resolve("tick"), 250));
    const outcome = attempt ? await Promise.race([attempt, tick]) : await tick;
    const current = await show();
    // An attempt that ended with the import still active stopped on an error: a server's import lane retries it.
    if (!ACTIVE.includes(current.status) || outcome === "ended") {
      if (tty) process.stdout.write("\n");
      return current;
    }
  }
}

async function report(record: ImportRecord, file: string | null): Promise<void> {
  console.log(
    `Import ${record.id} ${record.status}: ${record.createdCount} created, ${record.updatedCount} updated, ${record.skippedCount} skipped as duplicates, ${record.refusedCount} refused (${record.cursor} of ${record.totalRows} rows).`,
  );
  if (record.status !== "done" && record.status !== "cancelled") {
    console.log(
      record.error ?? "The import stopped before the end; `npm run leads -- resume --team <slug>` (or a running server) continues it.",
    );
    process.exitCode = 1;
  }
  if (record.refusedCount > 0 && file) {
    const target = `${file.replace(/\.csv$/i, "")}.refused.csv`;
    await pipeline(
      Readable.fromWeb(refusedRowsCsv(record) as import("node:stream/web").ReadableStream<Uint8Array>),
      createWriteStream(target),
    );
    console.log(`Refused rows, with a reason column: ${target}`);
  }
}

export const leadsCli = defineCli(USAGE, OPTIONS, async (command, rest, values) => {
  const team = await teamOfOption(values.team);

  if (command === "import") {
    const [file] = rest;
    if (!file) throw new UsageError("Name the CSV file to import");
    if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`No file "${file}"`);
    const duplicates = values.duplicates as DuplicatesMode;
    if (!DUPLICATES_MODES.includes(duplicates)) throw new UsageError("--duplicates is skip, update or create");
    let uploaded;
    try {
      uploaded = await uploadImport({ teamId: team.id, fileName: path.basename(file), body: createReadStream(file), createdById: null });
    } catch (error) {
      if (error instanceof CsvFileError) throw new Error(`${file}: ${error.message}`);
      throw error;
    }
    const { record, proposed, remembered } = uploaded;
    console.log(
      `${record.fileName}: ${record.totalRows.toLocaleString("en")} rows; columns mapped${remembered ? " as in the team's last import of these headers" : " from their names"}:`,
    );
    record.headers.forEach((header, index) => console.log(`  ${header} → ${TARGET_LABELS[proposed[index]!]}`));
    const started = await startImport({ record, mapping: proposed, duplicates, sourceId: null, actor: CLI_ACTOR, now: now() });
    if (!started.ok) throw new Error(started.error);
    await report(await runOrWatch(record), file);
    return;
  }
  if (command === "resume") {
    const record = await activeImport(team.id);
    if (!record) throw new Error(`Team "${team.slug}" has no import to resume.`);
    await report(await runOrWatch(record), null);
    return;
  }
  if (command === "unsuppress") {
    const email = rest[0];
    if (!email || rest.length > 1) throw new UsageError("Give one email address: npm run leads -- unsuppress <email> --team <slug>");
    const reason = await purgeSuppression({ teamId: team.id, email, actor: CLI_ACTOR });
    console.log(
      reason
        ? `Removed from team "${team.slug}"'s suppression list (it was there because the person ${reason === "erased" ? "was erased" : "withdrew consent"}).`
        : `That address is not on team "${team.slug}"'s suppression list: nothing changed.`,
    );
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});

runIfEntryPoint(leadsCli, import.meta.url);
