import assert from "node:assert/strict";
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import v8 from "node:v8";
import { runInNewContext } from "node:vm";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import {
  CsvFileError,
  inspectCsv,
  MAX_CELL_CHARS,
  MAX_COLUMNS,
  MAX_IMPORT_BYTES,
  openCsv,
  openCsvStream,
  type CsvDelimiter,
  type CsvEncoding,
} from "./csv-file";

const dir = mkdtempSync(path.join(tmpdir(), "csv-file-test-"));
let counter = 0;

function file(content: string | Uint8Array): string {
  const name = path.join(dir, `f${counter++}.csv`);
  writeFileSync(name, content);
  return name;
}

/** RFC 4180 text of a table: every cell quoted, quotes doubled. */
function csvText(rows: string[][], delimiter: CsvDelimiter, newline = "\r\n"): string {
  return rows.map((row) => row.map((cell) => `"${cell.replace(/"/g, '""')}"`).join(delimiter)).join(newline) + newline;
}

function encode(text: string, encoding: CsvEncoding, bom: boolean): Uint8Array {
  if (encoding === "utf-8") return Buffer.from((bom ? "\uFEFF" : "") + text, "utf8");
  const le = Buffer.from("\uFEFF" + text, "utf16le");
  if (encoding === "utf-16le") return le;
  const be = Buffer.from(le);
  be.swap16();
  return be;
}

async function readAll(path: string) {
  const csv = await openCsv(path);
  const records = [];
  for await (const record of csv.records) records.push(record);
  return { format: csv.format, headers: csv.headers, records };
}

async function refused(content: string | Uint8Array, message: RegExp): Promise<void> {
  await assert.rejects(inspectCsv(file(content)), (error: unknown) => {
    assert.ok(error instanceof CsvFileError, `a CsvFileError, not ${String(error)}`);
    assert.match(error.message, message);
    return true;
  });
}

describe("reading a CSV file", () => {
  for (const encoding of ["utf-8", "utf-16le", "utf-16be"] as const) {
    for (const bom of encoding === "utf-8" ? [false, true] : [true]) {
      for (const delimiter of [",", ";", "\t"] as const) {
        test(`${encoding}${bom ? " with BOM" : ""}, delimiter ${JSON.stringify(delimiter)}: quoted delimiters, quotes and newlines`, async () => {
          const rows = [
            ["Name", "E-mail", "Notes"],
            ["Zoë Ågren", "zoe@example.com", 'said "hi", then left;\tagain\r\nsecond line'],
            ["李雷", "li@example.com", ""],
          ];
          const read = await readAll(file(encode(csvText(rows, delimiter), encoding, bom)));
          assert.deepEqual(read.format, { encoding, delimiter });
          assert.deepEqual(read.headers, rows[0]);
          assert.deepEqual(read.records, [
            { row: 2, cells: rows[1] },
            { row: 3, cells: rows[2] },
          ]);
        });
      }
    }
  }

  test("unquoted cells, LF newlines, blank lines skipped; row numbers are the spreadsheet's", async () => {
    const read = await readAll(file("name;email\nAda;ada@example.com\n\nGrace;grace@example.com\n"));
    assert.equal(read.format.delimiter, ";");
    assert.deepEqual(read.records, [
      { row: 2, cells: ["Ada", "ada@example.com"] },
      { row: 3, cells: ["Grace", "grace@example.com"] },
    ]);
  });

  test("the delimiter is the header's: commas inside a quoted header name do not count", async () => {
    const read = await readAll(file('"Name, full";Email;Phone\nAda;a@example.com;1\n'));
    assert.equal(read.format.delimiter, ";");
    assert.deepEqual(read.headers, ["Name, full", "Email", "Phone"]);
  });

  test("inspectCsv counts the rows", async () => {
    const summary = await inspectCsv(file("Name\nA\nB\nC\n"));
    assert.equal(summary.rows, 3);
    assert.deepEqual(summary.headers, ["Name"]);
  });

  test("any table of text survives being written and read back (fast-check)", async () => {
    const cell = fc.string({ unit: "grapheme", maxLength: 30 }).filter((s) => !s.includes("\u0000"));
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }).chain((columns) =>
          fc.record({
            header: fc.uniqueArray(
              fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 12 }).filter((s) => s.trim() === s && s.trim() !== ""),
              {
                minLength: columns,
                maxLength: columns,
                selector: (s) => s.toLowerCase(),
              },
            ),
            rows: fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 8 }),
          }),
        ),
        fc.constantFrom<CsvDelimiter>(",", ";", "\t"),
        fc.constantFrom<[CsvEncoding, boolean]>(["utf-8", false], ["utf-8", true], ["utf-16le", true], ["utf-16be", true]),
        async ({ header, rows }, delimiter, [encoding, bom]) => {
          // A row of empty cells only is a blank line when there is one column: left out.
          const kept = header.length === 1 ? rows.filter((r) => r[0] !== "") : rows;
          fc.pre(kept.length > 0);
          const read = await readAll(file(encode(csvText([header, ...kept], delimiter), encoding, bom)));
          assert.deepEqual(read.headers, header);
          assert.deepEqual(
            read.records.map((r) => r.cells),
            kept,
          );
          if (header.length > 1) assert.equal(read.format.delimiter, delimiter);
        },
      ),
      { numRuns: 150 },
    );
  });
});

