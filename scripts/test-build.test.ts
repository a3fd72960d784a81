import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { test } from "node:test";
import { pathToFileURL } from "node:url";
import { buildTestFiles, compiledTestFile, sourceTestFile } from "./test-build";

const ROOT = path.resolve(import.meta.dirname, "..");
const FIXTURE = path.join("test", "fixtures", "test-build", "where.ts");

test("a compiled test file sees its source's import.meta, its classes' own names and the packages tsx would load", async () => {
  const outDir = await mkdtemp(path.join(os.tmpdir(), "test-build-"));
  try {
    await buildTestFiles([FIXTURE], outDir);
    const compiled = compiledTestFile(FIXTURE, outDir);
    const where = (await import(pathToFileURL(compiled).href)) as typeof import("../test/fixtures/test-build/where");
    const source = path.join(ROOT, FIXTURE);
    assert.equal(where.url, pathToFileURL(source).href);
    assert.equal(where.dirname, path.dirname(source));
    assert.equal(where.filename, source);
    assert.equal(where.Where.name, "Where");
    assert.equal(where.ElsewhereWhere.name, "Where");
    assert.notEqual(where.Where, where.ElsewhereWhere);
    // A package's JSON file, and a subpath without its extension in a package with no exports map.
    assert.ok(where.freeMail.includes("gmail.com"));
    assert.equal(typeof where.NextResponse.json, "function");
    assert.equal(sourceTestFile(compiled, outDir), FIXTURE);
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});

test("sourceTestFile leaves a path outside the compiled folder as it is", () => {
  assert.equal(sourceTestFile("lib/leads/lead-store.test.ts"), "lib/leads/lead-store.test.ts");
  assert.equal(sourceTestFile(compiledTestFile("lib/leads/lead-store.test.ts")), "lib/leads/lead-store.test.ts");
});
