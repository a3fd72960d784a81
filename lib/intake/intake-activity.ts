// Whether the intake is serving requests right now, for background work that should give
// way to it (the outbox dispatcher, lib/jobs/dispatcher.ts). Route handlers and
// instrumentation are bundled apart, so the counter lives on globalThis.

type Activity = { inFlight: number; lastEndedAt: number };
const holder = globalThis as unknown as { leadIntakeActivity?: Activity };
const activity = (): Activity => (holder.leadIntakeActivity ??= { inFlight: 0, lastEndedAt: -Infinity });

/** A request that ended this recently still counts: the next one of a burst is on its way. */
const QUIET_AFTER_MS = 100;

/** Counts an intake request from its start to its answer. */
export async function trackIntake<T>(work: () => Promise<T>): Promise<T> {
  const state = activity();
  state.inFlight++;
  try {
    return await work();
  } finally {
    state.inFlight--;
    state.lastEndedAt = performance.now();
  }
}

/** True while an intake request is running or ended less than QUIET_AFTER_MS ago. */
export function intakeBusy(now = performance.now()): boolean {
  const state = activity();
  return state.inFlight > 0 || now - state.lastEndedAt < QUIET_AFTER_MS;
}