describe("a file that cannot be imported is refused with a message, before any row is read", () => {
  test("an empty file", () => refused("", /empty/));
  test("a header without rows", () => refused("Name,Email\r\n", /header row but no rows/));
  test("an image", () =>
    refused(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), /not a CSV file: it is a PNG image/));
  test("a JPEG", () => refused(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]), /JPEG/));
  test("a zip (an .xlsx renamed .csv)", () =>
    refused(Buffer.from("PK\x03\x04\x14\x00\x06\x00", "latin1"), /zip archive \(an Excel \.xlsx/));
  test("a PDF", () => refused("%PDF-1.7\n", /PDF/));
  test("binary data", () => refused(Buffer.from([0x4e, 0x61, 0x6d, 0x65, 0x0a, 0x00, 0x01, 0x02]), /binary data/));
  test("text that is not UTF-8 (Windows-1252)", () => refused(Buffer.from("Name\nJos\xe9\n", "latin1"), /not UTF-8 text/));
  test("an unclosed quote", () =>
    refused('Name,Email\nAda,"ada@example.com\nGrace,grace@example.com\n', /quoted cell is never closed \(row 2\)/));
  test("a misplaced quote", () => refused('Name,Email\n"Ada" Lovelace,ada@example.com\n', /quote is misplaced \(row 2\)/));
  test("a ragged row", () => refused("Name,Email\nAda,ada@example.com\nGrace\n", /Row 3 has 1 cells; the header has 2/));
  test("a row with too many cells", () => refused("Name,Email\nAda,ada@example.com,extra\n", /Row 2 has 3 cells; the header has 2/));
  test("duplicate header names (case and spaces ignored)", () =>
    refused("Name,Email, email \nAda,a,b\n", /names "email" twice \(columns 2 and 3\)/));
  test("an empty header name", () => refused("Name,,Email\nAda,x,a\n", /Column 2 has no name/));
  test("a cell over the extra-field limit", () =>
    refused(
      `Name,Notes\nAda,short\nGrace,${"x".repeat(MAX_CELL_CHARS + 1)}\n`,
      /Row 3, column "Notes": the cell has 10,001 characters; a cell may hold at most 10,000/,
    ));
  test("a cell exactly at the limit is fine", async () => {
    assert.equal((await inspectCsv(file(`Name,Notes\nAda,${"x".repeat(MAX_CELL_CHARS)}\n`))).rows, 1);
  });
  test("a file over 50 MB", async () => {
    const name = path.join(dir, "big.csv");
    writeFileSync(name, "Name\n");
    const { truncateSync } = await import("node:fs");
    truncateSync(name, MAX_IMPORT_BYTES + 1);
    await assert.rejects(inspectCsv(name), /at most 50 MB/);
  });
});

/** The collector: node's --expose-gc, or switched on here (the test runner passes no such flag). */
const collect = ((globalThis as { gc?: () => void }).gc ?? (v8.setFlagsFromString("--expose-gc"), runInNewContext("gc"))) as () => void;

/** How far the heap grew above its collected size while `run` ran, sampled every millisecond. */
async function peakHeapGrowth(run: () => Promise<void>): Promise<number> {
  collect();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sample = () => void (peak = Math.max(peak, process.memoryUsage().heapUsed));
  const timer = setInterval(sample, 1);
  await run().finally(() => clearInterval(timer));
  sample();
  return peak - before;
}

/** `name` and then `commas` commas, 64 KB at a time from one buffer; `read.bytes` counts what was taken. */
async function* nameAndCommas(commas: number, read: { bytes: number }): AsyncGenerator<Uint8Array> {
  const chunk = Buffer.alloc(64 * 1024, ",");
  read.bytes += 4;
  yield Buffer.from("name");
  for (let left = commas; left > 0; left -= chunk.length) {
    const part = left < chunk.length ? chunk.subarray(0, left) : chunk;
    read.bytes += part.length;
    yield part;
  }
}

/** The bytes of `text` cut at `offsets`, or one byte at a time. */
async function* pieces(text: string, offsets: number[] | "bytes"): AsyncGenerator<Uint8Array> {
  const bytes = Buffer.from(text);
  const points =
    offsets === "bytes"
      ? Array.from(bytes, (_, i) => i + 1)
      : [...offsets.map((o) => Math.min(o, bytes.length)).sort((a, b) => a - b), bytes.length];
  let from = 0;
  for (const point of points) if (point > from) yield bytes.subarray(from, (from = point));
}

const TOO_MANY = new RegExp(`The file has more than ${MAX_COLUMNS} columns; an import takes at most ${MAX_COLUMNS}\\.`);
const header = (columns: number) => Array.from({ length: columns }, (_, i) => `c${i + 1}`).join(",");

