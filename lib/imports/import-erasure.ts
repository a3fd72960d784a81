import { createReadStream } from "node:fs";
import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { db, type Tx } from "../db/client";
import { env } from "../env";
import { log } from "../log/logger";
import { cellMatcher, likeTests, type CellMatcher, type PersonContacts } from "../leads/person-match";
import { importFilePath } from "./import-job";

// A person's erasure (lib/leads/erase-person.ts) in the CSV imports: the refused rows
// (ImportRefusedRow.cells, the file's cells as read) that name the person, and the
// uploaded files that still hold them: a draft (uploaded, never started: its file and its
// row) or a finished import whose file was left behind (a failed one: the file only, the
// row keeps the import's counts). The rows go in the erasure's transaction; the files are
// read before it (streamed, within a byte budget) and removed after its commit.
//
// An import that is queued or running is left alone: it reads its file until it ends
// (docs/leads.md "Erasing a person" says to erase after it, or to cancel it first).

/** Bytes of uploaded files one erasure reads at most; files beyond are reported unchecked. */
export const ERASURE_SCAN_BYTES = 512 * 1024 * 1024;
/** A cell (or a run without a delimiter or line break) is checked in windows of this many characters… */
const MAX_PIECE_CHARS = 64 * 1024;
/** …overlapping by this many, so that an email or number on a window's edge is seen whole. */
const PIECE_OVERLAP_CHARS = 512;
/** LIKE patterns per statement, each a bound parameter. */
const PATTERNS_PER_STATEMENT = 100;
/** Ids per IN list. */
const IDS_PER_STATEMENT = 500;

/**
 * The ids of the team's refused import rows whose cells name the person (an email anywhere in
 * a cell; a number as people write it, lib/leads/person-match.ts). The database narrows the
 * rows down (the email, or the number's digits once separators are removed); each is then
 * checked cell by cell.
 */
