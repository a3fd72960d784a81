import { readFile } from "node:fs/promises";
import path from "node:path";
import { attributionScript } from "../attribution/attribution-file";

// The ALTCHA widget, served by this app from the npm package (never from a CDN):
// - altcha.js: the widget with its styles and workers built in, for any website's page
//   (a cross-origin module script needs CORS, so it is served to every origin);
// - altcha-external.js, altcha.css, pbkdf2-worker.js and hosted-form.js: the build without
//   inline styles or blob workers, for this app's hosted form page, whose Content Security
//   Policy allows scripts, styles and workers from this origin only.
// And attribution.js, the attribution script for every page of a team's site and the hosted
// form page (lib/attribution/, docs/attribution.md): no part of ALTCHA, served here with it.

const PACKAGE = path.join(process.cwd(), "node_modules", "altcha", "dist");

const HOSTED_BOOTSTRAP = `import "/api/widget/altcha-external.js";
globalThis.$altcha.algorithms.set("PBKDF2/SHA-256", () => new Worker("/api/widget/pbkdf2-worker.js"));
`;

const FILES: Record<string, { type: string; load: () => Promise<string | Buffer> }> = {
  "altcha.js": { type: "text/javascript", load: () => readFile(path.join(PACKAGE, "main", "altcha.min.js")) },
  "altcha-external.js": { type: "text/javascript", load: () => readFile(path.join(PACKAGE, "external", "altcha.min.js")) },
  "altcha.css": { type: "text/css", load: () => readFile(path.join(PACKAGE, "external", "altcha.css")) },
  "pbkdf2-worker.js": { type: "text/javascript", load: () => readFile(path.join(PACKAGE, "workers", "pbkdf2.js")) },
  "hosted-form.js": { type: "text/javascript", load: async () => HOSTED_BOOTSTRAP },
  "attribution.js": { type: "text/javascript", load: attributionScript },
};

const cache = new Map<string, string | Buffer>();

/** The named widget file, or null when there is no such file. */
export async function widgetFile(name: string): Promise<{ body: string | Buffer; type: string } | null> {
  const file = Object.hasOwn(FILES, name) ? FILES[name]! : null;
  if (!file) return null;
  let body = cache.get(name);
  if (body === undefined) cache.set(name, (body = await file.load()));
  return { body, type: file.type };
}
