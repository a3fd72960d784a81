import assert from "node:assert/strict";
import { describe, mock, test } from "node:test";

// Issue 42, "Release and report" (docs/spam.md): "Not spam" allow-lists the sender in the
// release's transaction (their next submission is kept), releases many at once, and "Spam"
// on a lead moves it to the quarantine (optionally blocking its sender), from where a
// release brings it back. Owners and admins only. On a real database (SQLite, PostgreSQL).

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase();
const { db } = await import("../db/client");
const { actorOf } = await import("../leads/lead-ownership.fixtures");
const { releaseManyQuarantined, releaseQuarantined } = await import("../spam/quarantine-release");
const { reportLeadAsSpam, NOT_MANAGER } = await import("../spam/report-spam");
const { SPAM, send, spamTeam } = await import("./spam-lifecycle.fixtures");
const { listLeads } = await import("../leads/lead-list-store");
const { countLeads } = await import("../leads/lead-store");
const { addLeadNote } = await import("../leads/lead-notes");
const { listQuarantine } = await import("../spam/quarantine-store");

mock.method(process.stderr, "write", () => true);

const version = async (teamId: string) => (await db().team.findUniqueOrThrow({ where: { id: teamId } })).spamListsVersion;
const audit = (teamId: string, action: string) => db().auditEvent.findMany({ where: { teamId, action }, orderBy: { createdAt: "asc" } });

describe('"Not spam" allow-lists the sender', () => {
  test("the address goes on the allow list in the release; audited allowListed; the sender's next spam post is kept", async () => {
    const { team, owner, key } = await spamTeam();
    const spam = await send(key, SPAM);
    assert.equal(await db().quarantinedLead.count({ where: { id: spam.body.lead_id } }), 1);
    const before = await version(team.id);
    assert.deepEqual(await releaseQuarantined({ teamId: team.id, id: spam.body.lead_id, actor: actorOf(owner) }), {
      ok: true,
      leadId: spam.body.lead_id,
    });
    const entries = await db().spamListEntry.findMany({ where: { teamId: team.id } });
    assert.deepEqual(
      entries.map((e) => [e.list, e.value, e.note, e.createdById]),
      [["allow_email", "x@mailinator.com", `released ${spam.body.lead_id}`, owner.id]],
    );
    assert.equal(await version(team.id), before + 1, "the lists' version is bumped");
    const [event] = await audit(team.id, "lead.released_from_spam");
    assert.deepEqual([event?.targetId, event?.details], [spam.body.lead_id, { allowListed: true }]);

    const next = await send(key, { ...SPAM, email: "X@Mailinator.com" });
    assert.equal(next.status, 201);
    assert.equal(await db().lead.count({ where: { id: next.body.lead_id } }), 1, "kept: the allow list wins");
    assert.equal(await db().quarantinedLead.count({ where: { teamId: team.id } }), 0);
  });

  test("a second release of the same sender adds nothing and bumps nothing; one with no address: allowListed false", async () => {
    const { team, admin, key } = await spamTeam();
    const first = await send(key, SPAM);
    const noAddress = await send(key, { name: SPAM.name, phone: "+442079460000" });
    await db().spamListEntry.create({ data: { teamId: team.id, list: "allow_email", value: "x@mailinator.com", note: "typed" } });
    const before = await version(team.id);
    assert.ok((await releaseQuarantined({ teamId: team.id, id: first.body.lead_id, actor: actorOf(admin) })).ok);
    assert.ok((await releaseQuarantined({ teamId: team.id, id: noAddress.body.lead_id, actor: actorOf(admin) })).ok);
    assert.equal(await version(team.id), before);
    assert.deepEqual(
      (await db().spamListEntry.findMany({ where: { teamId: team.id } })).map((e) => e.note),
      ["typed"],
    );
    const events = await audit(team.id, "lead.released_from_spam");
    assert.deepEqual(
      events.map((e) => [e.targetId, (e.details as { allowListed: boolean }).allowListed]).sort(),
      [
        [first.body.lead_id, true],
        [noAddress.body.lead_id, false],
      ].sort(),
    );
  });

  test("a member cannot release", async () => {
    const { team, member, key } = await spamTeam();
    const spam = await send(key, SPAM);
    assert.deepEqual(await releaseQuarantined({ teamId: team.id, id: spam.body.lead_id, actor: actorOf(member) }), {
      ok: false,
      error: NOT_MANAGER,
    });
    assert.equal(await db().quarantinedLead.count({ where: { id: spam.body.lead_id } }), 1);
  });
});

