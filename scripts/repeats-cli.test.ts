import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../test/support/test-database";
import { listAuditEvents } from "../lib/audit/audit-log";
import { db } from "../lib/db/client";
import { createTeam } from "../lib/teams/team-store";
import { cli, json } from "./cli.fixtures";

// The keys and connections CLIs' repeat setting (issue 41), run as an operator would, on
// this test's database: --repeats on create (and each channel's default without it), the
// repeats command, list and --json showing it, and a value that is neither refused.
await useTestDatabase();

test("keys: create is new by default and takes --repeats; repeats changes it, audited; list shows it; a bad value is a usage error", async () => {
  const team = await createTeam({ slug: "cli-repeats-keys", name: "CLI repeats keys" });
  const plain = json(await cli("keys", "create", "--team", team.slug, "--json"));
  assert.equal(plain.repeats, "new");
  const refused = await cli("keys", "create", "--team", team.slug, "--repeats", "merge");
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /--repeats must be add or new/);

  assert.deepEqual(json(await cli("keys", "repeats", String(plain.key_id), "add", "--json")), { key_id: plain.key_id, repeats: "add" });
  const listed = json(await cli("keys", "list", "--team", team.slug, "--json")) as unknown as { key_id: string; repeats: string }[];
  assert.deepEqual(
    listed.map((k) => [k.key_id, k.repeats]),
    [[plain.key_id, "add"]],
  );
  const missing = await cli("keys", "repeats", "ffffffffffffffffffff", "new");
  assert.equal(missing.status, 2);
  assert.match(missing.stderr, /No API key "ffffffffffffffffffff"/);
  const events = (await listAuditEvents(team.id)).filter((e) => e.action === "api_key.repeats_set");
  assert.deepEqual(
    events.map((e) => [e.targetId, e.via, e.details]),
    [[plain.key_id, "cli", { from: "new", to: "add", description: null }]],
  );
});

test("connections: create is add by default and takes --repeats; repeats changes it with --team; list shows it", async () => {
  const team = await createTeam({ slug: "cli-repeats-connections", name: "CLI repeats connections" });
  const made = json(await cli("connections", "create", "--team", team.slug, "--builder", "generic", "--repeats", "new", "--json"));
  assert.equal(made.repeats, "new");
  assert.deepEqual(json(await cli("connections", "repeats", String(made.id), "add", "--team", team.slug, "--json")), {
    id: made.id,
    repeats: "add",
  });
  const listed = json(await cli("connections", "list", "--team", team.slug, "--json")) as unknown as { id: string; repeats: string }[];
  assert.deepEqual(
    listed.map((c) => [c.id, c.repeats]),
    [[made.id, "add"]],
  );
  const refused = await cli("connections", "repeats", String(made.id), "sometimes", "--team", team.slug);
  assert.equal(refused.status, 2);
  assert.match(refused.stderr, /repeats must be add or new/);
  assert.equal((await db().connection.findUniqueOrThrow({ where: { id: String(made.id) } })).repeats, "add");
  const plain = json(await cli("connections", "create", "--team", team.slug, "--builder", "tally", "--json"));
  assert.equal(plain.repeats, "add");
});
