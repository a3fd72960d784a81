import assert from "node:assert/strict";
import { test } from "node:test";
import { csvCell, csvRow } from "./csv";

test("cells starting with a formula character get an apostrophe (OWASP CSV injection)", () => {
  for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
    assert.equal(csvCell(`${start}HYPERLINK("http://x")`), `"'${start}HYPERLINK(""http://x"")"`, JSON.stringify(start));
  }
  assert.equal(csvCell("a=b"), '"a=b"', "only the first character counts");
  // Spreadsheets trim leading whitespace before they read a formula (issue 27).
  for (const spaced of [" =1", "  =1+1", "\u00a0@SUM(A1)", " \n-2+3", "\u3000+1"]) {
    assert.equal(csvCell(spaced), `"'${spaced}"`, JSON.stringify(spaced));
  }
  assert.equal(csvCell(" a=1"), '" a=1"');
});

test("every cell is quoted, quotes are doubled, null is empty, rows end with CRLF", () => {
  assert.equal(csvRow(["Ada", 'say "hi"', null, "line\nbreak", 3]), '"Ada","say ""hi""","","line\nbreak","3"\r\n');
});
