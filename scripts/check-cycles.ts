import path from "node:path";
import madge from "madge";

// No import cycle between product files (docs/development.md "Which way imports go"), checked
// by madge's module graph of app/, components/, lib/ and scripts/. It replaced ESLint's
// import/no-cycle, which cost 70 % of the lint (57 of 81 s of CPU, measured with TIMING on
// the whole tree) for the same graph; madge builds it in about a fifth of that.
//
// As import/no-cycle did: tests are left out (nothing imports a test, so a cycle can only run
// through product files), and `import type` is no edge (it is erased: no cycle at run time).

const ROOT = path.resolve(import.meta.dirname, "..");

/** The product's folders, relative to `root`. */
export const PRODUCT_FOLDERS = ["app", "components", "lib", "scripts"];

const NOT_PRODUCT = [/\.test\.ts$/, /\.fixtures\.ts$/, /\.spec\.ts$/, /\.d\.m?ts$/, /(^|\/)lib\/generated\//, /(^|\/)node_modules\//];

/** Each import cycle among the files under `folders` (relative to `root`), as a list of paths relative to `root`. */
export async function importCycles(folders: string[] = PRODUCT_FOLDERS, root = ROOT): Promise<string[][]> {
  const graph = await madge(
    folders.map((folder) => path.join(root, folder)),
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
