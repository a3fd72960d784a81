import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import type { AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { Dispatcher } from "../jobs/dispatcher";
import { proposeMapping } from "./column-mapping";
import {
  DRAFT_LIFETIME_MS,
  IMPORT_DIR,
  ImportLimitError,
  MAX_DRAFTS_PER_TEAM,
  MAX_UPLOADS_PER_TEAM,
  MAX_UPLOADS_PER_USER,
  removeAbandonedDrafts,
  takeUploadSlot,
} from "./import-drafts";
import { importFilePath, importHandler } from "./import-job";
import { findImport, type ImportRecord } from "./import-store";
import { CsvFileError, discardDraft, startImport, uploadImport } from "./lead-import";
import { createTeam } from "../teams/team-store";

await useTestDatabase();

const actor: AuditActor = { userId: null, ip: "203.0.113.9", via: "web" };
let teams = 0;
const makeTeam = () => createTeam({ slug: `drafts-${++teams}`, name: `Drafts ${teams}`, defaultPhoneCountry: "GB" });
const CSV = "Name,Email\nAda,ada@example.com\n";

const upload = async (teamId: string, createdById: string | null = null, body: Readable = Readable.from([Buffer.from(CSV)])) =>
  (await uploadImport({ teamId, fileName: "leads.csv", body, createdById })).record;

const storedFiles = () => readdirSync(importFilePath(IMPORT_DIR)).sort();

async function refusedForLimit(promise: Promise<unknown>, message: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof ImportLimitError && error instanceof CsvFileError, `an ImportLimitError, not ${String(error)}`);
    assert.match(error.message, message);
    return true;
  });
}

test(`a team keeps at most ${MAX_DRAFTS_PER_TEAM} drafts: the next upload is refused before anything is stored`, async () => {
  const team = await makeTeam();
  const drafts: ImportRecord[] = [];
  for (let i = 0; i < MAX_DRAFTS_PER_TEAM; i++) drafts.push(await upload(team.id));
  const before = storedFiles();
  await refusedForLimit(upload(team.id), /This team has 20 uploaded files not yet imported: start or discard one/);
  assert.deepEqual(storedFiles(), before, "no file stored, no partial file left");

  // Another team is not held back by this one.
  await upload((await makeTeam()).id);
  // A discarded draft makes room, and so does a started one.
  await discardDraft(drafts[0]!);
  await upload(team.id);
  await refusedForLimit(upload(team.id), /20 uploaded files/);
  const started = await startImport({
    record: drafts[1]!,
    mapping: proposeMapping(drafts[1]!.headers),
    duplicates: "create",
    sourceId: null,
    actor,
  });
  assert.deepEqual(started, { ok: true });
  await upload(team.id);
});

test(`uploads under way: at most ${MAX_UPLOADS_PER_TEAM} per team and ${MAX_UPLOADS_PER_USER} per user at once`, async () => {
  const [a, b, c] = [await makeTeam(), await makeTeam(), await makeTeam()];
  // Bodies that arrive only when let go: the uploads stay under way meanwhile. One promise
  // lets them all go, also a body first read after it was let go: an upload reads its body
  // only after a database check, which on a loaded machine can end after the line that lets
  // go (a gate per body, each opened once, then left that upload waiting for ever).
  let letGo!: () => void;
  const go = new Promise<void>((resolve) => (letGo = resolve));
  const slowBody = () =>
    Readable.from(
      (async function* () {
        await go;
        yield Buffer.from(CSV);
      })(),
    );
  const byTeam = [upload(a.id, null, slowBody()), upload(a.id, null, slowBody())];
  await refusedForLimit(upload(a.id), /Other files are being uploaded to this team right now/);
  const byUser = [upload(b.id, "user-1", slowBody()), upload(c.id, "user-1", slowBody())];
  await refusedForLimit(upload((await makeTeam()).id, "user-1"), /Your other uploads are still under way/);
  await upload(b.id, "user-2");
  letGo();
  assert.equal((await Promise.all([...byTeam, ...byUser])).length, 4);
  // The slots are given back, also by a refused upload.
  await assert.rejects(upload(a.id, "user-1", Readable.from([Buffer.from("Name\n")])), /no rows/);
  await upload(a.id, "user-1");
  await upload(a.id, "user-1");

  const release = takeUploadSlot("team-x", "user-x");
  release();
  release();
  const again = [takeUploadSlot("team-x", null), takeUploadSlot("team-x", null)];
  assert.throws(() => takeUploadSlot("team-x", null), ImportLimitError, "a release counts once");
  again.forEach((r) => r());
});

