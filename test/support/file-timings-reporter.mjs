// A node:test reporter that writes, once the run ends, one JSON object: for each test file,
// the seconds its top-level tests and suites took, summed (hooks at the top of a file are
// not in it). npm test (scripts/test-timings.ts) reads it to list the slowest files. Plain
// JavaScript: node:test loads reporters before tsx. (The wall-clock span between a file's
// events is no measure: Node 20 reports the events of concurrent files in batches.)

/**
 * @param {AsyncIterable<{ type: string; data?: { file?: string; nesting?: number; details?: { duration_ms?: number } } }>} source
 */
export default async function* fileTimings(source) {
  /** @type {Record<string, number>} */
  const seconds = {};
  for await (const event of source) {
    const file = event.data?.file;
    if (!file || event.data?.nesting !== 0) continue;
    if (event.type !== "test:pass" && event.type !== "test:fail") continue;
    seconds[file] = (seconds[file] ?? 0) + (event.data.details?.duration_ms ?? 0) / 1000;
  }
  yield `${JSON.stringify(seconds)}\n`;
}
