// Operator CLI for API keys (README "Operator CLI"):
//   npm run keys -- create --team <slug> [--description "…"] [--json]
//   npm run keys -- delete <key-id>
//   npm run keys -- list --team <slug> [--json]
import { listApiKeys } from "../lib/api-keys/api-key-list";
import { createApiKey, deleteApiKey } from "../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { runCli, teamOfOption, UsageError } from "./cli";

const USAGE = `Usage:
  npm run keys -- create --team <slug> [--description "text"] [--json]
  npm run keys -- delete <key-id>
  npm run keys -- list --team <slug> [--json]`;

const teamId = async (slug: string | undefined) => (await teamOfOption(slug)).id;

const OPTIONS = {
  team: { type: "string" },
  description: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

runCli(USAGE, OPTIONS, async (command, rest, values) => {
  if (command === "create") {
    const key = await createApiKey({
      teamId: await teamId(values.team),
      description: values.description,
      actor: CLI_ACTOR,
      // Printing the secret is its one copy: the key is born copied.
      shownToOperator: true,
    });
    if (values.json) {
      console.log(JSON.stringify({ key_id: key.keyId, secret: key.secret }));
    } else {
      console.log(`API key:    ${key.keyId}\nAPI secret: ${key.secret}\nThe secret is shown once here; keep it on a server.`);
    }
    return;
  }
  if (command === "delete") {
    const [keyId] = rest;
    if (!keyId) throw new UsageError("delete needs a key id");
    if (!(await deleteApiKey({ keyId, actor: CLI_ACTOR }))) throw new UsageError(`No API key "${keyId}"`);
    console.log(values.json ? JSON.stringify({ deleted: keyId }) : `Deleted API key ${keyId}`);
    return;
  }
  if (command === "list") {
    // Secrets are never printed by list: only whether each was copied.
    const keys = (await listApiKeys(await teamId(values.team))).map((k) => ({
      key_id: k.keyId,
      description: k.description,
      generated: k.createdAt.toISOString(),
      copied: k.copied,
      last_used: k.lastUsedAt?.toISOString() ?? null,
    }));
    if (values.json) console.log(JSON.stringify(keys));
    else if (!keys.length) console.log("No API keys.");
    else console.table(keys);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});
