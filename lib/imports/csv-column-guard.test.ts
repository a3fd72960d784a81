import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { CSV_QUOTE, CsvColumnGuard, type ColumnOverflow } from "./csv-column-guard";

/** The field count of each record as the guard sees it, the text given in `pieces`. */
function guardCounts(pieces: string[], delimiter: string, limit = Infinity): { counts: number[]; overflow: ColumnOverflow | null } {
  const counts: number[] = [];
  const guard = new CsvColumnGuard(delimiter, limit, (fields) => counts.push(fields));
  let overflow: ColumnOverflow | null = null;
  for (const piece of pieces) overflow ??= guard.push(piece);
  if (!overflow) guard.end();
  return { counts, overflow };
}

/** csv-parse's field count of each record, with lib/imports/csv-file.ts's options (ragged rows allowed). */
function parsedCounts(text: string, delimiter: string): number[] | null {
  try {
    const records = parse(text, {
      delimiter,
      quote: CSV_QUOTE,
      escape: CSV_QUOTE,
      bom: false,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as string[][];
    return records.map((record) => record.length);
  } catch {
    return null;
  }
}

/** The text cut at the given offsets (sorted, clamped), so chunk boundaries fall anywhere. */
function cut(text: string, offsets: number[]): string[] {
  const points = [...new Set(offsets.map((o) => Math.min(o, text.length)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(text.slice(from, point));
    from = point;
  }
  pieces.push(text.slice(from));
  return pieces;
}

/** Every way of cutting `text` in two, and one character at a time. */
function cuttings(text: string): string[][] {
  const all = [[text], [...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

describe("counting the fields of each record as the text streams in", () => {
  const cases: [name: string, text: string, delimiter: string, counts: number[]][] = [
    ["unquoted cells, LF", "a,b,c\n1,2,3\n", ",", [3, 3]],
    ["quoted delimiters are one cell", 'Name,Notes\nAda,"a,b,c"\n', ",", [2, 2]],
    ["doubled quotes inside a quoted cell", 'a,b\n"say ""hi, there""",x\n', ",", [2, 2]],
    ["a doubled quote just before the closing one", 'a,b\n"x""",",y"\n', ",", [2, 2]],
    ["an empty quoted cell", 'a,b\n"",""\n', ",", [2, 2]],
    ["newlines inside quotes do not end the record", 'a;b\n"1\n2\r\n3";x\n', ";", [2, 2]],
    ["tab delimiter; commas are text", "a\tb\n1,2,3\t4\n", "\t", [2, 2]],
    ["CRLF, blank lines skipped", "a,b\r\n\r\n1,2\r\n\r\n", ",", [2, 2]],
    ["CR only", "a,b\r1,2\r", ",", [2, 2]],
    ["a bare CR is text in an LF file", "a,b\n1\r,2\n", ",", [2, 2]],
    ["a bare LF is text in a CRLF file", "a,b\r\n1\n,2\r\n", ",", [2, 2]],
    ["no line break at the end", "a,b,c\n1,2,3", ",", [3, 3]],
    ["a line of one empty quoted cell is a record", 'a\n""\n', ",", [1, 1]],
    ["300 commas in quotes are one cell", `a,b\n"${",".repeat(300)}",x\n`, ",", [2, 2]],
  ];
  for (const [name, text, delimiter, counts] of cases) {
    test(`${name} (as csv-parse counts, wherever the chunks end)`, () => {
      assert.deepEqual(parsedCounts(text, delimiter), counts);
      for (const pieces of cuttings(text)) assert.deepEqual(guardCounts(pieces, delimiter).counts, counts, JSON.stringify(pieces));
    });
  }

  test("the record past the limit is reported with its row, at the delimiter that passes it", () => {
    const text = `h1,h2,h3\n1,2,3\n${",".repeat(3)}${",".repeat(1000)}\n`;
    for (const pieces of [[text], [...text]]) {
      const { overflow } = guardCounts(pieces, ",", 4);
      assert.deepEqual(overflow, { row: 3, limit: 4, headerColumns: 3 });
    }
    assert.equal(guardCounts([",,,"], ",", 4).overflow, null, "4 fields are within a limit of 4");
    assert.deepEqual(guardCounts([",,,,"], ",", 4).overflow, { row: 1, limit: 4, headerColumns: null });
    assert.equal(guardCounts(['"' + ",".repeat(100) + '"'], ",", 4).overflow, null, "quoted commas");
    // A quote inside an unquoted cell opens nothing (csv-parse refuses it): the commas after it count.
    assert.deepEqual(guardCounts(['a"' + ",".repeat(100) + '"'], ",", 4).overflow, { row: 1, limit: 4, headerColumns: null });
  });

  test("after the overflow, nothing more is read", () => {
    const guard = new CsvColumnGuard(",", 2);
    const overflow = guard.push("a,b,c");
    assert.ok(overflow);
    assert.equal(guard.push("\nx\n"), overflow);
  });

  // Cells with every character that matters, written as a spreadsheet writes them: quoted
  // when they hold a delimiter, a quote or a line break (quotes doubled), sometimes anyway.
  const cellText = fc.string({ unit: fc.constantFrom("a", "é", " ", ",", ";", "\t", '"', "\n", "\r", "\r\n"), maxLength: 8 });
  const table = fc.record({
    delimiter: fc.constantFrom(",", ";", "\t"),
    newline: fc.constantFrom("\n", "\r\n", "\r"),
    rows: fc.array(fc.array(fc.tuple(cellText, fc.boolean()), { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 }),
    blankLines: fc.array(fc.nat(8), { maxLength: 3 }),
    finalNewline: fc.boolean(),
    offsets: fc.array(fc.nat(400), { maxLength: 6 }),
    limit: fc.integer({ min: 1, max: 9 }),
  });
  type Table = typeof table extends fc.Arbitrary<infer T> ? T : never;
  function write({ delimiter, newline, rows, blankLines, finalNewline }: Table): string {
    const lines = rows.map((row) =>
      row.map(([cell, quote]) => (quote || /[,;\t"\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(delimiter),
    );
    for (const at of blankLines) lines.splice(Math.min(at, lines.length), 0, "");
    return lines.join(newline) + (finalNewline ? newline : "");
  }

  test("the guard's count of every record equals csv-parse's, and it overflows at csv-parse's first long record (fast-check)", () => {
    fc.assert(
      fc.property(table, (generated) => {
        const text = write(generated);
        const expected = parsedCounts(text, generated.delimiter);
        assert.ok(expected, `csv-parse reads ${JSON.stringify(text)}`);
        const pieces = cut(text, generated.offsets);
        assert.deepEqual(guardCounts(pieces, generated.delimiter).counts, expected);
        const first = expected.findIndex((fields) => fields > generated.limit);
        const { overflow } = guardCounts(pieces, generated.delimiter, generated.limit);
        assert.equal(overflow?.row ?? null, first < 0 ? null : first + 1);
      }),
      { numRuns: 500 },
    );
  });

  test("on any text csv-parse accepts, even one no spreadsheet wrote, the counts agree (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom("a", ",", '"', "\n", "\r"), maxLength: 40 }),
        fc.array(fc.nat(40), { maxLength: 4 }),
        (text, offsets) => {
          const expected = parsedCounts(text, ",");
          fc.pre(expected !== null);
          assert.deepEqual(guardCounts(cut(text, offsets), ",").counts, expected);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
