import { readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { build, type Loader, type Plugin } from "esbuild";

// npm test compiles the node:test files, and the TypeScript they import, to plain
// JavaScript with esbuild (the compiler tsx itself uses) before it runs them. Each test
// file runs in a process of its own, and under `node --import tsx` every module it loads
// goes through tsx's loader hooks, which Node 20 runs on a separate thread: about 0.7 s of
// CPU per database file before its first test, ≈ 345 files a run (docs/development.md,
// Tests, step 5). Compiled, a file loads its own code and a few shared chunks, no hooks.
// Packages stay external (Node loads them from node_modules as under tsx); each source
// file keeps its own import.meta (fixtures and docs are read relative to it).

const ROOT = path.resolve(import.meta.dirname, "..");

/** Where npm test writes the compiled files (inside node_modules: no tool checks them, and packages resolve from there). */
export const TEST_BUILD_DIR = path.join(ROOT, "node_modules", ".cache", "lead-intake-tests");

const COMPILED_EXTENSION = ".mjs";

/** The compiled file that runs a source test file (a path relative to the project). */
export function compiledTestFile(sourceFile: string, outDir = TEST_BUILD_DIR): string {
  return path.join(outDir, sourceFile.replace(/\.tsx?$/, COMPILED_EXTENSION));
}

/** The source test file, relative to the project, of a compiled file in `outDir` (other paths unchanged). */
export function sourceTestFile(file: string, outDir = TEST_BUILD_DIR): string {
  const relative = path.relative(outDir, path.resolve(ROOT, file));
  if (relative.startsWith("..") || path.isAbsolute(relative)) return file;
  return relative.replace(/\.mjs$/, ".ts");
}

const LOADERS: Record<string, Loader> = { ".ts": "ts", ".tsx": "tsx", ".js": "js", ".mjs": "js", ".jsx": "jsx" };

/** import.meta.url, .dirname and .filename of each project file as they are at its own path, not at its chunk's. */
const sourceImportMeta: Plugin = {
  name: "source-import-meta",
  setup(esbuild) {
    esbuild.onLoad({ filter: /\.(ts|tsx|js|mjs|jsx)$/ }, async (args) => {
      if (args.path.split(path.sep).includes("node_modules")) return undefined;
      const source = await readFile(args.path, "utf8");
      if (!source.includes("import.meta")) return undefined;
      const meta: Record<string, string> = {
        url: pathToFileURL(args.path).href,
        dirname: path.dirname(args.path),
        filename: args.path,
      };
      const contents = source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key: string) => JSON.stringify(meta[key]));
      return { contents, loader: LOADERS[path.extname(args.path)], resolveDir: path.dirname(args.path) };
    });
  },
};

/** A package's name and the subpath after it ("next/server" → "next", "/server"). */
function packageOf(specifier: string): { name: string; subpath: string } | null {
  const [, name, subpath = ""] = /^((?:@[^/]+\/)?[^/@][^/]*)(\/.*)?$/.exec(specifier) ?? [];
  return name ? { name, subpath } : null;
}

/**
 * The package imports Node's ES module loader would refuse where tsx resolves them as
 * require() does: a JSON file (bundled: Node 20 wants an import attribute for it) and a
 * subpath without its extension in a package with no "exports" map ("next/server";
 * kept external, at the file require() finds).
 */
const packageImports: Plugin = {
  name: "package-imports",
  setup(esbuild) {
    esbuild.onResolve({ filter: /^[^./]/ }, (args) => {
      const target = packageOf(args.path);
      if (!target || args.path.startsWith("node:")) return undefined;
      const requireHere = createRequire(path.join(args.resolveDir || ROOT, "index.js"));
      if (args.path.endsWith(".json")) return { path: requireHere.resolve(args.path) };
      if (!target.subpath || path.extname(target.subpath)) return undefined;
      let manifest: { exports?: unknown };
      try {
        manifest = requireHere(`${target.name}/package.json`) as { exports?: unknown };
      } catch {
        return undefined; // not a package (a tsconfig path) or its exports hide package.json
      }
      if (manifest.exports !== undefined) return undefined;
      return { path: requireHere.resolve(args.path), external: true };
    });
  },
};

/**
 * Compiles `files` (paths relative to the project) into `outDir`, emptied first: one entry
 * per test file at compiledTestFile(file), the modules they share in chunks.
 */
export async function buildTestFiles(files: string[], outDir = TEST_BUILD_DIR): Promise<void> {
  await rm(outDir, { recursive: true, force: true });
  await build({
    absWorkingDir: ROOT,
    entryPoints: files,
    outbase: ROOT,
    outdir: outDir,
    outExtension: { ".js": COMPILED_EXTENSION },
    entryNames: "[dir]/[name]",
    chunkNames: "chunks/[name]-[hash]",
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    jsx: "automatic",
    // Modules are hoisted into shared chunks, and a name two of them share is renamed:
    // keep each function's and class's `name` as written.
    keepNames: true,
    sourcemap: "linked",
    logLevel: "warning",
    plugins: [packageImports, sourceImportMeta],
  });
  // Node reads .mjs as ES modules; the marker keeps any other output so too.
  await writeFile(path.join(outDir, "package.json"), '{ "type": "module" }\n');
}
