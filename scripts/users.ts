// Operator CLI for user accounts (README "Operator CLI"):
//   npm run users -- end-sessions <email> [--json]
//   npm run users -- reset-password <email> [--json]
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { createPasswordReset } from "../lib/users/password-reset-changes";
import { endAllSessions } from "../lib/users/user-changes";
import { findUserByEmail } from "../lib/users/user-store";
import { runCli, UsageError } from "./cli";

const USAGE = `Usage:
  npm run users -- end-sessions <email> [--json]     signs the user out everywhere (audited in each of their teams)
  npm run users -- reset-password <email> [--json]   prints a one-time link (24 h) that sets a new password and signs the user out everywhere`;

runCli(USAGE, { json: { type: "boolean", default: false } } as const, async (command, rest, values) => {
  if (command === "end-sessions") {
    const [email] = rest;
    if (!email) throw new UsageError("end-sessions needs an email");
    const user = await findUserByEmail(email);
    if (!user || !(await endAllSessions(user.id, { actor: CLI_ACTOR }))) throw new UsageError(`No user "${email}"`);
    console.log(values.json ? JSON.stringify({ sessions_ended: user.email }) : `Ended every session of ${user.email}`);
    return;
  }
  if (command === "reset-password") {
    const [email] = rest;
    if (!email) throw new UsageError("reset-password needs an email");
    const reset = await createPasswordReset(email);
    if (!reset) throw new UsageError(`No user "${email}"`);
    // The public URL as npm start sets it (NEXTAUTH_URL, else localhost and PORT).
    const base = (process.env.NEXTAUTH_URL || `http://localhost:${process.env.PORT || 3000}`).replace(/\/+$/, "");
    const link = `${base}/reset/${reset.token}`;
    console.log(
      values.json
        ? JSON.stringify({ email: reset.email, link, expires_at: reset.expiresAt.toISOString() })
        : `One-time link for ${reset.email} (valid until ${reset.expiresAt.toISOString()}; hand it over privately):\n${link}`,
    );
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});