export async function findRefusedRows(client: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<number[]> {
  const matcher = cellMatcher(options.contacts);
  const text = `CAST(r."cells" AS TEXT)`;
  const tests = likeTests(options.contacts, matcher, text);
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const at = (index: number) => (postgres ? `$${index}` : "?");
  const ids = new Set<number>();
  for (let i = 0; i < tests.length; i += PATTERNS_PER_STATEMENT) {
    const chunk = tests.slice(i, i + PATTERNS_PER_STATEMENT);
    const candidates = await client.$queryRawUnsafe<{ id: number | bigint; cells: string }[]>(
      `SELECT r."id", ${text} AS "cells" FROM "ImportRefusedRow" r JOIN "Import" i ON i."id" = r."importId"
        WHERE i."teamId" = ${at(1)} AND (${chunk.map((t, j) => `${t.column} LIKE ${at(j + 2)} ESCAPE '\\'`).join(" OR ")})`,
      options.teamId,
      ...chunk.map((t) => t.pattern),
    );
    for (const row of candidates) if (cellsMatch(row.cells, matcher)) ids.add(Number(row.id));
  }
  return [...ids];
}

/** Deletes the team's refused import rows that name the person (findRefusedRows); answers how many. */
export async function eraseRefusedRows(tx: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<number> {
  const list = await findRefusedRows(tx, options);
  let erased = 0;
  for (let i = 0; i < list.length; i += IDS_PER_STATEMENT) {
    erased += (await tx.importRefusedRow.deleteMany({ where: { id: { in: list.slice(i, i + IDS_PER_STATEMENT) } } })).count;
  }
  return erased;
}

function cellsMatch(json: string, matcher: CellMatcher): boolean {
  const cells: unknown = JSON.parse(json);
  return Array.isArray(cells) && cells.some((cell) => typeof cell === "string" && matcher.matches(cell));
}

/** An uploaded file that names the person: a draft's (file and row go) or a finished import's (the file goes). */
export type ImportFileMatch = { importId: string; filePath: string; draft: boolean };

/**
 * The team's uploaded files that name the person, newest first, read before the erasure's
 * transaction: drafts and finished imports whose file is still there. At most
 * ERASURE_SCAN_BYTES are read: `unchecked` counts the files left unread beyond it.
 */
export async function findImportFiles(options: {
  teamId: string;
  contacts: PersonContacts;
  budgetBytes?: number;
}): Promise<{ matches: ImportFileMatch[]; unchecked: number }> {
  const matcher = cellMatcher(options.contacts);
  const imports = await db().import.findMany({
    where: { teamId: options.teamId, status: { notIn: ["queued", "running", "cancelling"] } },
    orderBy: { createdAt: "desc" },
    select: { id: true, status: true, filePath: true, encoding: true, delimiter: true },
  });
  let budget = options.budgetBytes ?? ERASURE_SCAN_BYTES;
  let unchecked = 0;
  const matches: ImportFileMatch[] = [];
  for (const record of imports) {
    const file = importFilePath(record.filePath);
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    // No file (a started import's is removed when it ends): nothing to read.
    if (size === null) continue;
    if (size > budget) {
      unchecked++;
      continue;
    }
    budget -= size;
    const found = await fileNamesPerson(file, record, matcher);
    if (found === null) unchecked++;
    else if (found) matches.push({ importId: record.id, filePath: record.filePath, draft: record.status === "draft" });
  }
  return { matches, unchecked };
}

/**
 * Streams the file in its encoding and checks each cell: the text is cut at line breaks and
 * at the file's delimiter (a quoted cell holding one is checked in parts, which still hold
 * an email or a number whole). A file gone meanwhile names nobody; null when it could not be read.
 */
async function fileNamesPerson(
  file: string,
  format: { encoding: string; delimiter: string },
  matcher: CellMatcher,
): Promise<boolean | null> {
  const delimiter = format.delimiter.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const cut = new RegExp(`\\r\\n|\\r|\\n|${delimiter}`);
  // The text after the last cut: a cell that the next chunk may continue.
  let rest = "";
  const check = (text: string): boolean => {
    const all = rest + text;
    if (!matcher.mayMatch(all)) {
      // Nothing here names the person (the common case): only the unfinished cell is kept.
      rest = all.slice(Math.max(all.lastIndexOf("\n"), all.lastIndexOf("\r"), all.lastIndexOf(format.delimiter)) + 1);
      if (rest.length > MAX_PIECE_CHARS) rest = rest.slice(-PIECE_OVERLAP_CHARS);
      return false;
    }
    const pieces = all.split(cut);
    rest = pieces.pop() ?? "";
    if (pieces.some((piece) => matcher.matches(piece))) return true;
    if (rest.length <= MAX_PIECE_CHARS) return false;
    const found = matcher.matches(rest);
    rest = rest.slice(-PIECE_OVERLAP_CHARS);
    return found;
  };
  try {
    const decoder = new TextDecoder(format.encoding, { fatal: false });
    for await (const chunk of createReadStream(file)) {
      if (check(decoder.decode(chunk as Buffer, { stream: true }))) return true;
    }
    return check(decoder.decode()) || matcher.matches(rest);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return false;
    log("warn", "lead.erase_file_unread", { file: path.basename(file), code: code ?? "unknown" });
    return null;
  }
}

/** Deletes these drafts (still drafts: one started meanwhile is left running); returns the ids deleted. */
export async function eraseDrafts(tx: Tx, teamId: string, importIds: readonly string[]): Promise<string[]> {
  const deleted: string[] = [];
  for (const id of importIds) {
    const { count } = await tx.import.deleteMany({ where: { id, teamId, status: "draft" } });
    if (count === 1) deleted.push(id);
  }
  return deleted;
}

/** Removes uploaded files after the erasure committed; returns how many were removed. */
export async function removeImportFiles(filePaths: readonly string[]): Promise<number> {
  let removed = 0;
  for (const filePath of filePaths) {
    try {
      await rm(importFilePath(filePath), { force: true });
      removed++;
    } catch (error) {
      log("error", "lead.erase_file_failed", { file: path.basename(filePath), code: (error as NodeJS.ErrnoException).code ?? "unknown" });
    }
  }
  return removed;
}
