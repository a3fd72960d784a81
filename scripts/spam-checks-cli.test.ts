import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../test/support/test-database";
import { listAuditEvents } from "../lib/audit/audit-log";
import { db } from "../lib/db/client";
import { createTeam } from "../lib/teams/team-store";
import { cli, json, spawnCli } from "./cli.fixtures";

// The keys and connections CLIs' spam checks (issue 42; docs/spam.md "Per channel"), run as an
// operator would, on this test's database: --spam-checks on create (and each channel's default
// without it), the spam-checks command, audited, list and --json showing it, and a value that
// is neither on nor off refused.
await useTestDatabase();
const auditOf = async (teamId: string, action: string) =>
  (await listAuditEvents(teamId)).filter((e) => e.action === action).map((e) => [e.targetId, e.via, e.details]);

test("keys: create is off by default and takes --spam-checks; spam-checks changes it, audited; list shows it; a bad value is a usage error", async () => {
  const team = await createTeam({ slug: "cli-spam-keys", name: "CLI spam keys" });
  // As a process of its own, as `npm run keys` runs: the JSON on stdout, exit code 0.
  const plain = json(spawnCli("keys", "create", "--team", team.slug, "--json"));
  assert.equal(plain.spam_checks, "off");
  const checked = json(await cli("keys", "create", "--team", team.slug, "--description", "Checked", "--spam-checks", "on", "--json"));
  assert.equal(checked.spam_checks, "on");
  assert.equal((await db().apiKey.findUniqueOrThrow({ where: { id: String(checked.key_id) } })).spamChecks, true);
  // As a process: a usage error is exit code 2, its message on stderr.
  const refused = spawnCli("keys", "create", "--team", team.slug, "--spam-checks", "yes");
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--spam-checks must be on or off/);

  assert.deepEqual(json(await cli("keys", "spam-checks", String(plain.key_id), "on", "--json")), {
    key_id: plain.key_id,
    spam_checks: "on",
  });
  assert.deepEqual(json(await cli("keys", "spam-checks", String(plain.key_id), "on", "--json")), {
    key_id: plain.key_id,
    spam_checks: "on",
  });
  const text = await cli("keys", "spam-checks", String(checked.key_id), "off");
  assert.equal(text.stdout.trim(), `API key ${String(checked.key_id)}: spam checks off`);
  const listed = json(await cli("keys", "list", "--team", team.slug, "--json")) as unknown as { key_id: string; spam_checks: string }[];
  assert.deepEqual(
    listed.map((k) => [k.key_id, k.spam_checks]).sort(),
    [
      [plain.key_id, "on"],
      [checked.key_id, "off"],
    ].sort(),
  );
  const missing = await cli("keys", "spam-checks", "ffffffffffffffffffff", "on");
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /No API key "ffffffffffffffffffff"/);
  const bad = await cli("keys", "spam-checks", String(plain.key_id), "maybe");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /spam-checks must be on or off/);
  assert.deepEqual(
    (await auditOf(team.id, "api_key.spam_checks_set")).reverse(),
    [
      [plain.key_id, "cli", { from: false, to: true, description: null }],
      [checked.key_id, "cli", { from: true, to: false, description: "Checked" }],
    ],
    "one event per change, none for a value it already had",
  );
});

test("connections: create is on by default and takes --spam-checks; spam-checks changes it with --team; list shows it", async () => {
  const team = await createTeam({ slug: "cli-spam-connections", name: "CLI spam connections" });
  const other = await createTeam({ slug: "cli-spam-connections-other", name: "CLI spam connections other" });
  const plain = json(await cli("connections", "create", "--team", team.slug, "--builder", "tally", "--json"));
  assert.equal(plain.spam_checks, "on");
  const open = json(await cli("connections", "create", "--team", team.slug, "--builder", "generic", "--spam-checks", "off", "--json"));
  assert.equal(open.spam_checks, "off");
  assert.equal((await db().connection.findUniqueOrThrow({ where: { id: String(open.id) } })).spamChecks, false);

  assert.deepEqual(json(await cli("connections", "spam-checks", String(plain.id), "off", "--team", team.slug, "--json")), {
    id: plain.id,
    spam_checks: "off",
  });
  const listed = json(await cli("connections", "list", "--team", team.slug, "--json")) as unknown as { id: string; spam_checks: string }[];
  assert.deepEqual(
    listed.map((c) => [c.id, c.spam_checks]),
    [
      [plain.id, "off"],
      [open.id, "off"],
    ],
  );
  const elsewhere = await cli("connections", "spam-checks", String(open.id), "on", "--team", other.slug);
  assert.equal(elsewhere.status, 2);
  assert.match(elsewhere.stderr, /No connection ".*" in that team/);
  // As a process of its own, as `npm run connections` runs: exit code 2, the message on stderr.
  const refused = spawnCli("connections", "spam-checks", String(open.id), "sometimes", "--team", team.slug);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /spam-checks must be on or off/);
  assert.equal((await db().connection.findUniqueOrThrow({ where: { id: String(open.id) } })).spamChecks, false);
  assert.deepEqual(await auditOf(team.id, "connection.spam_checks_set"), [[plain.id, "cli", { name: "Tally", from: true, to: false }]]);
});
