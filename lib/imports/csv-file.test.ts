import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { CsvFileError, inspectCsv, MAX_CELL_CHARS, MAX_IMPORT_BYTES, openCsv, type CsvDelimiter, type CsvEncoding } from "./csv-file";

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
