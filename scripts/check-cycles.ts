import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import madge from "madge";

// No import cycle between product files (docs/development.md "Which way imports go"), checked
// by madge's module graph of app/, components/, lib/, scripts/ and the files at the root. It replaced ESLint's
// import/no-cycle, which cost 70 % of the lint (57 of 81 s of CPU, measured with TIMING on
// the whole tree) for the same graph; madge builds it in about a fifth of that.
//
// As import/no-cycle did: tests are left out (nothing imports a test, so a cycle can only run
// through product files), and `import type` is no edge (it is erased: no cycle at run time).

const ROOT = path.resolve(import.meta.dirname, "..");

/** The product's folders, relative to the root. */
const PRODUCT_FOLDERS = ["app", "components", "lib", "scripts"];

// Tests, and Playwright's config with them (ESLint's no-cycle also left out scripts/test.ts and the
// other test runners; here they are checked like any script).
const NOT_PRODUCT = [
  /\.test\.ts$/,
  /\.fixtures\.ts$/,
  /\.spec\.ts$/,
  /\.d\.m?ts$/,
  /(^|\/)(e2e|test)\//,
  /(^|\/)playwright\.config\.ts$/,
  /(^|\/)lib\/generated\//,
  /(^|\/)node_modules\//,
];

/** The product's folders and its files at the root (proxy.ts, instrumentation.ts, the configs), relative to `root`. */
function productEntries(root: string): string[] {
  const rootFiles = readdirSync(root).filter((name) => /\.(ts|tsx|mjs)$/.test(name) && !NOT_PRODUCT.some((pattern) => pattern.test(name)));
  return [...PRODUCT_FOLDERS.filter((folder) => existsSync(path.join(root, folder))), ...rootFiles];
}

/** Each import cycle among the files under `entries` (folders or files relative to `root`), as a list of paths relative to `root`. */
export async function importCycles(root = ROOT, entries = productEntries(root)): Promise<string[][]> {
  const graph = await madge(
    entries.map((entry) => path.join(root, entry)),
    {
      baseDir: root,
      fileExtensions: ["ts", "tsx", "mjs"],
      tsConfig: path.join(root, "tsconfig.json"),
      excludeRegExp: NOT_PRODUCT,
      detectiveOptions: { ts: { skipTypeImports: true }, tsx: { skipTypeImports: true } },
    },
  );
  return graph.circular();
}

/** The report npm test prints for `cycles` (empty: none). */
export function describeCycles(cycles: string[][]): string {
  return cycles.map((cycle) => `Import cycle: ${[...cycle, cycle[0]].join(" → ")}`).join("\n");
}

// npm test's static checks run it as a step of their own: `node --import tsx scripts/check-cycles.ts`.
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const cycles = await importCycles();
  if (cycles.length) {
    console.error(
      `${describeCycles(cycles)}\n\nMove what both files need into a third that both import (docs/development.md "Which way imports go").`,
    );
    process.exitCode = 1;
  } else {
    console.log("No import cycle among the product's files.");
  }
}
