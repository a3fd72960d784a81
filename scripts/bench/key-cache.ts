import { authenticate } from "../../lib/api-keys/authenticate";
import { setKeyCacheCapacity } from "../../lib/api-keys/key-cache";
import type { QueryResult } from "./lead-queries";

// Issue 47's key cache, A/B in one process: authenticate() of one valid key with the
// per-process key cache on (the app's default) and off, in alternating rounds of the same
// length so that drift and a shared machine's noise fall on both sides alike. Each side
// gives calls per second (one caller, awaited one after another), p50/p99 and the process's
// CPU time per call (user + system), the steadier figure.

export type KeyCacheSide = QueryResult & { cpuMicros: number };

const ROUNDS = 10;

async function round(headers: Headers, ms: number, times: number[]): Promise<{ calls: number; cpu: number; elapsed: number }> {
  const context = { requestId: "bench-key-cache", ip: "127.0.0.1" };
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let calls = 0;
  while (performance.now() < end) {
    const t = performance.now();
    await authenticate(headers, context);
    times.push(performance.now() - t);
    calls++;
  }
  const used = process.cpuUsage(cpu);
  return { calls, cpu: used.user + used.system, elapsed: performance.now() - start };
}

function side(times: number[], calls: number, cpu: number, elapsedMs: number): KeyCacheSide {
  times.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 1000) / 1000;
  return { opsPerSec: calls / (elapsedMs / 1000), p50: pct(50), p99: pct(99), calls, errors: 0, cpuMicros: cpu / calls };
}

/** authenticate() of `key` with the cache on and off, `seconds` in all per side after `warmupSeconds` of each. */
export async function measureKeyCache(
  key: { keyId: string; secret: string },
  seconds: number,
  warmupSeconds: number,
): Promise<{ cached: KeyCacheSide; uncached: KeyCacheSide }> {
  const headers = new Headers({ "X-API-Key": key.keyId, "X-API-Secret": key.secret });
  const totals = {
    on: { calls: 0, cpu: 0, elapsed: 0, times: [] as number[] },
    off: { calls: 0, cpu: 0, elapsed: 0, times: [] as number[] },
  };
  try {
    for (const capacity of [0, undefined]) {
      setKeyCacheCapacity(capacity);
      await round(headers, warmupSeconds * 1000, []);
    }
    for (let i = 0; i < ROUNDS * 2; i++) {
      const on = i % 2 === 1;
      setKeyCacheCapacity(on ? undefined : 0);
      const total = on ? totals.on : totals.off;
      const measured = await round(headers, (seconds * 1000) / ROUNDS, total.times);
      total.calls += measured.calls;
      total.cpu += measured.cpu;
      total.elapsed += measured.elapsed;
    }
  } finally {
    setKeyCacheCapacity();
  }
  return {
    cached: side(totals.on.times, totals.on.calls, totals.on.cpu, totals.on.elapsed),
    uncached: side(totals.off.times, totals.off.calls, totals.off.cpu, totals.off.elapsed),
  };
}
