import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import GithubSlugger from "github-slugger";
import { Lexer, type Token, type Tokens } from "marked";

// Checks the relative links of the project's Markdown (README.md, docs/*.md): every link
// or image to a file names a file that exists inside the repository, and every #anchor
// names a heading of the target file (GitHub's slugs, github-slugger) or an explicit id.
// Absolute URLs (http:, https:, mailto:) are not fetched.

export type BrokenLink = { file: string; href: string; problem: string };

const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

/** Flattens a token's inline children to the text GitHub slugs (code spans keep their text). */
function plainText(tokens: Token[] | undefined, fallback: string): string {
  if (!tokens) return fallback;
  return tokens
    .map((token) => ("tokens" in token && token.tokens ? plainText(token.tokens, "") : "text" in token ? String(token.text) : ""))
    .join("");
}

/** The anchors a Markdown text defines: its headings' slugs and any id="…"/name="…" attributes. */
export function anchorsOf(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  const tokens = Lexer.lex(markdown);
  for (const token of tokens) {
    if (token.type === "heading") anchors.add(slugger.slug(plainText((token as Tokens.Heading).tokens, (token as Tokens.Heading).text)));
  }
  for (const [, id] of markdown.matchAll(/\b(?:id|name)="([^"]+)"/g)) if (id) anchors.add(id);
  return anchors;
}

/** Every link and image target of a Markdown text, outside code blocks and code spans. */
export function linksOf(markdown: string): string[] {
  const hrefs: string[] = [];
  const visit = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === "link" || token.type === "image") hrefs.push((token as Tokens.Link).href);
      if (token.type === "html") for (const [, href] of token.raw.matchAll(/\b(?:href|src)="([^"]+)"/g)) if (href) hrefs.push(href);
      if ("tokens" in token && token.tokens) visit(token.tokens);
      if (token.type === "list") for (const item of (token as Tokens.List).items) visit(item.tokens);
      if (token.type === "table") {
        const table = token as Tokens.Table;
        for (const cell of [...table.header, ...table.rows.flat()]) visit(cell.tokens);
      }
    }
  };
  visit(Lexer.lex(markdown));
  return hrefs;
}

/** The broken relative links of one Markdown file of the repository at `root`. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const source = readFileSync(path.join(root, file), "utf8");
  const broken: BrokenLink[] = [];
  for (const href of linksOf(source)) {
    if (EXTERNAL.test(href)) continue;
    const hash = href.indexOf("#");
    const target = decodeURIComponent(hash < 0 ? href : href.slice(0, hash));
    const anchor = hash < 0 ? undefined : href.slice(hash + 1);
    const targetFile = target === "" ? file : path.normalize(path.join(path.dirname(file), target));
    if (targetFile.startsWith("..") || path.isAbsolute(targetFile)) {
      broken.push({ file, href, problem: "points outside the repository" });
      continue;
    }
    const absolute = path.join(root, targetFile);
    if (!existsSync(absolute)) {
      broken.push({ file, href, problem: `${targetFile} does not exist` });
      continue;
    }
    if (anchor === undefined) continue;
    if (statSync(absolute).isDirectory() || !targetFile.endsWith(".md")) {
      broken.push({ file, href, problem: `#${anchor} on ${targetFile}, which is not a Markdown file` });
      continue;
    }
    if (!anchorsOf(readFileSync(absolute, "utf8")).has(anchor)) {
      broken.push({ file, href, problem: `${targetFile} has no heading or id "${anchor}"` });
    }
  }
  return broken;
}
