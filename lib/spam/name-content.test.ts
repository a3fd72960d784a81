import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { nameContent, type NameContentKind } from "./name-content";

describe("nameContent (issue 42 check 1: links, addresses and markup in name-like fields)", () => {
  const cases: { value: string; person: NameContentKind | null; organization: NameContentKind | null }[] = [
    { value: "https://cheap-seo.example/offer", person: "url", organization: "url" },
    { value: "Visit www.casino-bonus.xyz now", person: "url", organization: "url" },
    { value: "mail me: best.deal@gmail.com", person: "email", organization: "email" },
    { value: "<b>Anna</b>", person: "html", organization: "html" },
    { value: "[url=x]Anna[/url]", person: "bbcode", organization: "bbcode" },
    { value: "cheap-seo.ru", person: "domain", organization: null },
    { value: "Booking.com", person: "domain", organization: null },
    { value: "backlinks.top/order", person: "domain", organization: "domain" },
    { value: "Dr.Smith", person: null, organization: null },
    { value: "J.R.R. Tolkien", person: null, organization: null },
    { value: "Mr.Li", person: null, organization: null },
    { value: "AT&T <Legal>", person: "html", organization: "html" },
    { value: "Anna [Sales]", person: null, organization: null },
    { value: "王小明", person: null, organization: null },
  ];
  for (const { value, person, organization } of cases) {
    test(`${JSON.stringify(value)}: person ${person}, organization ${organization}`, () => {
      assert.equal(nameContent(value, true), person);
      assert.equal(nameContent(value, false), organization);
    });
  }

  test("a long value without links answers quickly (bounded patterns)", () => {
    const started = performance.now();
    assert.equal(nameContent("a".repeat(100_000), true), null);
    assert.ok(performance.now() - started < 200);
  });
});