test("bulk: each selected submission is released; one gone meanwhile is reported; a member is refused", async () => {
  const { team, owner, member, key } = await spamTeam();
  const a = await send(key, SPAM);
  const b = await send(key, { ...SPAM, email: "y@mailinator.com" });
  const gone = await send(key, { ...SPAM, email: "z@mailinator.com" });
  await db().quarantinedLead.delete({ where: { id: gone.body.lead_id } });
  const ids = [a.body.lead_id, b.body.lead_id, gone.body.lead_id];
  assert.deepEqual(await releaseManyQuarantined({ teamId: team.id, ids, actor: actorOf(member) }), { ok: false, error: NOT_MANAGER });
  const outcome = await releaseManyQuarantined({ teamId: team.id, ids, actor: actorOf(owner) });
  assert.deepEqual(outcome, { ok: true, released: [a.body.lead_id, b.body.lead_id], gone: [gone.body.lead_id] });
  assert.equal(await db().lead.count({ where: { teamId: team.id, id: { in: ids } } }), 2);
  assert.equal((await audit(team.id, "lead.released_from_spam")).length, 2);
});

describe('"Spam" on a lead moves it to the quarantine', () => {
  test("one transaction: the quarantine row (its id, number, fields, reason reported, who), the lead and what hangs on it gone, its pending deliveries cancelled; audited", async () => {
    const { team, owner, admin, member, key } = await spamTeam();
    const kept = await send(key, { name: "Grace Hopper", email: "grace@example.com", phone: "+442079460001", organization: "Navy" });
    const leadId = kept.body.lead_id;
    const lead = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
    assert.ok((await addLeadNote({ teamId: team.id, leadId, body: "Called", actor: actorOf(owner) })).ok);
    assert.ok((await db().job.count({ where: { leadId, state: "pending" } })) >= 1, "its lead.created delivery is pending");
    const teamRef = { id: team.id, defaultPhoneCountry: null };
    assert.equal(await countLeads(team.id), 1);

    assert.deepEqual(await reportLeadAsSpam({ teamId: team.id, leadId, block: false, actor: actorOf(member) }), {
      ok: false,
      error: NOT_MANAGER,
    });
    assert.deepEqual(await reportLeadAsSpam({ teamId: team.id, leadId, block: false, actor: actorOf(admin) }), {
      ok: true,
      blocked: false,
    });

    const row = await db().quarantinedLead.findUniqueOrThrow({ where: { id: leadId } });
    assert.deepEqual(
      [row.seq, row.teamId, row.apiKeyId, row.name, row.emailKey, row.phone, row.score, row.reportedById],
      [lead.seq, team.id, key.keyId, "Grace Hopper", "grace@example.com", "+442079460001", 0, admin.id],
    );
    assert.deepEqual(row.reasons, [{ code: "reported", field: "lead", points: 0 }]);
    assert.ok(row.reportedAt);
    const stored = row.lead as Record<string, unknown>;
    assert.deepEqual([stored.firstName, stored.email, stored.organization, stored.teamId], ["Grace", "grace@example.com", "Navy", team.id]);
    assert.deepEqual(row.source, { chosen: { id: lead.sourceId, name: "API" } });

    assert.equal(await db().lead.count({ where: { id: leadId } }), 0);
    assert.equal(await db().leadSubmission.count({ where: { leadId } }), 0);
    assert.equal(await db().leadNote.count({ where: { leadId } }), 0);
    assert.equal(await db().job.count({ where: { leadId, state: "pending" } }), 0);
    assert.ok((await db().job.count({ where: { leadId, state: "cancelled" } })) >= 1);
    assert.equal((await db().apiRequest.findFirstOrThrow({ where: { leadId } })).spam, "reported");
    assert.equal(await countLeads(team.id), 0, "gone from the count");
    assert.deepEqual((await listLeads({ team: teamRef })).leads, [], "and from the list");
    assert.deepEqual(
      (await listQuarantine({ teamId: team.id, take: 10 })).map((item) => [item.id, item.reportedBy?.email]),
      [[leadId, admin.email]],
    );
    const [event] = await audit(team.id, "lead.reported_spam");
    assert.deepEqual([event?.targetId, event?.actorUserId, event?.details], [leadId, admin.id, { blocked: false }]);
    assert.equal(await db().spamListEntry.count({ where: { teamId: team.id } }), 0);

    // Reported twice (another tab): refused, nothing changes.
    const again = await reportLeadAsSpam({ teamId: team.id, leadId, block: false, actor: actorOf(owner) });
    assert.equal(again.ok, false);

    // "Not spam" brings it back, as a new lead under its number.
    assert.deepEqual(await releaseQuarantined({ teamId: team.id, id: leadId, actor: actorOf(owner) }), { ok: true, leadId });
    const back = await db().lead.findUniqueOrThrow({ where: { id: leadId } });
    assert.deepEqual([back.seq, back.firstName, back.organization, back.phone], [lead.seq, "Grace", "Navy", "+442079460001"]);
    assert.equal(await countLeads(team.id), 1);
  });

  test("with 'Also block this sender': the address goes on the block list, and their next post is quarantined", async () => {
    const { team, owner, key } = await spamTeam();
    const kept = await send(key, { name: "Plain Person", email: "Pushy@Example.com" });
    assert.deepEqual(await reportLeadAsSpam({ teamId: team.id, leadId: kept.body.lead_id, block: true, actor: actorOf(owner) }), {
      ok: true,
      blocked: true,
    });
    const entries = await db().spamListEntry.findMany({ where: { teamId: team.id } });
    assert.deepEqual(
      entries.map((e) => [e.list, e.value, e.note]),
      [["blocked_email", "pushy@example.com", `reported ${kept.body.lead_id}`]],
    );
    const [event] = await audit(team.id, "lead.reported_spam");
    assert.deepEqual(event?.details, { blocked: true });
    const next = await send(key, { name: "Plain Person", email: "pushy@example.com" });
    const row = await db().quarantinedLead.findUniqueOrThrow({ where: { id: next.body.lead_id } });
    assert.deepEqual(
      (row.reasons as { code: string }[]).map((r) => r.code),
      ["blocked_email"],
    );
  });

  test("blocking a sender released before takes them off the allow list, which would win over the block", async () => {
    const { team, owner, key } = await spamTeam();
    const { addSpamListEntries } = await import("../spam/spam-list-store");
    await db().$transaction((tx) =>
      addSpamListEntries(tx, team.id, [{ list: "allow_email", value: "pushy@example.com", note: "released CRM-LEAD-1" }], null),
    );
    const kept = await send(key, { name: "Plain Person", email: "pushy@example.com" });
    assert.ok((await db().lead.count({ where: { id: kept.body.lead_id } })) === 1);
    await reportLeadAsSpam({ teamId: team.id, leadId: kept.body.lead_id, block: true, actor: actorOf(owner) });
    assert.deepEqual(
      (await db().spamListEntry.findMany({ where: { teamId: team.id } })).map((e) => [e.list, e.value]),
      [["blocked_email", "pushy@example.com"]],
    );
    const next = await send(key, { name: "Plain Person", email: "pushy@example.com" });
    assert.equal(await db().quarantinedLead.count({ where: { id: next.body.lead_id } }), 1, "the block holds");
  });

  test("two reports of one lead at once: one moves it, the other is told it is gone; one quarantine row, one event", async () => {
    const { team, owner, admin, key } = await spamTeam();
    const kept = await send(key, { name: "Plain Person", email: "twice@example.com" });
    const outcomes = await Promise.all(
      [owner, admin].map((actor) => reportLeadAsSpam({ teamId: team.id, leadId: kept.body.lead_id, block: false, actor: actorOf(actor) })),
    );
    assert.deepEqual(outcomes.map((outcome) => outcome.ok).sort(), [false, true]);
    assert.equal(await db().quarantinedLead.count({ where: { id: kept.body.lead_id } }), 1);
    assert.equal((await audit(team.id, "lead.reported_spam")).length, 1);
  });

  test("another team's lead is not reported", async () => {
    const { key } = await spamTeam();
    const other = await spamTeam();
    const kept = await send(key, { name: "Ada Lovelace", email: "ada@example.com" });
    const refused = await reportLeadAsSpam({ teamId: other.team.id, leadId: kept.body.lead_id, block: true, actor: actorOf(other.owner) });
    assert.equal(refused.ok, false);
    assert.equal(await db().lead.count({ where: { id: kept.body.lead_id } }), 1);
  });
});
