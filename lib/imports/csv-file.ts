import { open, stat } from "node:fs/promises";
import { createReadStream } from "node:fs";
import { parse, CsvError } from "csv-parse";
import { LIMITS } from "../leads/lead-input-schema";
import { CSV_QUOTE, CsvColumnGuard, type ColumnOverflow } from "./csv-column-guard";

// Reading an uploaded CSV file for an import (docs/import.md "Files"): the encoding from
// its byte order mark (UTF-8 with or without one; UTF-16 LE or BE with one), the delimiter
// from its header line (comma, semicolon or tab), then a streaming parse by csv-parse, one
// record at a time, so a 50 MB file never sits in memory. The fields of each record are counted
// as the text arrives, before csv-parse sees it (lib/imports/csv-column-guard.ts): a record past
// MAX_COLUMNS stops the reading at once, instead of growing in memory cell by empty cell. Every
// structural problem (not a text CSV, an unclosed quote, a ragged row, a duplicate header, too
// many columns, no rows, a cell over the extra-field limit, too big) is a CsvFileError with a
// message for the person who uploaded it.

export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** Columns a file may have (the extra fields are bounded separately, by the mapping). */
export const MAX_COLUMNS = 200;
/** A cell may hold what an extra field may (10,000 characters). */
export const MAX_CELL_CHARS = LIMITS.extraFieldValue;

export type CsvEncoding = "utf-8" | "utf-16le" | "utf-16be";
export type CsvDelimiter = "," | ";" | "\t";
export type CsvFormat = { encoding: CsvEncoding; delimiter: CsvDelimiter };

/** A record of the file: `row` is its number as a spreadsheet shows it (the header is row 1). */
export type CsvRecord = { row: number; cells: string[] };

/** A file that cannot be imported at all; `message` says why and what to do. */
export class CsvFileError extends Error {
  override name = "CsvFileError";
}

const SNIFF_BYTES = 64 * 1024;

/** Signatures of files people upload by mistake: images, PDFs, archives (a renamed .xlsx is a zip). */
const SIGNATURES: [bytes: number[], what: string][] = [
  [[0x50, 0x4b, 0x03, 0x04], "a zip archive (an Excel .xlsx file is one: save it as CSV first)"],
  [[0x50, 0x4b, 0x05, 0x06], "an empty zip archive"],
  [[0xd0, 0xcf, 0x11, 0xe0], "an old Excel (.xls) or Office file: save it as CSV first"],
  [[0x89, 0x50, 0x4e, 0x47], "a PNG image"],
  [[0xff, 0xd8, 0xff], "a JPEG image"],
  [[0x47, 0x49, 0x46, 0x38], "a GIF image"],
  [[0x25, 0x50, 0x44, 0x46], "a PDF document"],
  [[0x1f, 0x8b], "a gzip archive"],
  [[0x52, 0x61, 0x72, 0x21], "a RAR archive"],
];

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.length <= bytes.length && prefix.every((b, i) => bytes[i] === b);
}

/** The encoding named by the byte order mark (UTF-8 without one), and the BOM's length. */
export function detectEncoding(head: Uint8Array): { encoding: CsvEncoding; bomBytes: number } {
  if (startsWith(head, [0xef, 0xbb, 0xbf])) return { encoding: "utf-8", bomBytes: 3 };
  if (startsWith(head, [0xff, 0xfe])) return { encoding: "utf-16le", bomBytes: 2 };
  if (startsWith(head, [0xfe, 0xff])) return { encoding: "utf-16be", bomBytes: 2 };
  return { encoding: "utf-8", bomBytes: 0 };
}

/**
 * The delimiter of the header line: of comma, semicolon and tab, the one found most often
 * outside quotes (a single-column file has none: comma). Spreadsheet programs in locales
 * with a decimal comma write semicolons.
 */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = { ",": 0, ";": 0, "\t": 0 };
  let quoted = false;
  for (const char of text) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === "\n" || char === "\r")) break;
    else if (!quoted && char in counts) counts[char as CsvDelimiter]++;
  }
  const best = (Object.entries(counts) as [CsvDelimiter, number][]).sort((a, b) => b[1] - a[1])[0]!;
  return best[1] > 0 ? best[0] : ",";
}

