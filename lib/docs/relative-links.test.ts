import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, test } from "node:test";
import { anchorsOf, brokenLinks, linksOf } from "./relative-links";

const ROOT = path.join(import.meta.dirname, "..", "..");
const MARKDOWN = [
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

describe("every relative link and #anchor of README.md and docs/*.md resolves", () => {
  for (const file of MARKDOWN) {
    test(file, () => {
      assert.deepEqual(brokenLinks(ROOT, file), []);
    });
  }
});

describe("the link check", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "relative-links-"));
  after(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(path.join(dir, "docs"));
  writeFileSync(
    path.join(dir, "docs", "guide.md"),
    '# Guide\n\n## Production (PostgreSQL)\n\n## Rotate `SECRET_KEY` (or DATA_DIR/secret.key)\n\n## Production (PostgreSQL)\n\n<a id="custom"></a>\n',
  );

  test("slugs headings the way GitHub does, with duplicates numbered, and reads explicit ids", () => {
    const anchors = anchorsOf(
      '# Guide\n\n## Production (PostgreSQL)\n\n## Rotate `SECRET_KEY` (or DATA_DIR/secret.key)\n\n## Production (PostgreSQL)\n\n<a id="custom"></a>\n',
    );
    assert.deepEqual([...anchors].sort(), [
      "custom",
      "guide",
      "production-postgresql",
      "production-postgresql-1",
      "rotate-secret_key-or-data_dirsecretkey",
    ]);
  });

  test("finds links in paragraphs, lists, tables and HTML, not in code", () => {
    const markdown =
      '[a](a.md)\n\n- [b](b.md)\n\n| x |\n|---|\n| [c](c.md#x) |\n\n<img src="d.png">\n\n```\n[e](e.md)\n```\n\n`[f](f.md)`\n';
    assert.deepEqual(linksOf(markdown), ["a.md", "b.md", "c.md#x", "d.png"]);
  });

  test("reports a missing file, a missing anchor, a link out of the repository, and passes the good ones", () => {
    writeFileSync(
      path.join(dir, "README.md"),
      [
        "[ok](docs/guide.md#production-postgresql) [ok](docs/guide.md#custom) [ok](#readme) [web](https://example.com/x#y)",
        "[gone](docs/missing.md) [no anchor](docs/guide.md#hardening) [outside](../spec.md) [self](#nowhere)",
        "",
        "# Readme",
      ].join("\n"),
    );
    assert.deepEqual(
      brokenLinks(dir, "README.md").map(({ href, problem }) => `${href}: ${problem}`),
      [
        "docs/missing.md: docs/missing.md does not exist",
        'docs/guide.md#hardening: docs/guide.md has no heading or id "hardening"',
        "../spec.md: points outside the repository",
        '#nowhere: README.md has no heading or id "nowhere"',
      ],
    );
  });
});
