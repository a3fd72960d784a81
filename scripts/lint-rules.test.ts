import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { after, describe, test } from "node:test";
import { ESLint } from "eslint";

// The import direction of docs/development.md is kept by eslint.config.mjs. Each rule is
// proved here by breaking it in probe files inside the tree (where the config applies)
// and checking that ESLint reports exactly that rule; the real tree is linted by npm test.

const ROOT = path.resolve(import.meta.dirname, "..");
const probes: string[] = [];
const eslint = new ESLint({ cwd: ROOT });

after(() => {
  for (const dir of probes) rmSync(dir, { recursive: true, force: true });
});

/** Writes probe files under `folder` (relative to the root) and lints the first one. */
async function rulesBroken(folder: string, files: Record<string, string>): Promise<string[]> {
  const dir = path.join(ROOT, folder, `lint-probe-${process.pid}`);
  probes.push(dir);
  mkdirSync(dir, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(path.join(dir, name), text);
  const [result] = await eslint.lintFiles([path.join(dir, Object.keys(files)[0]!)]);
  return result!.messages.map((message) => message.ruleId ?? message.message);
}

describe("import direction (eslint.config.mjs)", () => {
  test("lib never imports app", async () => {
    const broken = await rulesBroken("lib", { "e.ts": 'import Home from "@/app/page";\n\nexport const e = Home;\n' });
    assert.deepEqual(broken, ["import/no-restricted-paths"]);
  });

  test("components import server actions from app, and nothing else of it", async () => {
    const page = await rulesBroken("components", { "f.tsx": 'import Home from "@/app/page";\n\nexport const f = Home;\n' });
    assert.deepEqual(page, ["import/no-restricted-paths"]);
    const action = await rulesBroken("components", {
      "g.tsx": 'import { signOutAction } from "@/app/sign-out-action";\n\nexport const g = signOutAction;\n',
    });
    assert.deepEqual(action, []);
  });

  test("domain code never imports a channel (lib/intake); routes do", async () => {
    const domain = await rulesBroken("lib", {
      "j.ts": 'import { storeLead } from "../intake/store-lead";\n\nexport const j = storeLead;\n',
    });
    assert.deepEqual(domain, ["import/no-restricted-paths"]);
    const route = await rulesBroken("app", {
      "k.ts": 'import { storeLead } from "@/lib/intake/store-lead";\n\nexport const k = storeLead;\n',
    });
    assert.deepEqual(route, []);
  });

  test("product code never imports test helpers; tests do", async () => {
    const product = await rulesBroken("lib", {
      "h.ts": 'import { useTestDatabase } from "../../test/support/test-database";\n\nexport const h = useTestDatabase;\n',
    });
    assert.deepEqual(product, ["import/no-restricted-paths"]);
    const testFile = await rulesBroken("lib", {
      "i.test.ts": 'import { useTestDatabase } from "../../test/support/test-database";\n\nexport const i = useTestDatabase;\n',
    });
    assert.deepEqual(testFile, []);
  });
});

describe("a store only stores (eslint.config.mjs)", () => {
  test("a store that writes an audit event fails the lint; its types, and a use case writing one, pass", async () => {
    const store = await rulesBroken("lib", {
      "l-store.ts": 'import { recordAuditEvent } from "../audit/audit-log";\n\nexport const l = recordAuditEvent;\n',
    });
    assert.deepEqual(store, ["no-restricted-imports"]);
    const types = await rulesBroken("lib", {
      "m-store.ts": 'import type { AuditActor } from "../audit/audit-log";\n\nexport type M = AuditActor;\n',
    });
    assert.deepEqual(types, []);
    const useCase = await rulesBroken("lib", {
      "n-changes.ts": 'import { recordAuditEvent } from "../audit/audit-log";\n\nexport const n = recordAuditEvent;\n',
    });
    assert.deepEqual(useCase, []);
  });

  test("a store never imports a use case (*-changes.ts)", async () => {
    const broken = await rulesBroken("lib", {
      "o-store.ts": 'import { p } from "./p-changes";\n\nexport const o = p;\n',
      "p-changes.ts": "export const p = (): number => 1;\n",
    });
    assert.deepEqual(broken, ["no-restricted-imports"]);
  });
});
