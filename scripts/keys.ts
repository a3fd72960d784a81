// Operator CLI for API keys (README "Operator CLI"):
//   npm run keys -- create --team <slug> [--description "…"] [--repeats add|new] [--json]
//   npm run keys -- repeats <key-id> add|new [--json]
//   npm run keys -- delete <key-id>
//   npm run keys -- list --team <slug> [--json]
// --repeats: what a submission from a person who already has a lead does (docs/leads.md
// "Repeat submissions"): add joins their lead, new (a key's default) creates a lead.
import { listApiKeys } from "../lib/api-keys/api-key-list";
import { createApiKey, deleteApiKey, setApiKeyRepeats } from "../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { API_KEY_REPEATS_DEFAULT, parseRepeats, type Repeats } from "../lib/leads/repeats";
import { runCli, teamOfOption, UsageError } from "./cli";

const USAGE = `Usage:
  npm run keys -- create --team <slug> [--description "text"] [--repeats add|new] [--json]
  npm run keys -- repeats <key-id> add|new [--json]
  npm run keys -- delete <key-id>
  npm run keys -- list --team <slug> [--json]
--repeats, and repeats: when the person already has a lead, add joins the submission to it and new
creates a new lead (a new key's default: ${API_KEY_REPEATS_DEFAULT}).`;

/** add or new, as given; a usage error otherwise. */
function repeatsOf(value: string | undefined, what: string): Repeats {
  const repeats = parseRepeats(value);
  if (!repeats) throw new UsageError(`${what} must be add or new`);
  return repeats;
}

const teamId = async (slug: string | undefined) => (await teamOfOption(slug)).id;

const OPTIONS = {
  team: { type: "string" },
  description: { type: "string" },
  repeats: { type: "string" },
  json: { type: "boolean", default: false },
} as const;

runCli(USAGE, OPTIONS, async (command, rest, values) => {
  if (command === "create") {
    const repeats = values.repeats === undefined ? API_KEY_REPEATS_DEFAULT : repeatsOf(values.repeats, "--repeats");
    const key = await createApiKey({
      teamId: await teamId(values.team),
      description: values.description,
      actor: CLI_ACTOR,
      // Printing the secret is its one copy: the key is born copied.
      shownToOperator: true,
      repeats,
    });
    if (values.json) {
      console.log(JSON.stringify({ key_id: key.keyId, secret: key.secret, repeats }));
    } else {
      console.log(
        `API key:    ${key.keyId}\nAPI secret: ${key.secret}\nRepeats:    ${repeats}\nThe secret is shown once here; keep it on a server.`,
      );
    }
    return;
  }
  if (command === "repeats") {
    const [keyId, choice] = rest;
    if (!keyId || !choice) throw new UsageError("repeats needs a key id and add or new");
    const repeats = repeatsOf(choice, "repeats");
    if (!(await setApiKeyRepeats({ keyId, repeats, actor: CLI_ACTOR }))) throw new UsageError(`No API key "${keyId}"`);
    console.log(values.json ? JSON.stringify({ key_id: keyId, repeats }) : `API key ${keyId}: repeats ${repeats}`);
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
      repeats: k.repeats,
      last_used: k.lastUsedAt?.toISOString() ?? null,
    }));
    if (values.json) console.log(JSON.stringify(keys));
    else if (!keys.length) console.log("No API keys.");
    else console.table(keys);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});
