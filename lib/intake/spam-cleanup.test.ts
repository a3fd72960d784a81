import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, describe, mock, test } from "node:test";

// Issue 42: "Empty spam", the quarantine's retention (Team.spamRetentionDays, run at the app's
// clock) and Leads → Spam's search (docs/spam.md). On a real database (SQLite, PostgreSQL).

// The app's clock (lib/time/clock.ts) reads this file; empty: the system clock.
const clockFile = path.join(mkdtempSync(path.join(tmpdir(), "spam-clock-")), "now");
writeFileSync(clockFile, "");
process.env.LEAD_INTAKE_TEST_CLOCK_FILE = clockFile;
after(() => writeFileSync(clockFile, ""));

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { actorOf } = await import("../leads/lead-ownership.fixtures");
const { emptyQuarantine } = await import("../spam/empty-quarantine");
const { NOT_MANAGER } = await import("../spam/report-spam");
const { countQuarantine, listQuarantine } = await import("../spam/quarantine-store");
const { runSpamRetentionJob, SPAM_RETENTION_PERIOD_MS } = await import("../maintenance/spam-retention");
const { now } = await import("../time/clock");
const { quarantined, spamTeam } = await import("./spam-lifecycle.fixtures");

mock.method(process.stderr, "write", () => true);

const DAY = 24 * 60 * 60 * 1000;
const audit = (teamId: string, action: string) => db().auditEvent.findMany({ where: { teamId, action } });

test('"Empty spam": owners and admins delete the whole quarantine now, audited with the count; another team\'s stays', async () => {
  const { team, admin, member } = await spamTeam();
  const other = await spamTeam();
  await quarantined(team.id, { name: "One" });
  await quarantined(team.id, { name: "Two" });
  const kept = await quarantined(other.team.id, { name: "Other" });
  assert.deepEqual(await emptyQuarantine({ teamId: team.id, actor: actorOf(member) }), { ok: false, error: NOT_MANAGER });
  assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 2);
  assert.deepEqual(await emptyQuarantine({ teamId: team.id, actor: actorOf(admin) }), { ok: true, count: 2 });
  assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 0);
  assert.equal(await db().quarantinedLead.count({ where: { id: kept } }), 1);
  const [event] = await audit(team.id, "spam.emptied");
  assert.deepEqual([event?.actorUserId, event?.details], [admin.id, { count: 2 }]);
  // Emptying an empty quarantine is harmless (and audited as 0).
  assert.deepEqual(await emptyQuarantine({ teamId: team.id, actor: actorOf(admin) }), { ok: true, count: 0 });
});

test("retention: at the app's clock, each team's quarantined submissions older than its spamRetentionDays go, once per period; the boundary stays", async () => {
  const at = new Date("2026-07-01T12:00:00.000Z");
  writeFileSync(clockFile, at.toISOString());
  const clock = now();
  assert.equal(clock.toISOString(), at.toISOString(), "the app's clock is the file's");
  const { team } = await spamTeam();
  const short = await spamTeam();
  await db().team.update({ where: { id: short.team.id }, data: { spamRetentionDays: 7 } });
  const old = await quarantined(team.id, { name: "Old", createdAt: new Date(at.getTime() - 30 * DAY - 1) });
  const edge = await quarantined(team.id, { name: "Exactly 30 days", createdAt: new Date(at.getTime() - 30 * DAY) });
  const recent = await quarantined(team.id, { name: "Recent", createdAt: new Date(at.getTime() - 29 * DAY) });
  const week = await quarantined(short.team.id, { name: "Eight days", createdAt: new Date(at.getTime() - 8 * DAY) });
  const day = await quarantined(short.team.id, { name: "Six days", createdAt: new Date(at.getTime() - 6 * DAY) });

  const runs = await Promise.all([runSpamRetentionJob(now()), runSpamRetentionJob(now())]);
  const ran = runs.filter((run) => run !== null);
  assert.equal(ran.length, 1, "one instance runs per period");
  assert.ok(ran[0]!.deleted >= 2);
  const left = new Set((await db().quarantinedLead.findMany({ select: { id: true } })).map((row) => row.id));
  assert.deepEqual(
    [old, edge, recent, week, day].map((id) => left.has(id)),
    [false, true, true, false, true],
  );
  const [event] = await audit(team.id, "spam.retention_applied");
  assert.deepEqual([event?.actorUserId, event?.via, event?.details], [null, "cli", { count: 1, retentionDays: 30 }]);
  assert.deepEqual((await audit(short.team.id, "spam.retention_applied"))[0]?.details, { count: 1, retentionDays: 7 });

  // The clock moves on a millisecond: the boundary row is past it, but the period is claimed.
  writeFileSync(clockFile, new Date(at.getTime() + 1).toISOString());
  assert.equal(await runSpamRetentionJob(now()), null);
  // A period later it goes.
  writeFileSync(clockFile, new Date(at.getTime() + SPAM_RETENTION_PERIOD_MS).toISOString());
  assert.ok(await runSpamRetentionJob(now()));
  assert.equal(await db().quarantinedLead.count({ where: { id: edge } }), 0);
  assert.equal(await db().quarantinedLead.count({ where: { id: recent } }), 1);
  writeFileSync(clockFile, "");
});

describe("search in Leads → Spam (q)", () => {
  test("name, email, phone or mobile contains it, case-insensitively; newest first; counted; only the team's", async () => {
    const { team } = await spamTeam();
    const other = await spamTeam();
    const t = (minutes: number) => new Date(Date.UTC(2026, 5, 1, 12, minutes));
    const ada = await quarantined(team.id, { name: "Ada Lovelace", email: "ADA@Example.com", createdAt: t(1) });
    const ada2 = await quarantined(team.id, { name: "ada byron", email: null, phone: "+442079460123", createdAt: t(2) });
    const zola = await quarantined(team.id, { name: "Émile Zola", email: "emile@example.fr", mobileNo: "+33612345678", createdAt: t(3) });
    const percent = await quarantined(team.id, { name: "100% Real", email: "real_deal@example.com", createdAt: t(4) });
    await quarantined(other.team.id, { name: "Ada Other", email: "ada@other.example" });
    const ids = async (q: string) => (await listQuarantine({ teamId: team.id, take: 100, query: q })).map((item) => item.id);

    assert.deepEqual(await ids("ADA"), [ada2, ada], "the name or the email, any case, newest first");
    assert.deepEqual(await ids("lovelace"), [ada]);
    assert.deepEqual(await ids("@example.FR"), [zola]);
    assert.deepEqual(await ids("émile"), [zola], "non-ASCII letters as typed");
    assert.deepEqual(await ids("020 7946 0123"), [ada2], "a number by its digits");
    assert.deepEqual(await ids("+3361234"), [zola], "the mobile too");
    assert.deepEqual(await ids("%"), [percent], "LIKE's wildcards are literal");
    assert.deepEqual(await ids("l_deal"), [percent]);
    assert.deepEqual(await ids("nobody"), []);
    assert.deepEqual(await ids("  "), [percent, zola, ada2, ada], "a blank search lists everything");
    assert.deepEqual(await ids("ada"), await ids("Ada"));

    assert.equal(await countQuarantine(team.id, 10_000, "ada"), 2);
    assert.equal(await countQuarantine(team.id, 1, "ada"), 1, "capped");
    assert.equal(await countQuarantine(team.id, 10_000), 4);
    assert.deepEqual(
      (await listQuarantine({ teamId: team.id, take: 1, query: "ada" })).map((item) => item.id),
      [ada2],
      "the cap on rows shown",
    );
  });
});
