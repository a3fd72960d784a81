import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  compileLists,
  EMPTY_SPAM_LISTS,
  foldCase,
  hasBlockedWord,
  isAllowedEmail,
  isBlockedEmail,
  isBlockedIp,
  type SpamLists,
} from "./team-lists";

const lists = (overrides: Partial<SpamLists>) => compileLists({ ...EMPTY_SPAM_LISTS, ...overrides });

describe("blocked words (issue 42 check 5)", () => {
  const words = lists({ blockedWords: ["SEO", "backlinks", "guest post", "straße", "比特币", "ΣΟΦΙΑ"] });
  const cases: [string, boolean][] = [
    ["Need SEO help", true],
    ["need seo.", true],
    ["(Seo)", true],
    ["Trip to Seoul", false],
    ["Buy BACKLINKS now", true],
    ["backlinksfarm", false],
    ["a guest   post offer", true],
    ["a guest-post offer", false],
    ["Hauptstrasse 5", false],
    ["HAUPT STRASSE 5", true],
    ["投资比特币赚钱", true],
    ["σοφια", true],
    ["ｓｅｏ services", true],
  ];
  for (const [text, blocked] of cases)
    test(`${JSON.stringify(text)} → ${blocked}`, () => assert.equal(hasBlockedWord(words, text), blocked));

  test("case folding maps ß to ss and final sigma to sigma", () => {
    assert.equal(foldCase("Straße"), foldCase("STRASSE"));
    assert.equal(foldCase("ΟΔΟΣ"), foldCase("οδος"));
  });

  test("no words, no match; odd entries are ignored", () => {
    assert.equal(hasBlockedWord(lists({}), "anything"), false);
    assert.equal(hasBlockedWord(lists({ blockedWords: ["", "  ", 42 as unknown as string, "a.b"] }), "a.b"), true);
    assert.equal(hasBlockedWord(lists({ blockedWords: ["a.b"] }), "axb"), false);
  });
});

describe("blocked and allowed addresses and domains", () => {
  const compiled = lists({
    blockedEmailDomains: ["Spam.Example.", "@junk.test"],
    blockedEmails: ["Bad@Acme.com"],
    allowEmails: ["ok@spam.example"],
    allowEmailDomains: ["partner.io"],
  });
  test("a blocked domain and its subdomains", () => {
    assert.equal(isBlockedEmail(compiled, "x@spam.example", "spam.example"), true);
    assert.equal(isBlockedEmail(compiled, "x@eu.spam.example", "eu.spam.example"), true);
    assert.equal(isBlockedEmail(compiled, "x@junk.test", "junk.test"), true);
    assert.equal(isBlockedEmail(compiled, "x@notspam.example", "notspam.example"), false);
  });
  test("a blocked address, in any case", () => {
    assert.equal(isBlockedEmail(compiled, " bad@acme.COM ", "acme.com"), true);
    assert.equal(isBlockedEmail(compiled, "good@acme.com", "acme.com"), false);
  });
  test("allowed addresses and domains", () => {
    assert.equal(isAllowedEmail(compiled, "OK@spam.example", "spam.example"), true);
    assert.equal(isAllowedEmail(compiled, "anyone@sub.partner.io", "sub.partner.io"), true);
    assert.equal(isAllowedEmail(compiled, "other@spam.example", "spam.example"), false);
  });
});

describe("blocked IP ranges (CIDR, IPv4 and IPv6)", () => {
  const compiled = lists({
    blockedIpRanges: ["203.0.113.0/24", "2001:db8::/32", "::ffff:198.51.100.0/120", "192.0.2.7", "not an ip", "10.0.0.0/99"],
  });
  const cases: [string, boolean][] = [
    ["203.0.113.9", true],
    ["203.0.114.9", false],
    ["::ffff:203.0.113.9", true],
    ["2001:db8:1::5", true],
    ["2001:db9::5", false],
    ["198.51.100.20", true],
    ["::ffff:198.51.100.20", true],
    ["198.51.101.20", false],
    ["192.0.2.7", true],
    ["192.0.2.8", false],
    ["", false],
    ["garbage", false],
  ];
  for (const [ip, blocked] of cases) test(`${JSON.stringify(ip)} → ${blocked}`, () => assert.equal(isBlockedIp(compiled, ip), blocked));
});

test("lists are compiled once per content, not per request", () => {
  const read = (): SpamLists => ({ ...EMPTY_SPAM_LISTS, blockedWords: ["seo"], blockedIpRanges: ["10.0.0.0/8"] });
  assert.equal(compileLists(read()), compileLists(read()));
  assert.notEqual(compileLists(read()), compileLists({ ...read(), blockedWords: ["crypto"] }));
});
