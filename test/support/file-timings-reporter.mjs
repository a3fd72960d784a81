// A node:test reporter that writes, once the run ends, one JSON object: for each test file,
// the seconds it took (its top-level tests summed, or the wall-clock span between its first
// and last reported event when that is longer). npm test (scripts/test-timings.ts) reads it
// to list the slowest files. Plain JavaScript: node:test loads reporters before tsx.

/**
 * @param {AsyncIterable<{ type: string; data?: { file?: string; nesting?: number; details?: { duration_ms?: number } } }>} source
 */
export default async function* fileTimings(source) {
  /** @type {Map<string, { testSeconds: number; first: number; last: number }>} */
  const files = new Map();
  for await (const event of source) {
    const file = event.data?.file;
    if (!file) continue;
    const now = Date.now();
    const timing = files.get(file) ?? { testSeconds: 0, first: now, last: now };
    timing.last = now;
    if ((event.type === "test:pass" || event.type === "test:fail") && event.data?.nesting === 0) {
      timing.testSeconds += (event.data.details?.duration_ms ?? 0) / 1000;
    }
    files.set(file, timing);
  }
  const result = Object.fromEntries([...files].map(([file, t]) => [file, Math.max(t.testSeconds, (t.last - t.first) / 1000)]));
  yield `${JSON.stringify(result)}\n`;
}
