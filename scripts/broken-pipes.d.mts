/** Drops what is written to stdout or stderr once its reader is gone (scripts/broken-pipes.mjs). */
export function ignoreBrokenPipes(): void;
