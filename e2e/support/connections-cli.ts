import { cli } from "../../scripts/cli.fixtures";

/**
 * `npm run connections -- <args>` for a spec's setup, run in the worker's process
 * (scripts/connections.ts's own command line, parsing and output; the worker shares the
 * server's DATABASE_URL, DATA_DIR and NEXTAUTH_URL: playwright.config.ts). Its stdout; a
 * failure throws with its stderr. A process per command cost about a second of CPU each;
 * e2e/api/connections.spec.ts runs the CLI as a process, as an operator does.
 */
export async function connections(...args: string[]): Promise<string> {
  const run = await cli("connections", ...args);
  if (run.status !== 0) throw new Error(`npm run connections -- ${args.join(" ")} exited ${run.status}: ${run.stderr}`);
  return run.stdout;
}
