import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { CsvFileError } from "./csv-file";
import { importFilePath } from "./import-job";
import { abandonedDrafts, countDrafts, deleteDraft, importsReadingFiles } from "./import-store";

// What uploads may hold on the server (issue 27, finding 1): any account holder can create
// a team and upload, and each upload stores up to 50 MB under DATA_DIR/imports. So uploads
// under way are limited per team and per user (in this process), a team keeps at most
// MAX_DRAFTS_PER_TEAM drafts (uploaded, not started), and the imports lane's hourly pruning
// (lib/startup/dispatchers.ts) removes drafts not started within a day, with their files,
// and the files no import reads any more (an upload cut short, a failed import's file).

/** Where uploaded files are kept, under DATA_DIR. */
export const IMPORT_DIR = "imports";
/** Drafts a team may keep: the next upload is refused until one is started or discarded. */
export const MAX_DRAFTS_PER_TEAM = 20;
/** How long a draft waits to be started before the pruning removes it. */
export const DRAFT_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Uploads under way at once in this process, per team and per user. */
export const MAX_UPLOADS_PER_TEAM = 2;
export const MAX_UPLOADS_PER_USER = 2;

/** An upload refused for a limit (not for its content); a CsvFileError, so callers show the message. */
export class ImportLimitError extends CsvFileError {
  override name = "ImportLimitError";
}

// Counts of uploads under way, on globalThis: route handlers are bundled apart.
const holder = globalThis as unknown as { leadIntakeUploads?: Map<string, number> };
const uploading = (holder.leadIntakeUploads ??= new Map<string, number>());

/** Takes an upload slot of the team and of the user, or refuses; returns its release. */
export function takeUploadSlot(teamId: string, userId: string | null): () => void {
  const slots: [key: string, max: number, message: string][] = [
    [`team:${teamId}`, MAX_UPLOADS_PER_TEAM, "Other files are being uploaded to this team right now: wait for them to finish."],
  ];
  if (userId) slots.push([`user:${userId}`, MAX_UPLOADS_PER_USER, "Your other uploads are still under way: wait for them to finish."]);
  for (const [key, max, message] of slots) if ((uploading.get(key) ?? 0) >= max) throw new ImportLimitError(message);
  for (const [key] of slots) uploading.set(key, (uploading.get(key) ?? 0) + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    for (const [key] of slots) {
      const left = (uploading.get(key) ?? 1) - 1;
      if (left > 0) uploading.set(key, left);
      else uploading.delete(key);
    }
  };
}

/** Refuses an upload while the team holds MAX_DRAFTS_PER_TEAM drafts. */
export async function checkDraftRoom(teamId: string): Promise<void> {
  if ((await countDrafts(teamId)) < MAX_DRAFTS_PER_TEAM) return;
  throw new ImportLimitError(
    `This team has ${MAX_DRAFTS_PER_TEAM} uploaded files not yet imported: start or discard one of them (Leads → Import) before uploading another. A file not imported within ${DRAFT_LIFETIME_MS / 3_600_000} hours is discarded.`,
  );
}

const BATCH = 100;
const STORED_FILE = /^(imp_[0-9a-f]{32})\.csv(\.part)?$/;

/**
 * The pruning of the imports lane: removes the drafts created more than DRAFT_LIFETIME_MS
 * before `now` (row and file), then the files as old that no import reads (no draft or
 * queued or running import of that id). Returns how many files or drafts went.
 */
export async function removeAbandonedDrafts(now: Date): Promise<number> {
  const before = new Date(now.getTime() - DRAFT_LIFETIME_MS);
  let removed = 0;
  for (;;) {
    const drafts = await abandonedDrafts(before, BATCH);
    for (const draft of drafts) {
      // Not when it was started meanwhile: deleteDraft only deletes a draft.
      if (!(await deleteDraft(draft.teamId, draft.id))) continue;
      await rm(importFilePath(draft.filePath), { force: true });
      removed++;
    }
    if (drafts.length < BATCH) break;
  }
  return removed + (await removeUnreadFiles(before));
}

async function removeUnreadFiles(before: Date): Promise<number> {
  const dir = importFilePath(IMPORT_DIR);
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  const old: { id: string; file: string }[] = [];
  for (const name of names) {
    const id = STORED_FILE.exec(name)?.[1];
    if (!id) continue;
    const file = path.join(dir, name);
    const modified = (await stat(file).catch(() => null))?.mtime;
    if (modified && modified < before) old.push({ id, file });
  }
  let removed = 0;
  for (let i = 0; i < old.length; i += BATCH) {
    const batch = old.slice(i, i + BATCH);
    const reading = await importsReadingFiles(batch.map((entry) => entry.id));
    for (const { id, file } of batch) {
      if (reading.has(id)) continue;
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}
