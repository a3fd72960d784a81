// Operator CLI for API keys (README "Operator CLI"):
//   npm run keys -- create --team <slug> [--description "…"] [--repeats add|new] [--spam-checks on|off] [--json]
//   npm run keys -- repeats <key-id> add|new [--json]
//   npm run keys -- spam-checks <key-id> on|off [--json]
//   npm run keys -- delete <key-id>
//   npm run keys -- list --team <slug> [--json]
// --repeats: what a submission from a person who already has a lead does (docs/leads.md
// "Repeat submissions"): add joins their lead, new (a key's default) creates a lead.
// --spam-checks: whether the spam checks run on the key's submissions (docs/spam.md "Per
// channel"); off by default, as a server posting the API often filters already.
import { listApiKeys } from "../lib/api-keys/api-key-list";
import { createApiKey, deleteApiKey, setApiKeyRepeats, setApiKeySpamChecks } from "../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { API_KEY_REPEATS_DEFAULT, parseRepeats, type Repeats } from "../lib/leads/repeats";
import { API_KEY_SPAM_CHECKS_DEFAULT, spamChecksWord } from "../lib/spam/spam-checks-setting";
import { defineCli, runIfEntryPoint, spamChecksOf, teamOfOption, UsageError } from "./cli";

const USAGE = `Usage:
  npm run keys -- create --team <slug> [--description "text"] [--repeats add|new] [--spam-checks on|off] [--json]
  npm run keys -- repeats <key-id> add|new [--json]
  npm run keys -- spam-checks <key-id> on|off [--json]
  npm run keys -- delete <key-id>
  npm run keys -- list --team <slug> [--json]
--repeats, and repeats: when the person already has a lead, add joins the submission to it and new
creates a new lead (a new key's default: ${API_KEY_REPEATS_DEFAULT}).
--spam-checks, and spam-checks: whether the spam checks run on the key's submissions (a new key's
default: ${spamChecksWord(API_KEY_SPAM_CHECKS_DEFAULT)}; a server posting the API often filters already).`;

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
  "spam-checks": { type: "string" },
  json: { type: "boolean", default: false },
} as const;

/** The CLI, for its tests to run in their own process (scripts/cli.fixtures.ts). */
export const keysCli = defineCli(USAGE, OPTIONS, async (command, rest, values) => {
  if (command === "create") {
    const repeats = values.repeats === undefined ? API_KEY_REPEATS_DEFAULT : repeatsOf(values.repeats, "--repeats");
    const spamChecks =
      values["spam-checks"] === undefined ? API_KEY_SPAM_CHECKS_DEFAULT : spamChecksOf(values["spam-checks"], "--spam-checks");
    const key = await createApiKey({
      teamId: await teamId(values.team),
      description: values.description,
      actor: CLI_ACTOR,
      // Printing the secret is its one copy: the key is born copied.
      shownToOperator: true,
      repeats,
      spamChecks,
    });
    const checks = spamChecksWord(spamChecks);
    if (values.json) {
      console.log(JSON.stringify({ key_id: key.keyId, secret: key.secret, repeats, spam_checks: checks }));
    } else {
      console.log(
        `API key:     ${key.keyId}\nAPI secret:  ${key.secret}\nRepeats:     ${repeats}\nSpam checks: ${checks}\nThe secret is shown once here; keep it on a server.`,
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
  if (command === "spam-checks") {
    const [keyId, choice] = rest;
    if (!keyId || !choice) throw new UsageError("spam-checks needs a key id and on or off");
    const spamChecks = spamChecksOf(choice, "spam-checks");
    if (!(await setApiKeySpamChecks({ keyId, spamChecks, actor: CLI_ACTOR }))) throw new UsageError(`No API key "${keyId}"`);
    const checks = spamChecksWord(spamChecks);
    console.log(values.json ? JSON.stringify({ key_id: keyId, spam_checks: checks }) : `API key ${keyId}: spam checks ${checks}`);
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
      spam_checks: spamChecksWord(k.spamChecks),
      last_used: k.lastUsedAt?.toISOString() ?? null,
    }));
    if (values.json) console.log(JSON.stringify(keys));
    else if (!keys.length) console.log("No API keys.");
    else console.table(keys);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});

runIfEntryPoint(keysCli, import.meta.url);
