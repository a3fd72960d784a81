import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { parseWebsite } from "./website";

describe("parseWebsite", () => {
  const accepted: [sent: string, stored: string][] = [
    ["https://example.com", "https://example.com"],
    ["http://example.com/path?q=1#top", "http://example.com/path?q=1#top"],
    ["HTTPS://Example.com/About", "HTTPS://Example.com/About"],
    ["example.com", "https://example.com"],
    ["www.example.co.uk/about", "https://www.example.co.uk/about"],
    ["example.com:8080", "https://example.com:8080"],
    ["localhost:3000/form", "https://localhost:3000/form"],
    ["//example.com/x", "https://example.com/x"],
    // Credentials would be shown to every member: removed, the site kept.
    ["https://user:pass@example.com/", "https://example.com/"],
  ];
  for (const [sent, stored] of accepted) {
    test(`${JSON.stringify(sent)} → ${JSON.stringify(stored)}`, () => assert.equal(parseWebsite(sent), stored));
  }

  // Issue 11: these refused the whole lead (422); now the field is skipped and its text kept.
  const notUrls = [
    "javascript:alert(1)",
    "JavaScript:alert(document.cookie)",
    "javascript:1",
    "data:text/html,<script>alert(1)</script>",
    "ftp://example.com",
    "file:///etc/passwd",
    "mailto:ada@example.com",
    "example",
    "n/a",
    "https://exa mple.com",
    "http://",
  ];
  for (const sent of notUrls) {
    test(`${JSON.stringify(sent)} is no website`, () => assert.equal(parseWebsite(sent), null));
  }
});
