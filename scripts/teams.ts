// Operator CLI for teams (README "Operator CLI"):
//   npm run teams -- create --name "…" --owner <email> [--json]
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { createOwnedTeam, TEAM_NAME_MAX } from "../lib/teams/team-changes";
import { findUserByEmail } from "../lib/users/user-store";
import { runCli, UsageError } from "./cli";

const USAGE = `Usage:
  npm run teams -- create --name "Team name" --owner <email> [--json]   the owner must have an account; the team gets the API source`;

const OPTIONS = {
  name: { type: "string" },
  owner: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

runCli(USAGE, OPTIONS, async (command, _rest, values) => {
  if (command === "create") {
    const name = values.name?.trim();
    if (!name || name.length > TEAM_NAME_MAX) throw new UsageError(`--name needs 1 to ${TEAM_NAME_MAX} characters`);
    if (!values.owner) throw new UsageError("--owner <email> is required");
    const owner = await findUserByEmail(values.owner);
    if (!owner)
      throw new UsageError(`No user "${values.owner}" (they need an account first: invite them to a team, or use the demo admin)`);
    const team = await createOwnedTeam({ name, ownerUserId: owner.id, actor: CLI_ACTOR });
    console.log(
      values.json
        ? JSON.stringify({ slug: team.slug, name: team.name, owner: owner.email })
        : `Created team "${team.name}" (/t/${team.slug}), owned by ${owner.email}`,
    );
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});
