import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { Dispatcher } from "../jobs/dispatcher";
import { claimJobById, type ClaimedJob } from "../jobs/job-store";
import { intakeBusy, trackIntake } from "../operations/intake-activity";
import { commitBatch, BatchFencedError } from "./commit-batch";
import { BATCH_ROWS, BUSY_BATCH_ROWS, importHandler, runImport } from "./import-job";
import { findImport, importJobId } from "./import-store";
import { cancelImport, startImport } from "./lead-import";
import { actor, makeTeam, upload } from "./lead-import.fixtures";

// An import's background job (lib/imports/import-job.ts, commit-batch.ts): one import
// at a time per team, a cancel that keeps the batches written, smaller batches while
// create_lead is being served, a resume after a dead runner (whose late batch is refused),
// and two instances' import lanes of which exactly one runs the import.

await useTestDatabase();

const LEASE = { workerId: "test-worker", leaseMs: 60_000 };

test("one import at a time per team; a cancel stops after the batch in progress and keeps what was written", async () => {
  const team = await makeTeam();
  const rows = Array.from({ length: BATCH_ROWS * 2 + 10 }, (_, i) => `Person ${i},p${i}@example.com`);
  const first = await upload(team.id, ["Name,Email", ...rows].join("\n"));
  const second = await upload(team.id, "Name\nOther\n");
  assert.deepEqual(await startImport({ record: first.record, mapping: first.proposed, duplicates: "create", sourceId: null, actor }), {
    ok: true,
  });
  const busy = await startImport({ record: second.record, mapping: second.proposed, duplicates: "create", sourceId: null, actor });
  assert.deepEqual(busy, { ok: false, error: "Another import of this team is running: wait for it to finish (or cancel it) first." });
  const twice = await startImport({ record: first.record, mapping: first.proposed, duplicates: "create", sourceId: null, actor });
  assert.equal(twice.ok, false);

  const job = (await claimJobById({
    id: (await importJobId(first.record.id))!,
    workerId: LEASE.workerId,
    now: new Date(),
    leaseMs: LEASE.leaseMs,
  }))!;
  let batches = 0;
  const result = await runImport({
    importId: first.record.id,
    job,
    lease: LEASE,
    onProgress: async () => {
      if (++batches === 1) assert.equal(await cancelImport({ record: first.record, actor }), true);
    },
  });
  assert.deepEqual(result, { ok: true });
  const cancelled = (await findImport(team.id, first.record.id))!;
  assert.equal(cancelled.status, "cancelled");
  assert.equal(cancelled.createdCount, BATCH_ROWS, "the first batch is kept");
  assert.equal(await db().lead.count({ where: { importId: first.record.id } }), BATCH_ROWS);
  assert.deepEqual(
    (await listAuditEvents(team.id)).map((e) => [e.action, e.details?.status ?? null, e.details?.created ?? null]),
    [
      ["lead.imported", "cancelled", BATCH_ROWS],
      ["lead.import_cancelled", null, null],
      ["lead.import_started", null, null],
    ],
  );
  // The slot is free again.
  assert.deepEqual(await startImport({ record: second.record, mapping: second.proposed, duplicates: "create", sourceId: null, actor }), {
    ok: true,
  });
});

