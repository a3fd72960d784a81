import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { breakdown, breakdownTable, type CpuProfile } from "./create-breakdown";
import { stageOf } from "./stage-of";

// The breakdown of `npm run bench` (issue 29): which stage a stack belongs to, and the sums
// over a window of a profile, per create.

const frame = (location: string, functionName = "f") => ({ location, functionName });

describe("stageOf: the innermost frame that belongs to a stage decides", () => {
  test("a package called from the rules is the rules; the driver called from the lead writer is the transaction", () => {
    const route = [frame("lib/intake/create-lead-request.ts"), frame("node_modules/next/dist/server/base-server.js")];
    assert.equal(
      stageOf([frame("node_modules/zod/v4/core/parse.js"), frame("lib/leads/parse-lead-input.ts"), ...route]),
      "Lead rules (zod, names, phones, website)",
    );
    const driver = [frame("node_modules/better-sqlite3/lib/methods/transaction.js"), frame("lib/db/sqlite-adapter.ts")];
    assert.equal(stageOf([...driver, frame("lib/leads/lead-writer-sqlite.ts"), ...route]), "Lead transaction (SQLite/PostgreSQL, routing)");
    assert.equal(stageOf([...driver, frame("lib/api-keys/key-lookup-store.ts"), ...route]), "Authentication (key lookup, secret check)");
  });

  test("the steps added after issue 29 are priced apart: spam checks, attribution, one-person matching, consent", () => {
    const route = [frame("lib/intake/store-lead.ts"), frame("lib/intake/create-lead-request.ts")];
    const writer = [frame("lib/leads/lead-columns.ts"), frame("lib/leads/lead-writer-sqlite.ts"), ...route];
    assert.equal(stageOf([frame("lib/spam/spam-verdict.ts"), frame("lib/spam/intake-spam.ts"), ...route]), "Spam checks");
    assert.equal(
      stageOf([frame("node:internal/url", "URL"), frame("lib/attribution/lead-attribution.ts"), ...writer]),
      "Attribution (first and last touch, channel groups)",
    );
    assert.equal(
      stageOf([frame("lib/leads/repeat-match.ts"), frame("lib/leads/lead-write.ts"), ...writer]),
      "One person, one lead (matching; its query is in the transaction)",
    );
    assert.equal(stageOf([frame("lib/consent/intake-consent.ts"), ...route]), "Consent (evidence, suppression, double opt-in)");
    // The lead's own columns, and the driver under the writer, stay the transaction's.
    assert.equal(stageOf(writer), "Lead transaction (SQLite/PostgreSQL, routing)");
  });

  test("Node's socket writes are Node's whoever called them; Next's own frames are Next", () => {
    const next = frame("node_modules/next/dist/server/send-response.js");
    assert.equal(stageOf([frame("", "writev"), frame("node:net"), next]), "Node HTTP: sockets, request parsing, response writing");
    assert.equal(stageOf([frame("node:internal/deps/undici/undici", "_Request"), next]), "Next: routing up to the handler, and back");
    assert.equal(stageOf([frame("node:internal/deps/undici/undici"), frame("lib/http/read-body.ts")]), "Body reading and parsing");
  });

  test("node-postgres's socket reads and writes are the PostgreSQL client's, whoever queried", () => {
    const read = [frame("node_modules/pg-protocol/dist/parser.js"), frame("node_modules/pg/lib/connection.js"), frame("node:net")];
    assert.equal(stageOf([frame("", "onStreamRead"), ...read.reverse()]), "PostgreSQL client: protocol and socket (every query's)");
    const write = [
      frame("", "writev"),
      frame("node:net"),
      frame("node_modules/pg/lib/client.js"),
      frame("lib/leads/lead-writer-postgres.ts"),
    ];
    assert.equal(stageOf(write), "PostgreSQL client: protocol and socket (every query's)");
  });

  test("V8's pseudo-frames, and promise jobs with nothing of ours above them", () => {
    assert.equal(stageOf([frame("", "(garbage collector)"), frame("", "(root)")]), "Garbage collection (main thread)");
    assert.equal(stageOf([frame("", "(program)")]), "V8 and native code with no JavaScript frame");
    assert.equal(
      stageOf([frame("", "runMicrotasks"), frame("node:internal/process/task_queues"), frame("", "(root)")]),
      "Promise and async-context machinery (no owner on the stack)",
    );
    assert.equal(stageOf([frame("node_modules/some-package/index.js"), frame("", "(root)")]), "Other");
  });
});

describe("breakdown: the samples inside the window, by stage, per create", () => {
  // (root) → handler (lib/http/read-body.ts) ; (root) → (garbage collector) ; (root) → (idle)
  const cf = (functionName: string, url = "") => ({ functionName, url, lineNumber: 0, columnNumber: 0 });
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: cf("(root)"), children: [2, 3, 4] },
      { id: 2, callFrame: cf("readBody", `file://${process.cwd()}/lib/http/read-body.ts`) },
      { id: 3, callFrame: cf("(garbage collector)") },
      { id: 4, callFrame: cf("(idle)") },
    ],
    // Samples every 100 µs from t = 1,000: body ×4, GC ×2, idle ×2, then body ×2 outside the window.
    samples: [2, 2, 2, 2, 3, 3, 4, 4, 2, 2],
    timeDeltas: [1_000, 100, 100, 100, 100, 100, 100, 100, 100, 100],
    startTime: 0,
    endTime: 2_000,
  };

  test("sums each stage's time inside the window, leaves idle out, and compares with the kernel's count", () => {
    const result = breakdown(profile, { fromMicros: 1_000, toMicros: 1_800 }, 2, { mainThreadMicros: 700, processMicros: 900 });
    const micros = Object.fromEntries(result.stages.filter((s) => s.micros > 0).map((s) => [s.stage, s.micros]));
    assert.deepEqual(micros, { "Body reading and parsing": 200, "Garbage collection (main thread)": 100 });
    assert.equal(result.profiledMicros, 300);
    assert.equal(result.mainThreadMicros, 350);
    assert.equal(result.otherThreadsMicros, 100);
    assert.equal(result.samples, 6);
    const table = breakdownTable(result);
    assert.match(table, /\| Main thread, counted by the kernel \| 350 \| the sum is 14\.3 % below it \(over 10 %/);
  });

  test("beside the limit row's breakdown, each stage's difference is what the app's own code costs", () => {
    const create = breakdown(profile, { fromMicros: 1_000, toMicros: 1_800 }, 2, { mainThreadMicros: 300, processMicros: 400 });
    const limit = breakdown(profile, { fromMicros: 1_000, toMicros: 1_800 }, 4, { mainThreadMicros: 150, processMicros: 200 });
    const table = breakdownTable(create, limit);
    assert.match(table, /\| Body reading and parsing \| 200 \| 66\.7 % \| 100 \| \+100 \|/);
    assert.match(table, /\| \*\*Server CPU per create, counted by the kernel\*\* \| \*\*200\*\* \| {2}\| 50 \| \+150 \|/);
  });
});
