import { authenticate } from "../../lib/api-keys/authenticate";
import { setKeyCacheCapacity } from "../../lib/api-keys/key-cache";
import { intakeConsent } from "../../lib/consent/intake-consent";
import type { QueryResult } from "./lead-queries";

// Issue 47's in-process A/Bs: one call of the app's code with a saving on and off, in
// alternating rounds of the same length so that drift and a shared machine's noise fall on
// both sides alike. Each side gives calls per second (one caller, awaited one after
// another), p50/p99 and the process's CPU time per call (user + system), the steadier figure.
// - the key cache: authenticate() of one valid key, the per-process key cache on (the app's
//   default) and off;
// - the suppression list's lookup: the intake's consent step for a submission with an email
//   address, to a team whose list never had an entry (Team.suppressionListUsed false: no
//   lookup) and the same call told the list was used (the lookup every such submission made
//   before).

export type AbSide = QueryResult & { cpuMicros: number };

const ROUNDS = 10;

async function round(call: () => Promise<unknown>, ms: number, times: number[]): Promise<{ calls: number; cpu: number; elapsed: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const end = start + ms;
  let calls = 0;
  while (performance.now() < end) {
    const t = performance.now();
    await call();
    times.push(performance.now() - t);
    calls++;
  }
  const used = process.cpuUsage(cpu);
  return { calls, cpu: used.user + used.system, elapsed: performance.now() - start };
}

function side(times: number[], calls: number, cpu: number, elapsedMs: number): AbSide {
  times.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 1000) / 1000;
  return { opsPerSec: calls / (elapsedMs / 1000), p50: pct(50), p99: pct(99), calls, errors: 0, cpuMicros: cpu / calls };
}

/** One side of an A/B: `enter` (optional) runs once at the start of each of its rounds, `call` in a loop. */
type Side = { enter?: () => void; call: () => Promise<unknown> };

/** `on` and `off` taken in turn, `seconds` in all per side after `warmupSeconds` of each. */
async function alternate(on: Side, off: Side, seconds: number, warmupSeconds: number): Promise<{ on: AbSide; off: AbSide }> {
  const totals = {
    on: { calls: 0, cpu: 0, elapsed: 0, times: [] as number[] },
    off: { calls: 0, cpu: 0, elapsed: 0, times: [] as number[] },
  };
  const roundOf = (side: Side, ms: number, times: number[]) => {
    side.enter?.();
    return round(side.call, ms, times);
  };
  await roundOf(off, warmupSeconds * 1000, []);
  await roundOf(on, warmupSeconds * 1000, []);
  for (let i = 0; i < ROUNDS * 2; i++) {
    const isOn = i % 2 === 1;
    const total = isOn ? totals.on : totals.off;
    const measured = await roundOf(isOn ? on : off, (seconds * 1000) / ROUNDS, total.times);
    total.calls += measured.calls;
    total.cpu += measured.cpu;
    total.elapsed += measured.elapsed;
  }
  return {
    on: side(totals.on.times, totals.on.calls, totals.on.cpu, totals.on.elapsed),
    off: side(totals.off.times, totals.off.calls, totals.off.cpu, totals.off.elapsed),
  };
}

/** authenticate() of `key` with the cache on and off. */
export async function measureKeyCache(
  key: { keyId: string; secret: string },
  seconds: number,
  warmupSeconds: number,
): Promise<{ cached: AbSide; uncached: AbSide }> {
  const headers = new Headers({ "X-API-Key": key.keyId, "X-API-Secret": key.secret });
  const context = { requestId: "bench-key-cache", ip: "127.0.0.1" };
  // The capacity is set once per round: setting it empties the cache.
  const call = () => authenticate(headers, context);
  try {
    const { on, off } = await alternate(
      { enter: () => setKeyCacheCapacity(), call },
      { enter: () => setKeyCacheCapacity(0), call },
      seconds,
      warmupSeconds,
    );
    return { cached: on, uncached: off };
  } finally {
    setKeyCacheCapacity();
  }
}

/** The intake's consent step for a submission with an address, the list's lookup skipped (the team's list never used) and made. */
export async function measureSuppressionLookup(
  teamId: string,
  seconds: number,
  warmupSeconds: number,
): Promise<{ skipped: AbSide; looked: AbSide }> {
  const call = (suppressionListUsed: boolean) => () =>
    intakeConsent({
      team: { id: teamId, suppressionListUsed },
      channel: "api",
      formId: null,
      asked: null,
      extraFields: {},
      email: "ada.lovelace@example.com",
      context: { requestId: "bench-suppression", ip: "127.0.0.1" },
      receivedAt: new Date(),
    });
  const { on, off } = await alternate({ call: call(false) }, { call: call(true) }, seconds, warmupSeconds);
  return { skipped: on, looked: off };
}
