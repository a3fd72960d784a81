// Operator CLI for form-builder connections (docs/connections.md "CLI"):
//   npm run connections -- create --team <slug> --builder <id> [--name "…"] [--signing-secret <s>] [--repeats add|new] [--spam-checks on|off] [--json]
//     (<id>: tally, typeform, jotform, webflow, framer, wpforms, gravityforms, elementor, fillout, googleforms, generic)
//     (--signing-secret for webflow: the secret Webflow gave for its webhook; or later, on the connection's page;
//      for generic: an optional secret every delivery then sends in X-Connection-Secret)
//   npm run connections -- list --team <slug> [--json]
//   npm run connections -- repeats <connection-id> add|new --team <slug> [--json]
//     (what a submission from a person who already has a lead does, docs/leads.md "Repeat submissions":
//      add, a new connection's default, joins their lead; new creates a lead)
//   npm run connections -- spam-checks <connection-id> on|off --team <slug> [--json]
//     (whether the spam checks run on its submissions, docs/spam.md "Per channel": on by default)
//   npm run connections -- roll <connection-id> --team <slug> [--keep-old-minutes N] [--json]
//   npm run connections -- delete <connection-id> --team <slug>
// The URL (and a signing secret) is printed once, by create and roll: only digests and
// sealed secrets are stored.
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { BUILDER_IDS, isBuilderId, secretSetByTeam } from "../lib/connections/builders";
import {
  createConnection,
  deleteConnection,
  rollConnectionUrl,
  secretProblem,
  setConnectionRepeats,
  setConnectionSpamChecks,
} from "../lib/connections/connection-changes";
import { listConnections } from "../lib/connections/connection-store";
import { env } from "../lib/env";
import { CHANNEL_REPEATS_DEFAULT, parseRepeats, type Repeats } from "../lib/leads/repeats";
import { CHANNEL_SPAM_CHECKS_DEFAULT, spamChecksWord } from "../lib/spam/spam-checks-setting";
import { defineCli, runIfEntryPoint, spamChecksOf, teamOfOption, UsageError } from "./cli";

const USAGE = `Usage:
  npm run connections -- create --team <slug> --builder <${BUILDER_IDS.join("|")}> [--name "text"] [--signing-secret <secret>] [--repeats add|new] [--spam-checks on|off] [--json]
  npm run connections -- repeats <connection-id> add|new --team <slug> [--json]
  npm run connections -- spam-checks <connection-id> on|off --team <slug> [--json]
  npm run connections -- list --team <slug> [--json]
  npm run connections -- roll <connection-id> --team <slug> [--keep-old-minutes N] [--json]
  npm run connections -- delete <connection-id> --team <slug>
--signing-secret for webflow: the secret Webflow gave when its webhook was created (or set it later on the
connection's page; until then its deliveries are refused); for generic: an optional secret of at least 16
characters that every delivery then sends in the X-Connection-Secret header.
--repeats, and repeats: when the person already has a lead, add joins the submission to it and new
creates a new lead (a new connection's default: ${CHANNEL_REPEATS_DEFAULT}).
--spam-checks, and spam-checks: whether the spam checks run on the connection's submissions (a new
connection's default: ${spamChecksWord(CHANNEL_SPAM_CHECKS_DEFAULT)}).`;

/** add or new, as given; a usage error otherwise. */
function repeatsOf(value: string | undefined, what: string): Repeats {
  const repeats = parseRepeats(value);
  if (!repeats) throw new UsageError(`${what} must be add or new`);
  return repeats;
}

const teamId = async (slug: string | undefined) => (await teamOfOption(slug)).id;

/** The URL to paste into the builder: this deployment's NEXTAUTH_URL (npm start sets it), else localhost. */
const fullUrl = (path: string) => `${(env().NEXTAUTH_URL ?? `http://localhost:${process.env.PORT ?? 3000}`).replace(/\/+$/, "")}${path}`;

const OPTIONS = {
  team: { type: "string" },
  builder: { type: "string" },
  name: { type: "string" },
  "signing-secret": { type: "string" },
  "keep-old-minutes": { type: "string" },
  repeats: { type: "string" },
  "spam-checks": { type: "string" },
  json: { type: "boolean", default: false },
} as const;

