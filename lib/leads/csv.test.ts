import assert from "node:assert/strict";
import { test } from "node:test";
import { csvCell, csvRow } from "./csv";

test("cells starting with a formula character get an apostrophe (OWASP CSV injection)", () => {
  for (const start of ["=", "+", "-", "@", "\t", "\r"]) {
    assert.equal(csvCell(`${start}HYPERLINK("http://x")`), `"'${start}HYPERLINK(""http://x"")"`, JSON.stringify(start));
  }
  assert.equal(csvCell("a=b"), '"a=b"', "only the first character counts");
  assert.equal(csvCell(" =1"), '" =1"');
});

test("every cell is quoted, quotes are doubled, null is empty, rows end with CRLF", () => {
  assert.equal(csvRow(["Ada", 'say "hi"', null, "line\nbreak", 3]), '"Ada","say ""hi""","","line\nbreak","3"\r\n');
});
