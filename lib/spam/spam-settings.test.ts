import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import type { AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { createTeam } from "../teams/team-store";
import { addSpamListValues, MAX_VALUES_PER_ADD, parseListValues, removeSpamListValue } from "./spam-list-changes";
import { listSpamListEntries, readSpamLists } from "./spam-list-store";
import { NOT_A_MANAGER, readSpamSettings, saveSpamSettings, SPAM_SETTINGS_DEFAULTS, spamSettingsSchema } from "./spam-settings";

// Settings → Spam's rules (issue 42; docs/spam.md "Settings"): the scalar settings' bounds,
// that only owners and admins change them, their audit event; the lists' values read one per
// line, all or none, their audit events (counts, never a value) and the version every change
// bumps. The intake's side: lib/intake/spam-team-settings.test.ts.

await useTestDatabase();

let teams = 0;
const makeTeam = () => createTeam({ slug: `spam-settings-${++teams}`, name: `Spam settings ${teams}` });
const admin: AuditActor = { userId: null, ip: "198.51.100.9", via: "web" };
const valid = { threshold: "10", businessOnly: undefined, burstLimit: "5", burstMinutes: "10", retentionDays: "30" };
const auditOf = async (teamId: string, action: string) =>
  (await db().auditEvent.findMany({ where: { teamId, action }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] })).map((e) => [
    e.targetId,
    e.details,
  ]);
const version = async (teamId: string) => (await db().team.findUniqueOrThrow({ where: { id: teamId } })).spamListsVersion;

describe("the scalar settings", () => {
  test("a new team has the defaults: threshold 10, any address, more than 5 leads in 10 minutes, kept 30 days", async () => {
    const team = await makeTeam();
    assert.deepEqual(await readSpamSettings(team.id), SPAM_SETTINGS_DEFAULTS);
    assert.deepEqual(SPAM_SETTINGS_DEFAULTS, { threshold: 10, businessOnly: false, burstLimit: 5, burstMinutes: 10, retentionDays: 30 });
  });

  test("each bound is taken, one past it is refused; typed text must be a whole number", () => {
    const bounds = [
      ["threshold", "1", "100", "0", "101"],
      ["burstLimit", "0", "1000", "-1", "1001"],
      ["burstMinutes", "1", "1440", "0", "1441"],
      ["retentionDays", "1", "365", "0", "366"],
    ] as const;
    for (const [field, low, high, under, over] of bounds) {
      for (const ok of [low, high, ` ${high} `, Number(low)])
        assert.ok(spamSettingsSchema.safeParse({ ...valid, [field]: ok }).success, `${field} ${ok}`);
      for (const bad of [under, over, "", " ", "1.5", "1e2", "0x10", "ten", null, undefined, 2.5, Number.NaN, Infinity, ["10"]]) {
        assert.equal(spamSettingsSchema.safeParse({ ...valid, [field]: bad }).success, false, `${field} ${String(bad)}`);
      }
    }
    const refusal = spamSettingsSchema.safeParse({ ...valid, threshold: "0" });
    assert.equal(refusal.error?.issues[0]?.message, "Enter a threshold from 1 to 100.");
  });

  test("the checkbox: on when ticked, off when not sent", () => {
    assert.equal(spamSettingsSchema.parse({ ...valid, businessOnly: "on" }).businessOnly, true);
    assert.equal(spamSettingsSchema.parse({ ...valid, businessOnly: true }).businessOnly, true);
    assert.equal(spamSettingsSchema.parse({ ...valid, businessOnly: null }).businessOnly, false);
    assert.equal(spamSettingsSchema.parse(valid).businessOnly, false);
  });

  test("an owner or admin saves them; the changed values are audited once; no change, no event", async () => {
    const team = await makeTeam();
    const save = (input: object, role: "owner" | "admin" = "admin") => saveSpamSettings({ teamId: team.id, role, input, actor: admin });
    assert.deepEqual(await save({ ...valid, threshold: "25", businessOnly: "on" }), { ok: true, changed: ["threshold", "businessOnly"] });
    assert.deepEqual(await save({ ...valid, threshold: "25", businessOnly: "on" }, "owner"), { ok: true, changed: [] });
    assert.deepEqual(await save({ threshold: 25, businessOnly: "on", burstLimit: 0, burstMinutes: 1440, retentionDays: 365 }), {
      ok: true,
      changed: ["burstLimit", "burstMinutes", "retentionDays"],
    });
    assert.deepEqual(await readSpamSettings(team.id), {
      threshold: 25,
      businessOnly: true,
      burstLimit: 0,
      burstMinutes: 1440,
      retentionDays: 365,
    });
    assert.deepEqual(await auditOf(team.id, "team.spam_settings_set"), [
      [team.id, { threshold: 25, business_only: true }],
      [team.id, { burst_limit: 0, burst_minutes: 1440, retention_days: 365 }],
    ]);
  });

  test("a member is refused, and a value out of bounds: nothing is written, nothing audited", async () => {
    const team = await makeTeam();
    assert.deepEqual(await saveSpamSettings({ teamId: team.id, role: "member", input: { ...valid, threshold: "50" }, actor: admin }), {
      ok: false,
      error: NOT_A_MANAGER,
    });
    const outOfBounds = await saveSpamSettings({
      teamId: team.id,
      role: "owner",
      input: { ...valid, threshold: "50", burstMinutes: "0" },
      actor: admin,
    });
    assert.deepEqual(outOfBounds, { ok: false, error: "Enter a number of minutes from 1 to 1,440." });
    assert.deepEqual(await readSpamSettings(team.id), SPAM_SETTINGS_DEFAULTS);
    assert.deepEqual(await auditOf(team.id, "team.spam_settings_set"), []);
  });
});