/** The format of the file, or a CsvFileError for a file that is no text CSV. */
export async function sniffCsv(path: string): Promise<CsvFormat & { bytes: number }> {
  const { size } = await stat(path);
  if (size > MAX_IMPORT_BYTES) throw new CsvFileError(tooBig(size));
  if (size === 0) throw new CsvFileError("The file is empty.");
  const handle = await open(path, "r");
  let head: Uint8Array;
  try {
    const buffer = Buffer.alloc(Math.min(size, SNIFF_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
  const signature = SIGNATURES.find(([bytes]) => startsWith(head, bytes));
  if (signature) throw new CsvFileError(`This is not a CSV file: it is ${signature[1]}.`);
  const { encoding, bomBytes } = detectEncoding(head);
  // A UTF-16 file cut in the middle of a character is still fine to sniff: not fatal here.
  const text = new TextDecoder(encoding, { fatal: false }).decode(head.subarray(bomBytes));
  if (encoding === "utf-8" && head.subarray(bomBytes).includes(0)) throw new CsvFileError(NOT_TEXT);
  return { encoding, delimiter: detectDelimiter(text), bytes: size };
}

const NOT_TEXT = "This is not a CSV file: it holds binary data. Export or save it from your spreadsheet as CSV (UTF-8).";
const tooBig = (size: number) =>
  `The file is ${(size / 1024 / 1024).toFixed(1)} MB; an import takes at most ${MAX_IMPORT_BYTES / 1024 / 1024} MB. Split it into smaller files.`;

/**
 * The decoded text of the file, chunk by chunk (the BOM removed), refusing bytes that are no
 * text and a record with more than MAX_COLUMNS fields: each chunk's delimiters are counted
 * before it is passed on, so the parser never holds more than MAX_COLUMNS cells of a record.
 */
async function* decodedChunks(bytes: AsyncIterable<Uint8Array>, { encoding, delimiter }: CsvFormat): AsyncGenerator<string> {
  const decoder = new TextDecoder(encoding, { fatal: true, ignoreBOM: false });
  // The delimiter is the one sniffed from the header line before parsing starts, and csv-parse
  // is given it (not left to guess), so the guard counts exactly it, as csv-parse splits on it.
  const guard = new CsvColumnGuard(delimiter, MAX_COLUMNS);
  let total = 0;
  for await (const chunk of bytes) {
    total += chunk.length;
    if (total > MAX_IMPORT_BYTES) throw new CsvFileError(tooBig(total));
    let text: string;
    try {
      text = decoder.decode(chunk, { stream: true });
    } catch {
      throw new CsvFileError(notEncoded(encoding));
    }
    if (text.includes("\u0000")) throw new CsvFileError(NOT_TEXT);
    const overflow = guard.push(text);
    if (overflow) throw new CsvFileError(tooManyColumns(overflow));
    if (text) yield text;
  }
  let rest: string;
  try {
    rest = decoder.decode();
  } catch {
    throw new CsvFileError(notEncoded(encoding));
  }
  const overflow = guard.push(rest);
  if (overflow) throw new CsvFileError(tooManyColumns(overflow));
  if (rest) yield rest;
}

const tooManyColumns = ({ row, limit, headerColumns }: ColumnOverflow) =>
  row === 1 || headerColumns === null
    ? `The file has more than ${limit} columns; an import takes at most ${limit}.`
    : `Row ${row} has more than ${limit} cells; the header has ${headerColumns}. Every row needs one cell per column.`;

const notEncoded = (encoding: CsvEncoding) =>
  encoding === "utf-8"
    ? 'The file is not UTF-8 text (perhaps Windows-1252 or Latin-1). Save it from your spreadsheet as "CSV UTF-8" and upload it again.'
    : `The file starts as ${encoding.toUpperCase()} text but holds bytes that are not. Save it again as CSV (UTF-8).`;

/** csv-parse's error as a message for the person importing. */
function describeParseError(error: CsvError, columns: number): string {
  const row = typeof error.records === "number" ? error.records + 1 : null;
  const at = row !== null ? ` (row ${row})` : "";
  switch (error.code) {
    case "CSV_QUOTE_NOT_CLOSED":
      return `A quoted cell is never closed${at}: a " opens a cell that runs to the end of the file. Check the quotes on that row.`;
    case "CSV_INVALID_CLOSING_QUOTE":
    case "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE":
      return `A quote is misplaced${at}: a quoted cell must end right after its closing ". Double a " inside a quoted cell ("").`;
    case "CSV_RECORD_INCONSISTENT_FIELDS_LENGTH":
      return `Row ${row ?? "?"} has ${(error as CsvError & { record?: unknown[] }).record?.length ?? "a different number of"} cells; the header has ${columns}. Every row needs one cell per column.`;
    case "CSV_MAX_RECORD_SIZE":
      return `A row is too long${at}: a cell may hold at most ${MAX_CELL_CHARS.toLocaleString("en")} characters (perhaps a quote is never closed).`;
    default:
      return `The file could not be read as CSV${at}: ${error.message}`;
  }
}

export type OpenedCsv = {
  format: CsvFormat;
  headers: string[];
  /** The data records in file order; throws CsvFileError at the first structural problem. */
  records: AsyncGenerator<CsvRecord>;
};

/** Reads the header (checked: names present, not too many, none twice) and streams the rest. */
export async function openCsv(path: string, format?: CsvFormat): Promise<OpenedCsv> {
  const sniffed = format ?? (await sniffCsv(path));
  return openCsvStream(createReadStream(path, { highWaterMark: 256 * 1024 }), sniffed);
}

/** openCsv over the bytes of a file already sniffed (`format`), from any source of chunks. */
export async function openCsvStream(bytes: AsyncIterable<Uint8Array>, sniffed: CsvFormat): Promise<OpenedCsv> {
  const parser = parse({
    delimiter: sniffed.delimiter,
    // The column guard follows csv-parse's reading with this quote and escape: keep them one.
    quote: CSV_QUOTE,
    escape: CSV_QUOTE,
    // The BOM is removed by the decoder; a second one would be data.
    bom: false,
    skip_empty_lines: true,
    relax_column_count: false,
    // A bound for a cell that runs on (an unclosed quote): csv-parse then stops early.
    max_record_size: MAX_CELL_CHARS * 4 + 1024,
  });
  const source = decodedChunks(bytes, sniffed);
  // Feeding the parser from the decoder; an error of either side ends the iteration below.
  let feedError: unknown = null;
  void (async () => {
    try {
      for await (const text of source) {
        if (!parser.write(text)) await new Promise((resolve) => parser.once("drain", resolve));
      }
      parser.end();
    } catch (error) {
      feedError = error;
      parser.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<string[]>;
  let columns = 0;
  const next = async (): Promise<string[] | null> => {
    try {
      const step = await iterator.next();
      return step.done ? null : step.value;
    } catch (error) {
      if (feedError instanceof CsvFileError) throw feedError;
      if (error instanceof CsvError) throw new CsvFileError(describeParseError(error, columns));
      throw feedError ?? error;
    }
  };
  const close = async () => {
    await iterator.return?.();
    await source.return(undefined);
  };

  const header = await next();
  if (!header) {
    await close();
    throw new CsvFileError("The file is empty.");
  }
  try {
    checkHeader(header);
  } catch (error) {
    await close();
    throw error;
  }
  columns = header.length;
  const headers = header.map((name) => name.trim());

  async function* records(): AsyncGenerator<CsvRecord> {
    let row = 1;
    try {
      for (;;) {
        const cells = await next();
        if (!cells) break;
        row++;
        const long = cells.findIndex((cell) => cell.length > MAX_CELL_CHARS);
        if (long >= 0) {
          throw new CsvFileError(
            `Row ${row}, column "${headers[long]}": the cell has ${cells[long]!.length.toLocaleString("en")} characters; a cell may hold at most ${MAX_CELL_CHARS.toLocaleString("en")}.`,
          );
        }
        yield { row, cells };
      }
    } finally {
      await close();
    }
  }
  return { format: { encoding: sniffed.encoding, delimiter: sniffed.delimiter }, headers, records: records() };
}

function checkHeader(header: string[]): void {
  if (header.length > MAX_COLUMNS) throw new CsvFileError(`The file has ${header.length} columns; an import takes at most ${MAX_COLUMNS}.`);
  const seen = new Map<string, number>();
  header.forEach((raw, index) => {
    const name = raw.trim();
    if (!name) throw new CsvFileError(`Column ${index + 1} has no name in the header row (row 1). Every column needs a name.`);
    if (name.length > 200) throw new CsvFileError(`The name of column ${index + 1} is longer than 200 characters: is row 1 a header row?`);
    const key = name.toLowerCase();
    const first = seen.get(key);
    if (first !== undefined) {
      throw new CsvFileError(`The header names "${name}" twice (columns ${first + 1} and ${index + 1}). Rename one of them.`);
    }
    seen.set(key, index);
  });
}

export type CsvSummary = { format: CsvFormat; headers: string[]; rows: number; bytes: number };

/**
 * Reads the whole file once, for its structure only: the check an upload passes before
 * anything else happens (a broken file is refused before any row is written).
 */
export async function inspectCsv(path: string): Promise<CsvSummary> {
  const sniffed = await sniffCsv(path);
  const csv = await openCsv(path, sniffed);
  let rows = 0;
  for await (const _record of csv.records) rows++;
  if (rows === 0) throw new CsvFileError("The file has a header row but no rows of data.");
  return { format: csv.format, headers: csv.headers, rows, bytes: sniffed.bytes };
}
