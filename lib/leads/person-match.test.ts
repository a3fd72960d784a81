import assert from "node:assert/strict";
import { test } from "node:test";
import { asStoredInJson, cellMatcher, containsPattern, personContacts } from "./person-match";

test("the person is the email or number typed and those of their erased leads", () => {
  assert.deepEqual(
    personContacts({ email: "ada@example.com", phone: null }, [
      { email: "ADA@example.com", phone: "+447911123456", mobileNo: null },
      { email: "augusta@example.com", phone: null, mobileNo: "+447700900123" },
      { email: "@", phone: "not e.164", mobileNo: null },
    ]),
    { emails: ["ada@example.com", "augusta@example.com"], phones: ["+447911123456", "+447700900123"] },
  );
  assert.deepEqual(personContacts({ email: null, phone: "+447911123456" }, []), { emails: [], phones: ["+447911123456"] });
});

test("LIKE patterns escape the wildcards and compare lower-cased text", () => {
  assert.equal(containsPattern("A_b%c\\d@Example.com"), "%a\\_b\\%c\\\\d@example.com%");
  assert.deepEqual(asStoredInJson("ada@example.com"), ["ada@example.com"]);
  assert.deepEqual(asStoredInJson('"ada"@example.com'), ['"ada"@example.com', '\\"ada\\"@example.com']);
});

test("a cell names the person by email, case folded, or by the number written any usual way", () => {
  const { matches } = cellMatcher({ emails: ["ada@example.com"], phones: ["+447911123456"] });
  for (const cell of [
    "ADA@Example.com",
    "mail: ada@example.com, please",
    "+447911123456",
    "+44 7911 123456",
    "+44 (0)7911 123-456",
    "0044 7911 123456",
    "447911123456",
    "07911 123456",
    "07911.123.456",
    "7911123456",
    "call 07911 123456 after five",
  ]) {
    assert.equal(matches(cell), true, cell);
  }
  for (const cell of ["", "bada@example.co", "079111234567", "17911123456", "+44 7911 123457", "+33 7911 123456", "7911 12345"]) {
    assert.equal(matches(cell), false, cell);
  }
});

test("mayMatch pre-filters a long text: true whenever a part of it matches", () => {
  const matcher = cellMatcher({ emails: ["ada@example.com"], phones: ["+447911123456"] });
  assert.equal(matcher.mayMatch("x,y,ADA@example.com,z"), true);
  assert.equal(matcher.mayMatch("a,b\n07911 123456\n"), true);
  assert.equal(matcher.mayMatch("a,079111234567"), true, "a pre-filter: the cell check then says no");
  assert.equal(matcher.matches("079111234567"), false);
  assert.equal(matcher.mayMatch("Grace,grace@example.com,+1 415 555 0123"), false);
});

test("no contacts: nothing matches", () => {
  const matcher = cellMatcher({ emails: [], phones: [] });
  assert.equal(matcher.matches("anything 07911 123456 ada@example.com"), false);
  assert.equal(matcher.mayMatch("anything 07911 123456 ada@example.com"), false);
  assert.deepEqual(matcher.nationalNumbers, []);
});
