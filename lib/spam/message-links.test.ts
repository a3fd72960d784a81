import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { baseDomain, messageLinks } from "./message-links";

const padding = "We would like to talk about a project for our sales team next month.";

describe("messageLinks (issue 42 check 4)", () => {
  test("counts scheme URLs, www hosts and bare domains", () => {
    assert.deepEqual(messageLinks(`${padding} https://a.example/x www.b.net and c.ru`, null), { links: 3, markup: false });
  });

  test("an e-mail address is not a link", () => {
    assert.deepEqual(messageLinks(`${padding} Write to anna@acme.com or bob@acme.org`, null), { links: 0, markup: false });
  });

  test("links to the domain of the sender's address do not count", () => {
    const text = `${padding} https://acme.co.uk/docs https://shop.acme.co.uk https://other.example.com`;
    assert.equal(messageLinks(text, "acme.co.uk").links, 1);
    assert.equal(messageLinks(text, "mail.acme.co.uk").links, 1);
    assert.equal(messageLinks(text, null).links, 3);
  });

  test("at most two links count for one site", () => {
    const text = `${padding} https://acme.io/a https://acme.io/b https://docs.acme.io/c https://acme.io/d`;
    assert.equal(messageLinks(text, null).links, 2);
  });

  test("a field shorter than a sentence has no links to count", () => {
    assert.equal(messageLinks("https://a.com https://b.com", null).links, 0);
  });

  test("a link in HTML or BBCode markup, in a field of any length", () => {
    assert.equal(messageLinks('<a href="https://x.example">x</a>', null).markup, true);
    assert.equal(messageLinks("[url=https://x.example]x[/url]", null).markup, true);
    assert.equal(messageLinks("[URL]https://x.example[/URL]", null).markup, true);
    assert.equal(messageLinks(`${padding} <b>bold</b> [b]bold[/b]`, null).markup, false);
  });

  test("baseDomain keeps a registry's second level", () => {
    assert.equal(baseDomain("docs.acme.co.uk"), "acme.co.uk");
    assert.equal(baseDomain("shop.inc.nl"), "inc.nl");
    assert.equal(baseDomain("www.acme.com"), "acme.com");
  });
});
