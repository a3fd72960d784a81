import { execFileSync } from "node:child_process";

/**
 * A TCP port that is free on 127.0.0.1 right now, asked of the OS (listen on port 0).
 * Synchronous because playwright.config.ts is evaluated synchronously; a child process
 * does the listening. Several test runs share these machines, so a fixed or random
 * port would collide.
 */
export function freePort(): number {
  const script =
    "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });";
  return Number(execFileSync(process.execPath, ["-e", script], { encoding: "utf8" }));
}
