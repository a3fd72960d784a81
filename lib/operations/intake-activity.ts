import { performance } from "node:perf_hooks";

// Whether the intake is serving requests right now, for background work that should give
// way to it (the outbox dispatcher, lib/jobs/dispatcher.ts; an import's batches). Route
// handlers and instrumentation are bundled apart, so the state lives on globalThis.

type Activity = { inFlight: number; lastEndedAt: number };
/** Cumulative busy and total time (ms) at the start of the current window, and the last window's share. */
type Window = { busy: number; total: number; at: number; utilization: number };
/** The lead writer's commit slots: since when all are taken (null: one is free), and the full time before that. */
type WriterSlots = { fullSince: number | null; fullMs: number };
const holder = globalThis as unknown as {
  leadIntakeActivity?: Activity;
  leadIntakeLoopWindow?: Window;
  leadIntakeWriterWindow?: Window;
  leadIntakeWriterSlots?: WriterSlots;
};
const activity = (): Activity => (holder.leadIntakeActivity ??= { inFlight: 0, lastEndedAt: -Infinity });
const writerSlots = (): WriterSlots => (holder.leadIntakeWriterSlots ??= { fullSince: null, fullMs: 0 });

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

/** The window the event loop's utilization is measured over. */
const LOAD_WINDOW_MS = 250;
/** Above this utilization the process has no headroom left: background work gives way. */
export const SATURATED = 0.8;

/**
 * The share of the last window of at least LOAD_WINDOW_MS (0–1) that was busy, measured when
 * asked: `measure` gives the cumulative busy and total time now, read only when a window ends.
 */
function windowedShare(
  key: "leadIntakeLoopWindow" | "leadIntakeWriterWindow",
  now: number,
  measure: () => { busy: number; total: number },
): number {
  const window = holder[key];
  if (!window) {
    holder[key] = { ...measure(), at: now, utilization: 0 };
    return 0;
  }
  if (now - window.at >= LOAD_WINDOW_MS) {
    const { busy, total } = measure();
    window.utilization = total > window.total ? Math.min(1, (busy - window.busy) / (total - window.total)) : 0;
    Object.assign(window, { busy, total, at: now });
  }
  return window.utilization;
}

/**
 * The event loop's utilization (0–1: the share of time it ran code rather than waited) over
 * the last window of at least LOAD_WINDOW_MS, measured when asked.
 */
export function eventLoopUtilization(now = performance.now()): number {
  return windowedShare("leadIntakeLoopWindow", now, () => {
    const { active, idle } = performance.eventLoopUtilization();
    return { busy: active, total: active + idle };
  });
}

/**
 * The lead writer (lib/leads/lead-writer.ts) reports each time all its commit slots are taken
 * (`full`) and each time one is free again.
 */
export function noteLeadWriterSlots(full: boolean, now = performance.now()): void {
  const slots = writerSlots();
  if (full && slots.fullSince === null) slots.fullSince = now;
  if (!full && slots.fullSince !== null) {
    slots.fullMs += now - slots.fullSince;
    slots.fullSince = null;
  }
}

/**
 * The share of the last window of at least LOAD_WINDOW_MS (0–1) during which every commit slot
 * of the lead writer was taken, measured when asked: near 1, the database bounds the intake
 * (PostgreSQL's commits, on a durable cluster a WAL flush each) while the event loop waits.
 */
export function leadWriterUtilization(now = performance.now()): number {
  return windowedShare("leadIntakeWriterWindow", now, () => {
    const slots = writerSlots();
    return { busy: slots.fullMs + (slots.fullSince === null ? 0 : now - slots.fullSince), total: now };
  });
}

/**
 * True while leads are arriving and the process has no headroom for more than them: the
 * dispatcher then keeps to its share. No headroom is the event loop busy, or the lead
 * writer's commits all under way (the database is the bound; a delivery's claim and outcome
 * are transactions on the same database). Leads arriving at a rate the process serves with
 * time to spare leave the deliveries at full speed, so they keep up with any load short of
 * saturation rather than trailing every busy minute.
 */
export function intakeNeedsTheProcess(now = performance.now()): boolean {
  return intakeBusy(now) && (eventLoopUtilization(now) >= SATURATED || leadWriterUtilization(now) >= SATURATED);
}
