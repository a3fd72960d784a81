// The shape shared by the operator CLIs (keys.ts, users.ts, connections.ts, …): parse the arguments, print
// the usage for --help or no command, and turn a UsageError into its message, the usage
// and exit code 2 (anything else: its message and exit code 1).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { db } from "../lib/db/client";
import { parseSpamChecks } from "../lib/spam/spam-checks-setting";
import { findTeamBySlug } from "../lib/teams/team-store";

export class UsageError extends Error {}

/** The team of `--team <slug>`; a usage error when it is missing or names no team. */
export async function teamOfOption(slug: string | undefined): Promise<{ id: string; slug: string }> {
  if (!slug) throw new UsageError("--team <slug> is required");
  const team = await findTeamBySlug(slug);
  if (!team) throw new UsageError(`No team with slug "${slug}"`);
  return team;
}

/** A channel's spam checks as given, on or off (docs/spam.md "Per channel"); a usage error otherwise. */
export function spamChecksOf(value: string | undefined, what: string): boolean {
  const spamChecks = parseSpamChecks(value);
  if (spamChecks === null) throw new UsageError(`${what} must be on or off`);
  return spamChecks;
}

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true }>>["values"];

/** A CLI's command line run in this process: resolves to its exit code (2 for a usage error). */
export type Cli = (args: string[]) => Promise<number>;

/**
 * The CLI of `usage`, `options` and `handle`, not run: parses its arguments, prints the usage
 * for --help or no command, and turns a UsageError into its message, the usage and exit code
 * 2 (anything else: its message and exit code 1). Output goes through console.log/console.error.
 */
export function defineCli<O extends Options>(
  usage: string,
  options: O,
  handle: (command: string, rest: string[], values: Values<O>) => Promise<void>,
): Cli {
  return async (args) => {
    try {
      const { values, positionals } = parseArgs({
        args,
        allowPositionals: true,
        options: { ...options, help: { type: "boolean", short: "h", default: false } },
      });
      const [command, ...rest] = positionals;
      if ((values as { help?: boolean }).help || !command) {
        console.log(usage);
        return 0;
      }
      await handle(command, rest, values as Values<O>);
      return 0;
    } catch (error) {
      console.error(error instanceof UsageError ? `${error.message}\n\n${usage}` : error instanceof Error ? error.message : error);
      return error instanceof UsageError ? 2 : 1;
    }
  };
}

/** Runs `cli` on this process's command line, sets the exit code, then disconnects. */
function runArgv(cli: Cli): void {
  void cli(process.argv.slice(2))
    .then((code) => {
      if (code) process.exitCode = code;
    })
    .finally(() => db().$disconnect());
}

export function runCli<O extends Options>(
  usage: string,
  options: O,
  handle: (command: string, rest: string[], values: Values<O>) => Promise<void>,
): void {
  runArgv(defineCli(usage, options, handle));
}

/**
 * Runs `cli` on the command line when `moduleUrl` (the CLI's import.meta.url) is the file
 * node was started with; imported (by its tests, which run it in their own process), it
 * does nothing.
 */
export function runIfEntryPoint(cli: Cli, moduleUrl: string): void {
  const entry = process.argv[1];
  if (entry && path.resolve(entry) === fileURLToPath(moduleUrl)) runArgv(cli);
}