/** The CLI, for its tests to run in their own process (scripts/cli.fixtures.ts). */
export const connectionsCli = defineCli(USAGE, OPTIONS, async (command, rest, values) => {
  if (command === "create") {
    if (!isBuilderId(values.builder)) throw new UsageError(`--builder must be one of: ${BUILDER_IDS.join(", ")}`);
    const given = values["signing-secret"];
    if (given !== undefined) {
      if (!secretSetByTeam(values.builder))
        throw new UsageError(`--signing-secret is for webflow and generic; ${values.builder}'s is generated`);
      const problem = secretProblem(values.builder, given);
      if (problem) throw new UsageError(`--signing-secret: ${problem}`);
    }
    const repeats = values.repeats === undefined ? CHANNEL_REPEATS_DEFAULT : repeatsOf(values.repeats, "--repeats");
    const spamChecks =
      values["spam-checks"] === undefined ? CHANNEL_SPAM_CHECKS_DEFAULT : spamChecksOf(values["spam-checks"], "--spam-checks");
    const created = await createConnection({
      teamId: await teamId(values.team),
      builder: values.builder,
      name: values.name,
      signingSecret: values["signing-secret"],
      repeats,
      spamChecks,
      createdById: null,
      actor: CLI_ACTOR,
    });
    const url = fullUrl(created.path);
    const checks = spamChecksWord(spamChecks);
    if (values.json)
      console.log(JSON.stringify({ id: created.id, url, signing_secret: created.signingSecret, repeats, spam_checks: checks }));
    else {
      console.log(`Connection:  ${created.id}\nURL:         ${url}\nRepeats:     ${repeats}\nSpam checks: ${checks}`);
      if (created.signingSecret) console.log(`Signing secret: ${created.signingSecret}`);
      console.log("The URL and the secret are shown once here; paste them into the form builder.");
    }
    return;
  }
  if (command === "list") {
    const rows = (await listConnections(await teamId(values.team))).map((c) => ({
      id: c.id,
      builder: c.builder,
      name: c.name,
      url: fullUrl(`/api/connections/c_…${c.tokenHint}`),
      enabled: c.enabled,
      repeats: c.repeats,
      spam_checks: spamChecksWord(c.spamChecks),
      created: c.createdAt.toISOString(),
    }));
    if (values.json) console.log(JSON.stringify(rows));
    else if (!rows.length) console.log("No connections.");
    else console.table(rows);
    return;
  }
  if (command === "repeats") {
    const [id, choice] = rest;
    if (!id || !choice) throw new UsageError("repeats needs a connection id and add or new");
    const repeats = repeatsOf(choice, "repeats");
    if (!(await setConnectionRepeats({ teamId: await teamId(values.team), id, repeats, actor: CLI_ACTOR })))
      throw new UsageError(`No connection "${id}" in that team`);
    console.log(values.json ? JSON.stringify({ id, repeats }) : `Connection ${id}: repeats ${repeats}`);
    return;
  }
  if (command === "spam-checks") {
    const [id, choice] = rest;
    if (!id || !choice) throw new UsageError("spam-checks needs a connection id and on or off");
    const spamChecks = spamChecksOf(choice, "spam-checks");
    if (!(await setConnectionSpamChecks({ teamId: await teamId(values.team), id, spamChecks, actor: CLI_ACTOR })))
      throw new UsageError(`No connection "${id}" in that team`);
    const checks = spamChecksWord(spamChecks);
    console.log(values.json ? JSON.stringify({ id, spam_checks: checks }) : `Connection ${id}: spam checks ${checks}`);
    return;
  }
  if (command === "roll") {
    const [id] = rest;
    if (!id) throw new UsageError("roll needs a connection id");
    const minutes = Number(values["keep-old-minutes"] ?? 0);
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > 7 * 24 * 60) throw new UsageError("--keep-old-minutes must be 0 to 10080");
    const oldWorksUntil = new Date(Date.now() + minutes * 60_000);
    const rolled = await rollConnectionUrl({ teamId: await teamId(values.team), id, oldWorksUntil, actor: CLI_ACTOR });
    if (!rolled) throw new UsageError(`No connection "${id}" in that team`);
    const url = fullUrl(rolled.path);
    const until = rolled.oldWorksUntil?.toISOString() ?? null;
    if (values.json) console.log(JSON.stringify({ id, url, old_url_works_until: until }));
    else console.log(`New URL: ${url}\n${until ? `The old URL works until ${until}.` : "The old URL is refused from now on."}`);
    return;
  }
  if (command === "delete") {
    const [id] = rest;
    if (!id) throw new UsageError("delete needs a connection id");
    if (!(await deleteConnection({ teamId: await teamId(values.team), id, actor: CLI_ACTOR })))
      throw new UsageError(`No connection "${id}" in that team`);
    console.log(values.json ? JSON.stringify({ deleted: id }) : `Deleted connection ${id}`);
    return;
  }
  throw new UsageError(`Unknown command "${command}"`);
});

runIfEntryPoint(connectionsCli, import.meta.url);