describe("a file with too many columns is refused while it is read (issue 27)", () => {
  const MILLION = 1_000_000;

  test("name and 20 million commas, streamed: refused at column 201, after its first chunks, the heap under 50 MB more", async (t) => {
    const read = { bytes: 0 };
    const started = Date.now();
    const growth = await peakHeapGrowth(() =>
      assert.rejects(openCsvStream(nameAndCommas(20 * MILLION, read), { encoding: "utf-8", delimiter: "," }), TOO_MANY),
    );
    t.diagnostic(`refused in ${Date.now() - started} ms after ${read.bytes} bytes read; heap +${(growth / MILLION).toFixed(1)} MB`);
    assert.ok(read.bytes <= 256 * 1024, `${read.bytes} bytes of 20 MB read before the refusal`);
    assert.ok(growth < 50 * MILLION, `the heap grew ${growth} bytes`);
  });

  test("the same 20 MB file uploaded (inspectCsv): refused, the heap under 50 MB more", async (t) => {
    const name = path.join(dir, "commas.csv");
    writeFileSync(name, "name");
    const chunk = Buffer.alloc(MILLION, ",");
    for (let i = 0; i < 20; i++) appendFileSync(name, chunk);
    try {
      const started = Date.now();
      // The column refusal, worded either way: what is measured here is what it cost.
      const growth = await peakHeapGrowth(() =>
        assert.rejects(inspectCsv(name), new RegExp(`columns; an import takes at most ${MAX_COLUMNS}\\.`)),
      );
      t.diagnostic(`refused in ${Date.now() - started} ms; heap +${(growth / MILLION).toFixed(1)} MB`);
      assert.ok(growth < 50 * MILLION, `the heap grew ${growth} bytes`);
    } finally {
      rmSync(name);
    }
  });

  test(`${MAX_COLUMNS} columns are taken, ${MAX_COLUMNS + 1} refused, wherever the chunks end`, async () => {
    const row = (cells: number) => Array.from({ length: cells }, (_, i) => `"v,${i}"`).join(",");
    const full = `${header(MAX_COLUMNS)}\n${row(MAX_COLUMNS)}\n`;
    const summary = await inspectCsv(file(full));
    assert.equal(summary.headers.length, MAX_COLUMNS);
    assert.equal(summary.rows, 1);
    await refused(`${header(MAX_COLUMNS + 1)}\n${row(MAX_COLUMNS + 1)}\n`, TOO_MANY);
    await refused(
      `${header(MAX_COLUMNS)}\n${row(MAX_COLUMNS)}\n${row(MAX_COLUMNS + 1)}\n`,
      new RegExp(`Row 3 has more than ${MAX_COLUMNS} cells; the header has ${MAX_COLUMNS}\\.`),
    );
    const format = { encoding: "utf-8", delimiter: "," } as const;
    const csv = await openCsvStream(pieces(full, "bytes"), format);
    assert.equal(csv.headers.length, MAX_COLUMNS);
    for await (const record of csv.records) assert.equal(record.cells.length, MAX_COLUMNS);
    await assert.rejects(openCsvStream(pieces(`${header(MAX_COLUMNS + 1)}\n`, "bytes"), format), TOO_MANY);
  });

  test("delimiters inside quotes are no columns: a quoted cell of commas and doubled quotes", async () => {
    const cell = `${",".repeat(MAX_COLUMNS * 2)}""${";".repeat(10)}`;
    const read = await readAll(file(`Name,Notes\nAda,"${cell}"\n`));
    assert.deepEqual(read.records, [{ row: 2, cells: ["Ada", cell.replace('""', '"')] }]);
  });

  test("files within the limit read as csv-parse alone reads them, in any chunks (fast-check)", async () => {
    const cell = fc.string({ unit: fc.constantFrom("a", "é", ",", ";", "\t", '"', "\n", "\r"), maxLength: 6 });
    const quoted = (text: string) => (/[,;\t"\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text);
    await fc.assert(
      fc.asyncProperty(
        fc
          .constantFrom(1, 2, 3, MAX_COLUMNS - 1, MAX_COLUMNS, MAX_COLUMNS + 1)
          .chain((columns) => fc.array(fc.array(cell, { minLength: columns, maxLength: columns }), { minLength: 1, maxLength: 3 })),
        fc.constantFrom<CsvDelimiter>(",", ";", "\t"),
        fc.constantFrom("\n", "\r\n", "\r"),
        fc.array(fc.nat(3000), { maxLength: 5 }),
        async (rows, delimiter, newline, offsets) => {
          const columns = rows[0]!.length;
          const text = [header(columns).replace(/,/g, delimiter), ...rows.map((r) => r.map(quoted).join(delimiter))].join(newline);
          const opened = openCsvStream(pieces(text, offsets), { encoding: "utf-8", delimiter });
          if (columns > MAX_COLUMNS) return void (await assert.rejects(opened, TOO_MANY));
          const [head, ...data] = parse(text, { delimiter, bom: false, skip_empty_lines: true }) as string[][];
          const csv = await opened;
          const expected = data.map((cells, i) => ({ row: i + 2, cells }));
          for await (const record of csv.records) assert.deepEqual(record, expected.shift());
          assert.deepEqual([csv.headers, expected], [head, []]);
        },
      ),
      { numRuns: 120 },
    );
  });
});