describe("the lists", () => {
  test("values typed one per line are normalized as the checks compare them; repeats and blank lines are dropped", () => {
    assert.deepEqual(parseListValues("blocked_word", "  Backlinks \n\nSEO   Services\r\nbacklinks\n"), {
      values: ["backlinks", "seo services"],
    });
    assert.deepEqual(parseListValues("blocked_email_domain", "Spam.Example.\n@spam.example"), { values: ["spam.example"] });
    assert.deepEqual(parseListValues("allow_email", "Ada.Lovelace@Example.COM"), { values: ["ada.lovelace@example.com"] });
    assert.deepEqual(parseListValues("blocked_ip", " 203.0.113.0/24 \n2001:DB8::/32\n198.51.100.1"), {
      values: ["203.0.113.0/24", "2001:db8::/32", "198.51.100.1"],
    });
  });

  test("each refused line is named with its reason; too many or no values are refused", () => {
    assert.deepEqual(parseListValues("blocked_ip", "203.0.113.0/24\nnot-an-ip\n\n10.0.0.0/33"), {
      error: "2 lines are not valid; nothing was added.",
      problems: [
        { line: 2, error: '"not-an-ip" is not an IP address or CIDR range (203.0.113.0/24, 2001:db8::/32).' },
        { line: 4, error: '"10.0.0.0/33" is not an IP address or CIDR range (203.0.113.0/24, 2001:db8::/32).' },
      ],
    });
    assert.deepEqual(parseListValues("blocked_email", "ada@"), {
      error: "One line is not valid; nothing was added.",
      problems: [{ line: 1, error: '"ada@" is not an e-mail address.' }],
    });
    assert.deepEqual(parseListValues("blocked_word", " \n "), { error: "Enter a value, one per line.", problems: [] });
    const many = Array.from({ length: MAX_VALUES_PER_ADD + 1 }, (_, i) => `word${i}`).join("\n");
    assert.deepEqual(parseListValues("blocked_word", many), { error: `Add at most ${MAX_VALUES_PER_ADD} values at once.`, problems: [] });
  });

  test("an addition is all or none: one bad line adds nothing and leaves the version alone", async () => {
    const team = await makeTeam();
    const refused = await addSpamListValues({
      teamId: team.id,
      role: "admin",
      list: "blocked_email_domain",
      text: "good.example\nbad domain",
      actor: admin,
    });
    assert.equal(refused.ok, false);
    assert.deepEqual(await listSpamListEntries(team.id), []);
    assert.equal(await version(team.id), 0);
    assert.deepEqual(await auditOf(team.id, "spam_list.entries_added"), []);
  });

  test("added entries bump the version and are audited with the list and a count; one entry is the target; values never in details", async () => {
    const team = await makeTeam();
    const add = (list: string, text: string) => addSpamListValues({ teamId: team.id, role: "owner", list, text, actor: admin });
    assert.deepEqual(await add("blocked_email", "Spammer@Spam.Example\nother@spam.example"), { ok: true, added: 2, existing: 0 });
    assert.equal(await version(team.id), 1);
    assert.deepEqual(await add("blocked_email", "spammer@spam.example\nthird@spam.example"), { ok: true, added: 1, existing: 1 });
    assert.deepEqual(await add("blocked_email", "third@spam.example"), { ok: true, added: 0, existing: 1 });
    assert.equal(await version(team.id), 2, "nothing new: no bump");
    const entries = await listSpamListEntries(team.id);
    assert.deepEqual(entries.map((e) => [e.list, e.value]).sort(), [
      ["blocked_email", "other@spam.example"],
      ["blocked_email", "spammer@spam.example"],
      ["blocked_email", "third@spam.example"],
    ]);
    const third = entries.find((e) => e.value === "third@spam.example")!;
    assert.deepEqual(await auditOf(team.id, "spam_list.entries_added"), [
      [null, { list: "blocked_email", count: 2 }],
      [third.id, { list: "blocked_email", count: 1 }],
    ]);
    const { lists } = await readSpamLists(team.id);
    assert.deepEqual([...lists.blockedEmails].sort(), ["other@spam.example", "spammer@spam.example", "third@spam.example"]);
  });

  test("a removal bumps the version and is audited; another team's entry, or one gone, is not found", async () => {
    const [team, other] = [await makeTeam(), await makeTeam()];
    await addSpamListValues({ teamId: team.id, role: "admin", list: "blocked_word", text: "casino", actor: admin });
    const [entry] = await listSpamListEntries(team.id);
    const remove = (teamId: string) => removeSpamListValue({ teamId, role: "admin", id: entry!.id, actor: admin });
    assert.deepEqual(await remove(other.id), { ok: false, error: "That entry is not on the list." });
    assert.deepEqual(await remove(team.id), { ok: true });
    assert.deepEqual(await remove(team.id), { ok: false, error: "That entry is not on the list." });
    assert.deepEqual(await listSpamListEntries(team.id), []);
    assert.equal(await version(team.id), 2);
    assert.equal(await version(other.id), 0);
    assert.deepEqual(await auditOf(team.id, "spam_list.entry_removed"), [[entry!.id, { list: "blocked_word" }]]);
  });

  test("a member adds and removes nothing; an unknown list is refused", async () => {
    const team = await makeTeam();
    assert.equal(
      (await addSpamListValues({ teamId: team.id, role: "member", list: "blocked_word", text: "casino", actor: admin })).ok,
      false,
    );
    assert.equal(
      (await addSpamListValues({ teamId: team.id, role: "admin", list: "blocked_words", text: "casino", actor: admin })).ok,
      false,
    );
    await addSpamListValues({ teamId: team.id, role: "admin", list: "blocked_word", text: "casino", actor: admin });
    const [entry] = await listSpamListEntries(team.id);
    assert.deepEqual(await removeSpamListValue({ teamId: team.id, role: "member", id: entry!.id, actor: admin }), {
      ok: false,
      error: "Only owners and admins can change the spam lists.",
    });
    assert.equal((await listSpamListEntries(team.id)).length, 1);
    assert.equal(await version(team.id), 1);
  });
});
