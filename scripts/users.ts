// Operator CLI for user accounts (README "Operator CLI"):
//   npm run users -- end-sessions <email> [--json]
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { endAllSessions, findUserByEmail } from "../lib/users/user-store";
import { runCli, UsageError } from "./cli";

const USAGE = `Usage:
  npm run users -- end-sessions <email> [--json]   signs the user out everywhere (audited in each of their teams)`;

runCli(USAGE, { json: { type: "boolean", default: false } } as const, async (command, rest, values) => {
  if (command === "end-sessions") {
    const [email] = rest;
    if (!email) throw new UsageError("end-sessions needs an email");
    const user = await findUserByEmail(email);
    if (!user || !(await endAllSessions(user.id, { actor: CLI_ACTOR }))) throw new UsageError(`No user "${email}"`);
    console.log(values.json ? JSON.stringify({ sessions_ended: user.email }) : `Ended every session of ${user.email}`);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});
