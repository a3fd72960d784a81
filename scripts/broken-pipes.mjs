// @ts-check
// A reader of the app's logs that goes away (`npm start | tee app.log` with tee stopped, a log
// collector restarted) leaves stdout and stderr broken pipes. Unhandled, the first write's
// EPIPE became an uncaught exception that Next reported on stderr, which failed again: the
// server spun at 100 % CPU until it was killed (found 2026-12-03, when a bench's parent
// process was killed). With this, lines written to a broken pipe are dropped and the process
// goes on serving; any other stream error is still thrown. Used by scripts/serve.mjs and
// scripts/start.ts; e2e/sqlite/broken-log-pipe.test.ts checks it.

/** The errors of a stream whose reader is gone: the first write's, and every later write's. */
const READER_GONE = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);

/** Drops what is written to stdout or stderr once its reader is gone, instead of failing the process. */
export function ignoreBrokenPipes() {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error) => {
      if (!READER_GONE.has(String(/** @type {NodeJS.ErrnoException} */ (error).code))) throw error;
    });
  }
}