test("the imports lane's hourly pruning removes drafts older than 24 hours, rows and files, and files no import reads", async () => {
  const team = await makeTeam();
  const now = new Date();
  const old = new Date(now.getTime() - DRAFT_LIFETIME_MS - 60_000);
  const young = new Date(now.getTime() - DRAFT_LIFETIME_MS + 60_000);
  const abandoned = await upload(team.id);
  const fresh = await upload(team.id);
  const queued = await upload(team.id);
  const failed = await upload(team.id);
  await startImport({ record: queued, mapping: proposeMapping(queued.headers), duplicates: "create", sourceId: null, actor });
  await db().import.update({ where: { id: failed.id }, data: { status: "failed" } });
  await db().import.updateMany({ where: { id: { in: [abandoned.id, queued.id, failed.id] } }, data: { createdAt: old } });
  await db().import.update({ where: { id: fresh.id }, data: { createdAt: young } });
  for (const record of [queued, failed]) utimesSync(importFilePath(record.filePath), old, old);
  // Files of no import: an upload cut short a day ago, and one under way now.
  mkdirSync(importFilePath(IMPORT_DIR), { recursive: true });
  const cutShort = importFilePath(path.join(IMPORT_DIR, `imp_${"a".repeat(32)}.csv.part`));
  const underWay = importFilePath(path.join(IMPORT_DIR, `imp_${"b".repeat(32)}.csv.part`));
  const unrelated = importFilePath(path.join(IMPORT_DIR, "notes.txt"));
  for (const file of [cutShort, underWay, unrelated]) writeFileSync(file, "Name\n");
  for (const file of [cutShort, unrelated]) utimesSync(file, old, old);

  const lane = new Dispatcher({
    handlers: { import: importHandler },
    lane: "imports",
    leaseMs: 60_000,
    retryBaseMs: 1_000,
    now: () => now,
    sweep: removeAbandonedDrafts,
  });
  await lane.prune();

  assert.equal(await findImport(team.id, abandoned.id), null, "the abandoned draft's row is gone");
  assert.equal(existsSync(importFilePath(abandoned.filePath)), false, "and its file");
  assert.equal((await findImport(team.id, fresh.id))?.status, "draft", "a draft younger than 24 hours stays");
  assert.ok(existsSync(importFilePath(fresh.filePath)));
  assert.equal((await findImport(team.id, queued.id))?.status, "queued", "a started import stays");
  assert.ok(existsSync(importFilePath(queued.filePath)), "with the file its job reads");
  assert.equal((await findImport(team.id, failed.id))?.status, "failed");
  assert.equal(existsSync(importFilePath(failed.filePath)), false, "a failed import's file is read no more: gone");
  assert.deepEqual([cutShort, underWay, unrelated].map(existsSync), [false, true, true]);

  // A second pruning finds nothing more; a failing sweep never stops the lane.
  assert.equal(await removeAbandonedDrafts(now), 0);
  const failing = new Dispatcher({
    handlers: {},
    lane: "imports",
    leaseMs: 1,
    retryBaseMs: 1,
    sweep: () => Promise.reject(new Error("disk gone")),
  });
  assert.equal(await failing.prune(), 0);
});
