import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";

// The periodic tasks' loop (lead retention, the New-lead reminder, waiting leads, the spam
// quarantine's retention): a run at once and every `everyMs` after, never two at a time in
// this process, each run's outcome logged by the task, a failure logged as `failedEvent`;
// the timer never keeps the process up.

/** Starts `run` on its schedule at `clock`'s time; returns the function that stops it. */
export function startSchedule<Run>(options: {
  everyMs: number;
  clock: () => Date;
  run: (now: Date) => Promise<Run>;
  /** Logs what a run did (when it did anything worth a line). */
  report: (run: Run) => void;
  failedEvent: string;
}): () => void {
  let running = false;
  const tick = async () => {
    if (running) return;
    running = true;
    try {
      options.report(await options.run(options.clock()));
    } catch (error) {
      log("error", options.failedEvent, summariseError(error));
    } finally {
      running = false;
    }
  };
  const timer = setInterval(tick, options.everyMs);
  timer.unref();
  void tick();
  return () => clearInterval(timer);
}
