// The shape shared by the operator CLIs (keys.ts, users.ts, connections.ts, …): parse the arguments, print
// the usage for --help or no command, and turn a UsageError into its message, the usage
// and exit code 2 (anything else: its message and exit code 1).
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

export function runCli<O extends Options>(
  usage: string,
  options: O,
  handle: (command: string, rest: string[], values: Values<O>) => Promise<void>,
): void {
  const main = async () => {
    const { values, positionals } = parseArgs({
      args: process.argv.slice(2),
      allowPositionals: true,
      options: { ...options, help: { type: "boolean", short: "h", default: false } },
    });
    const [command, ...rest] = positionals;
    if ((values as { help?: boolean }).help || !command) {
      console.log(usage);
      return;
    }
    await handle(command, rest, values as Values<O>);
  };
  main()
    .catch((error: unknown) => {
      console.error(error instanceof UsageError ? `${error.message}\n\n${usage}` : error instanceof Error ? error.message : error);
      process.exitCode = error instanceof UsageError ? 2 : 1;
    })
    .finally(() => db().$disconnect());
}
