// Which stage of a create a profiled stack belongs to (scripts/bench/create-breakdown.ts).
// A stack is its frames' locations, leaf first: a source file of this repository (the .next
// bundle's frames mapped back through its source maps), a package, or one of Node's or V8's
// own. The innermost frame that belongs to a stage decides: zod called from the lead rules is
// "lead rules"; the WHATWG streams code that body reading calls is "body".

export const STAGES = [
  "Node HTTP: sockets, request parsing, response writing",
  "Next: routing up to the handler, and back",
  "Request context and error envelope",
  "Authentication (key lookup, secret check)",
  "Limits (per key, failed authentications)",
  "Idempotency",
  "Body reading and parsing",
  "Lead rules (zod, names, phones, website)",
  "Spam checks",
  "Attribution (first and last touch, channel groups)",
  "One person, one lead (matching; its query is in the transaction)",
  "Consent (evidence, suppression, double opt-in)",
  "Lead transaction (SQLite/PostgreSQL, routing)",
  "PostgreSQL client: protocol and socket (every query's)",
  "Request log and outbox (outside the transaction)",
  "Metrics",
  "Log lines",
  "Response (Response object, headers, JSON)",
  "Promise and async-context machinery (no owner on the stack)",
  "Garbage collection (main thread)",
  "V8 and native code with no JavaScript frame",
  "Other",
] as const;
export type Stage = (typeof STAGES)[number];

/** A frame's location: a repository path ("lib/http/read-body.ts"), "node_modules/<pkg>/…", "node:…", or a V8 pseudo-frame. */
export type Frame = { location: string; functionName: string };

const BY_REPOSITORY_PATH: [RegExp, Stage][] = [
  [/^lib\/http\/read-body\.ts$|^lib\/http\/multipart/, "Body reading and parsing"],
  [/^lib\/api-keys\//, "Authentication (key lookup, secret check)"],
  [/^lib\/rate-limit\//, "Limits (per key, failed authentications)"],
  [/^lib\/idempotency\//, "Idempotency"],
  [
    /^lib\/leads\/(parse-lead-input|lead-input-schema|name|phone|format-phone|website|extra-fields?|field-names?)\.ts$/,
    "Lead rules (zod, names, phones, website)",
  ],
  [/^lib\/leads\/create-lead\.ts$/, "Lead rules (zod, names, phones, website)"],
  // The steps the intake gained after issue 29 (issue 47: each priced per create).
  [/^lib\/spam\//, "Spam checks"],
  [/^lib\/attribution\//, "Attribution (first and last touch, channel groups)"],
  [/^lib\/leads\/(repeat-match|person-match|repeats)\.ts$/, "One person, one lead (matching; its query is in the transaction)"],
  [/^lib\/consent\//, "Consent (evidence, suppression, double opt-in)"],
  [/^lib\/leads\/(lead-writer|lead-write|lead-columns|new-lead|lead-id)/, "Lead transaction (SQLite/PostgreSQL, routing)"],
  [/^lib\/(routing|teams|workspace|notifications)\//, "Lead transaction (SQLite/PostgreSQL, routing)"],
  [/^lib\/(request-log|jobs|webhooks)\//, "Request log and outbox (outside the transaction)"],
  [/^lib\/operations\//, "Metrics"],
  [/^lib\/log\//, "Log lines"],
  [/^lib\/http\/(envelope|request-context|api-error)\.ts$/, "Request context and error envelope"],
  [/^lib\/intake\/create-lead-request\.ts$|^app\//, "Response (Response object, headers, JSON)"],
  [/^lib\/intake\/store-lead\.ts$/, "Request log and outbox (outside the transaction)"],
];

const BY_PACKAGE: Record<string, Stage> = {
  zod: "Lead rules (zod, names, phones, website)",
  "libphonenumber-js": "Lead rules (zod, names, phones, website)",
  "prom-client": "Metrics",
  "rate-limiter-flexible": "Limits (per key, failed authentications)",
  next: "Next: routing up to the handler, and back",
};

/** The package of a node_modules location ("@scope/name" or "name"), or null. */
export function packageOf(location: string): string | null {
  const at = location.lastIndexOf("node_modules/");
  if (at < 0) return null;
  const parts = location.slice(at + "node_modules/".length).split("/");
  return parts[0]!.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

/** The stage one frame belongs to, or null when it belongs to whoever called it (Node's internals, undici, streams). */
export function frameStage(frame: Frame): Stage | null {
  const pkg = packageOf(frame.location);
  if (pkg) return BY_PACKAGE[pkg] ?? null;
  for (const [pattern, stage] of BY_REPOSITORY_PATH) if (pattern.test(frame.location)) return stage;
  if (/^scripts\/serve\.mjs$/.test(frame.location)) return "Node HTTP: sockets, request parsing, response writing";
  return null;
}

const NODE_HTTP = /^node:(_http_|http$|net$|stream$|internal\/streams\/|internal\/http|internal\/stream_base|internal\/net)/;
const NATIVE_HTTP = new Set([
  "writev",
  "writeUtf8String",
  "writeLatin1String",
  "writeBuffer",
  "parse",
  "execute",
  "onStreamRead",
  "shutdown",
]);

const PG_CLIENT = new Set(["pg", "pg-protocol", "pg-pool"]);

/** The stage of one sample's stack (frames leaf first). */
export function stageOf(stack: readonly Frame[]): Stage {
  const leaf = stack[0];
  if (!leaf) return "Other";
  if (leaf.functionName === "(garbage collector)") return "Garbage collection (main thread)";
  if (leaf.functionName === "(program)") return "V8 and native code with no JavaScript frame";
  // node-postgres reads its socket in callbacks with no query's caller on the stack, and writes
  // through Node's sockets: all of it is the client's, whichever query it serves.
  if (stack.some((frame) => PG_CLIENT.has(packageOf(frame.location) ?? "")))
    return "PostgreSQL client: protocol and socket (every query's)";
  for (const frame of stack) {
    // Socket writes and Node's HTTP code count as Node's whoever called them (Next writes the response).
    if (NODE_HTTP.test(frame.location) || (frame.location === "" && NATIVE_HTTP.has(frame.functionName)))
      return "Node HTTP: sockets, request parsing, response writing";
    const stage = frameStage(frame);
    if (stage) return stage;
  }
  // No frame of ours or of a known package: promise jobs with nothing of ours above them.
  if (stack.every((frame) => frame.location.startsWith("node:") || frame.location === "" || frame.functionName === "(root)"))
    return "Promise and async-context machinery (no owner on the stack)";
  return "Other";
}
