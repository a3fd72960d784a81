import { readFile } from "node:fs/promises";
import path from "node:path";

// The attribution script as /api/widget/attribution.js serves it (docs/attribution.md "The
// attribution script"). Its source, attribution-script.js beside this file, is the readable
// copy with its comments; what a visitor's browser downloads is the same code without them
// and without indentation (about two thirds of the bytes, 2 KB gzipped instead of 3.3 KB).
// No minifier: the source is written so that whole lines are comments (never a comment
// after code, no line of a string or a regular expression starts with "//" or "/*"), and
// attribution-script.test.ts runs the served text.

export const ATTRIBUTION_SOURCE = path.join(process.cwd(), "lib", "attribution", "attribution-script.js");

const HEADER = "// Lead intake attribution script: docs/attribution.md. Readable source: lib/attribution/attribution-script.js\n";

/** The source without its comment lines, blank lines and indentation. */
export function compactScript(source: string): string {
  let inComment = false;
  const kept: string[] = [];
  for (const line of source.split("\n")) {
    const text = line.trim();
    if (inComment) inComment = !text.endsWith("*/");
    else if (text.startsWith("/*")) inComment = !text.endsWith("*/");
    else if (text !== "" && !text.startsWith("//")) kept.push(text);
  }
  return HEADER + kept.join("\n") + "\n";
}

export async function attributionScript(): Promise<string> {
  return compactScript(await readFile(ATTRIBUTION_SOURCE, "utf8"));
}
