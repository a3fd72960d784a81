// Loaded only inside the Prisma CLI process (from the config files), never by the app.
// The WebAssembly schema engine leaves long ref'd timers behind, so `migrate dev`
// idles ~60 s after finishing (../shared/STACK.md, item 4). Unref-ing long timers
// lets the CLI exit as soon as its work is done.
import timers from "node:timers";

export function releaseIdleTimers(): void {
  const original = timers.setTimeout;
  const patched = (handler: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
    const timer = original(handler, ms, ...args);
    if (typeof ms === "number" && ms >= 10_000) timer.unref();
    return timer;
  };
  globalThis.setTimeout = Object.assign(patched, original) as unknown as typeof globalThis.setTimeout;
}
