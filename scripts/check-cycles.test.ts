import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { describeCycles, importCycles } from "./check-cycles";

// npm test's import-cycle check (scripts/check-cycles.ts) on small trees of its own: a tree
// with the project's tsconfig paths ("@/*"), so that the real tree is never touched.

const scratch = mkdtempSync(path.join(tmpdir(), "lead-intake-cycles-"));
after(() => rmSync(scratch, { recursive: true, force: true }));

let trees = 0;
/** A tree under a fresh root: tsconfig.json with the "@/*" alias, and `files` (path → source). */
function tree(files: Record<string, string>): string {
  const root = path.join(scratch, `tree-${trees++}`);
  mkdirSync(root);
  writeFileSync(
    path.join(root, "tsconfig.json"),
    JSON.stringify({ compilerOptions: { baseUrl: ".", moduleResolution: "bundler", jsx: "preserve", paths: { "@/*": ["./*"] } } }),
  );
  for (const [file, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), source);
  }
  return root;
}

test("two files importing each other are a cycle, named from the root", async () => {
  const root = tree({
    "lib/a.ts": 'import { b } from "./b";\nexport const a = () => b();\n',
    "lib/b.ts": 'import { a } from "./a";\nexport const b = (): unknown => a;\n',
  });
  const cycles = await importCycles(root, ["lib"]);
  assert.deepEqual(cycles, [["lib/a.ts", "lib/b.ts"]]);
  assert.equal(describeCycles(cycles), "Import cycle: lib/a.ts → lib/b.ts → lib/a.ts");
});

test("a cycle through the @/ alias, across folders and a .tsx file, is found", async () => {
  const root = tree({
    "components/badge.tsx": 'import { label } from "@/lib/labels";\nexport const Badge = () => <span>{label}</span>;\n',
    "lib/labels.ts": 'import { format } from "./format";\nexport const label = format("x");\n',
    "lib/format.ts": 'import { Badge } from "@/components/badge";\nexport const format = (text: string) => (Badge ? text : "");\n',
  });
  assert.deepEqual(await importCycles(root, ["components", "lib"]), [["components/badge.tsx", "lib/labels.ts", "lib/format.ts"]]);
});

test("no cycle: a chain whose way back is an `import type` (erased at run time)", async () => {
  const root = tree({
    "lib/c.ts": 'import { d } from "./d";\nexport const c = () => d();\n',
    "lib/d.ts": 'import type { Shape } from "./e";\nexport const d = (): Shape => ({ n: 1 });\n',
    "lib/e.ts": 'import { c } from "./c";\nexport type Shape = { n: number };\nexport const e = c;\n',
  });
  assert.deepEqual(await importCycles(root, ["lib"]), []);
});

test("the same files with a value import back are a cycle", async () => {
  const root = tree({
    "lib/c.ts": 'import { d } from "./d";\nexport const c = () => d();\n',
    "lib/d.ts": 'import { e } from "./e";\nexport const d = () => e;\n',
    "lib/e.ts": 'import { c } from "./c";\nexport const e = c;\n',
  });
  assert.deepEqual(await importCycles(root, ["lib"]), [["lib/c.ts", "lib/d.ts", "lib/e.ts"]]);
});

test("by default: the files at the root and every product folder, but no test and no test runner", async () => {
  const root = tree({
    "proxy.ts": 'import { register } from "./instrumentation";\nexport const proxy = register;\n',
    "instrumentation.ts": 'import { proxy } from "@/proxy";\nexport const register = () => proxy;\n',
    "lib/rule.ts": "export const rule = 1;\n",
    "playwright.config.ts": 'import { helper } from "./e2e/helper";\nexport default helper;\n',
    "e2e/helper.ts": 'import config from "../playwright.config";\nexport const helper = config;\n',
  });
  assert.deepEqual(await importCycles(root), [["instrumentation.ts", "proxy.ts"]]);
});