test("while create_lead is being served in this process, batches are smaller (SQLite's writer is held a fifth as long)", async () => {
  const team = await makeTeam();
  const rows = Array.from({ length: BATCH_ROWS + 30 }, (_, i) => `Person ${i}`);
  const { record, proposed } = await upload(team.id, ["Name", ...rows].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const job = (await claimJobById({
    id: (await importJobId(record.id))!,
    workerId: LEASE.workerId,
    now: new Date(),
    leaseMs: LEASE.leaseMs,
  }))!;
  const cursors: number[] = [];
  let release!: () => void;
  const request = trackIntake(() => new Promise<void>((resolve) => (release = resolve)));
  try {
    const result = await runImport({
      importId: record.id,
      job,
      lease: LEASE,
      onProgress: (progress) => {
        cursors.push(progress.cursor);
        // The request ends after the second batch: the import goes back to full batches.
        if (cursors.length === 2) release();
      },
    });
    assert.deepEqual(result, { ok: true });
  } finally {
    release();
    await request;
  }
  assert.deepEqual(cursors.slice(0, 2), [BUSY_BATCH_ROWS, 2 * BUSY_BATCH_ROWS]);
  assert.equal(cursors.at(-1), BATCH_ROWS + 30);
  assert.equal((await findImport(team.id, record.id))!.createdCount, BATCH_ROWS + 30);
});

test("an import whose runner died resumes after its last committed batch; the dead runner's late batch is refused", async () => {
  // The test before ends an intake request moments before this one starts (on a fast
  // machine within intakeBusy's 100 ms): batches are full-size only once the intake is quiet.
  while (intakeBusy()) await new Promise((resolve) => setTimeout(resolve, 20));
  const team = await makeTeam();
  const total = BATCH_ROWS * 2 + 7;
  const rows = Array.from({ length: total }, (_, i) => `Person ${i}`);
  const { record, proposed } = await upload(team.id, ["Name", ...rows].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const jobId = (await importJobId(record.id))!;
  const t0 = new Date();
  const dead = (await claimJobById({ id: jobId, workerId: "dead", now: t0, leaseMs: 60_000 }))!;

  // The first runner commits one batch, then dies (its progress callback throws; nothing more is written).
  const died = await runImport({
    importId: record.id,
    job: dead,
    lease: { workerId: "dead", leaseMs: 60_000 },
    now: () => t0,
    onProgress: () => {
      throw new Error("killed");
    },
  });
  assert.equal(died.ok, false);
  assert.equal((await findImport(team.id, record.id))!.cursor, BATCH_ROWS);

  // Its lease runs out; the import lane of another instance takes the job and finishes it.
  const later = new Date(t0.getTime() + 61_000);
  const other = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    workerId: "other",
    now: () => later,
  });
  // (It may take other tests' leftover jobs too: the lane claims what is due.)
  assert.ok((await other.runOnce()) >= 1);
  const done = (await findImport(team.id, record.id))!;
  assert.equal(done.status, "done");
  assert.equal(done.createdCount, total);
  const names = (
    await db().lead.findMany({ where: { importId: record.id }, orderBy: { seq: "asc" }, select: { firstName: true, lastName: true } })
  ).map((l) => `${l.firstName} ${l.lastName}`);
  assert.deepEqual(names, rows, "every row exactly once, in file order");

  // The dead runner wakes up and tries to commit a batch under its lost claim: refused, nothing written.
  await assert.rejects(
    commitBatch(
      {
        importId: record.id,
        teamId: team.id,
        from: BATCH_ROWS,
        rows: 1,
        leads: [],
        fills: [],
        filledPending: [],
        skipped: 0,
        refused: [{ row: 2, cells: ["x"], reason: "x" }],
      },
      { job: dead as ClaimedJob, lease: { workerId: "dead", leaseMs: 60_000 }, now: later },
    ),
    BatchFencedError,
  );
  assert.equal(await db().importRefusedRow.count({ where: { importId: record.id } }), 0);
});

test("two instances' import lanes: exactly one runs the import", async () => {
  const team = await makeTeam();
  const { record, proposed } = await upload(team.id, ["Name", ...Array.from({ length: 50 }, (_, i) => `P ${i}`)].join("\n"));
  await startImport({ record, mapping: proposed, duplicates: "create", sourceId: null, actor });
  const lane = (workerId: string) =>
    new Dispatcher({ handlers: { import: importHandler }, lane: "imports", leaseMs: 60_000, retryBaseMs: 1_000, workerId });
  // A delivery lane never takes an import.
  assert.equal(await new Dispatcher({ handlers: {}, leaseMs: 60_000, retryBaseMs: 1_000 }).runOnce(), 0);
  await Promise.all([lane("a").runOnce(), lane("b").runOnce()]);
  const job = await db().job.findUniqueOrThrow({ where: { id: (await importJobId(record.id))! } });
  assert.deepEqual([job.state, job.attempts], ["delivered", 1], "claimed once, by one of them");
  assert.equal(await db().lead.count({ where: { importId: record.id } }), 50);
});
