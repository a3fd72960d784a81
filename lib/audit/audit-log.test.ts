import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { createApiKey, deleteApiKey, takeSecretForCopy } from "../api-keys/api-key-changes";
import { db } from "../db/client";
import { createInvite } from "../teams/invite-changes";
import { changeMembership, LastOwnerError } from "../teams/membership-changes";
import { addMember, createTeam } from "../teams/team-store";
import { CLI_ACTOR, listAuditEvents, recordAuditEvent, webActor, type AuditActor } from "./audit-log";

const database = await useTestDatabase();

let teamCount = 0;
const makeTeam = () => createTeam({ slug: `audit-${++teamCount}`, name: `Audit ${teamCount}` });
const makeUser = (email: string) => db().user.create({ data: { email, passwordHash: "x" }, select: { id: true } });

describe("audit trail of API keys", () => {
  test("generation, copy and deletion are recorded with who, when and from where, newest first", async () => {
    const team = await makeTeam();
    const admin = await makeUser("audit-admin@example.com");
    const web: AuditActor = { userId: admin.id, ip: "203.0.113.9", via: "web" };
    const started = Date.now();

    const key = await createApiKey({ teamId: team.id, description: "Site", createdById: admin.id, actor: web });
    assert.equal(await takeSecretForCopy({ keyId: key.keyId, teamId: team.id, userId: admin.id, actor: web }), key.secret);
    assert.equal(await deleteApiKey({ keyId: key.keyId, teamId: team.id, actor: web }), true);

    const events = await listAuditEvents(team.id);
    assert.deepEqual(
      events.map((e) => [e.action, e.actorEmail, e.ip, e.via, e.targetId]),
      [
        ["api_key.deleted", "audit-admin@example.com", "203.0.113.9", "web", key.keyId],
        ["api_key.secret_copied", "audit-admin@example.com", "203.0.113.9", "web", key.keyId],
        ["api_key.generated", "audit-admin@example.com", "203.0.113.9", "web", key.keyId],
      ],
    );
    assert.deepEqual(events.at(-1)!.details, { description: "Site", repeats: "new", spamChecks: false });
    for (const event of events) assert.ok(event.at.getTime() >= started - 1_000 && event.at.getTime() <= Date.now() + 1_000);
  });

  test("the CLI is recorded as the operator, without a user or address", async () => {
    const team = await makeTeam();
    const key = await createApiKey({ teamId: team.id, actor: CLI_ACTOR });
    await deleteApiKey({ keyId: key.keyId, actor: CLI_ACTOR });
    const events = await listAuditEvents(team.id);
    assert.deepEqual(
      events.map((e) => [e.action, e.actorUserId, e.ip, e.via]),
      [
        ["api_key.deleted", null, null, "cli"],
        ["api_key.generated", null, null, "cli"],
      ],
    );
  });

  test("only the copy that gets the secret is recorded, and a refused deletion records nothing", async () => {
    const team = await makeTeam();
    const other = await makeTeam();
    const key = await createApiKey({ teamId: team.id, actor: CLI_ACTOR });
    const copies = await Promise.all([1, 2, 3].map(() => takeSecretForCopy({ keyId: key.keyId, teamId: team.id, userId: null })));
    assert.equal(copies.filter((c) => c === key.secret).length, 1);
    assert.equal(await deleteApiKey({ keyId: key.keyId, teamId: other.id, actor: CLI_ACTOR }), false);
    const actions = (await listAuditEvents(team.id)).map((e) => e.action);
    assert.deepEqual(actions, ["api_key.secret_copied", "api_key.generated"]);
    assert.deepEqual(await listAuditEvents(other.id), []);
  });

  test("a failed change leaves no event: the event is written in the change's transaction", async () => {
    const team = await makeTeam();
    await assert.rejects(
      db().$transaction(async (tx) => {
        await recordAuditEvent({ teamId: team.id, action: "member.invited", actor: CLI_ACTOR, targetId: "x" }, tx);
        throw new Error("the invitation failed");
      }),
    );
    assert.deepEqual(await listAuditEvents(team.id), []);
  });

  test("member events are stored with their details; a secret in the details is redacted", async () => {
    const team = await makeTeam();
    const owner = await makeUser("audit-owner@example.com");
    const actor: AuditActor = { userId: owner.id, ip: "198.51.100.4", via: "web" };
    await recordAuditEvent({
      teamId: team.id,
      action: "member.invited",
      actor,
      targetId: "u1",
      details: { email: "new@example.com", role: "member" },
    });
    await recordAuditEvent({
      teamId: team.id,
      action: "member.role_changed",
      actor,
      targetId: "u1",
      details: { from: "member", to: "admin", note: "team_ABCDEFGHijklmnop1234" },
    });
    const [changed, invited] = await listAuditEvents(team.id);
    assert.deepEqual(invited!.details, { email: "new@example.com", role: "member" });
    assert.equal(changed!.action, "member.role_changed");
    assert.deepEqual(changed!.details, { from: "member", to: "admin", note: "team_[REDACTED]" });
    assert.ok(!database.storedBytes().includes("team_ABCDEFGHijklmnop1234"));
  });

  test("listing pages by (time, id), is bounded, and never shows another team's events", async () => {
    const team = await makeTeam();
    const other = await makeTeam();
    await recordAuditEvent({ teamId: other.id, action: "member.invited", actor: CLI_ACTOR });
    // u1, u2 and u3 share one millisecond: a page boundary between them skips and repeats nothing.
    const minutes = [0, 1, 1, 1, 4];
    for (let i = 0; i < 5; i++) {
      await db().auditEvent.create({
        data: {
          id: `evt-${i}`,
          teamId: team.id,
          action: "member.invited",
          via: "cli",
          createdAt: new Date(Date.UTC(2026, 0, 1, 0, minutes[i]!)),
          targetId: `u${i}`,
        },
      });
    }
    const firstPage = await listAuditEvents(team.id, { limit: 2 });
    assert.deepEqual(
      firstPage.map((e) => e.targetId),
      ["u4", "u3"],
    );
    const nextPage = await listAuditEvents(team.id, { limit: 2, olderThan: firstPage.at(-1)!.id });
    assert.deepEqual(
      nextPage.map((e) => e.targetId),
      ["u2", "u1"],
    );
    const lastPage = await listAuditEvents(team.id, { limit: 2, olderThan: nextPage.at(-1)!.id });
    assert.deepEqual(
      lastPage.map((e) => e.targetId),
      ["u0"],
    );
    assert.equal((await listAuditEvents(team.id, { limit: 0 })).length, 1);
    assert.ok((await listAuditEvents(team.id)).every((e) => e.targetId?.startsWith("u")));
    const otherEvent = (await listAuditEvents(other.id))[0]!;
    assert.deepEqual(await listAuditEvents(team.id, { olderThan: otherEvent.id }), []);
    assert.deepEqual(await listAuditEvents(team.id, { olderThan: "no-such-event" }), []);
  });
});

describe("audit trail of members", () => {
  const owner = () => makeUser(`owner-${++teamCount}@example.com`);

  test("an invitation is recorded with the inviter, address, invited email and role", async () => {
    const team = await makeTeam();
    const inviter = await owner();
    const actor: AuditActor = { userId: inviter.id, ip: "192.0.2.44", via: "web" };
    const invite = await createInvite({ teamId: team.id, email: "New.Person@Example.com", role: "admin", createdById: inviter.id, actor });
    assert.notEqual(invite, "already-member");
    const [event] = await listAuditEvents(team.id);
    assert.equal(event!.action, "member.invited");
    assert.deepEqual([event!.actorUserId, event!.ip, event!.via], [inviter.id, "192.0.2.44", "web"]);
    assert.deepEqual(event!.details, { email: "new.person@example.com", role: "admin" });
    const stored = await db().invite.findFirstOrThrow({ where: { teamId: team.id }, select: { id: true } });
    assert.equal(event!.targetId, stored.id);
  });

  test("an address that is already a member is neither invited nor recorded", async () => {
    const team = await makeTeam();
    const member = await owner();
    await addMember({ teamId: team.id, userId: member.id, role: "member" });
    const email = (await db().user.findUniqueOrThrow({ where: { id: member.id } })).email;
    assert.equal(await createInvite({ teamId: team.id, email, role: "admin", createdById: member.id }), "already-member");
    assert.deepEqual(await listAuditEvents(team.id), []);
  });

  test("role changes and removals are recorded; a refused or empty change records nothing", async () => {
    const team = await makeTeam();
    const [first, second] = [await owner(), await owner()];
    await addMember({ teamId: team.id, userId: first.id, role: "owner" });
    await addMember({ teamId: team.id, userId: second.id, role: "member" });
    const actor: AuditActor = { userId: first.id, ip: "198.51.100.7", via: "web" };
    const secondEmail = (await db().user.findUniqueOrThrow({ where: { id: second.id } })).email;

    await assert.rejects(changeMembership({ teamId: team.id, userId: first.id, role: "admin", actor }), LastOwnerError);
    assert.equal(await changeMembership({ teamId: team.id, userId: second.id, role: "member", actor }), true);
    assert.equal(await changeMembership({ teamId: team.id, userId: "not-a-member", role: "admin", actor }), false);
    assert.deepEqual(await listAuditEvents(team.id), []);

    assert.equal(await changeMembership({ teamId: team.id, userId: second.id, role: "admin", actor }), true);
    assert.equal(await changeMembership({ teamId: team.id, userId: second.id, role: null, actor }), true);
    const events = await listAuditEvents(team.id);
    assert.deepEqual(
      events.map((e) => [e.action, e.actorUserId, e.ip, e.targetId, e.details]),
      [
        ["member.removed", first.id, "198.51.100.7", second.id, { email: secondEmail, role: "admin" }],
        ["member.role_changed", first.id, "198.51.100.7", second.id, { email: secondEmail, from: "member", to: "admin" }],
      ],
    );
  });
});

describe("webActor", () => {
  test("the user with the client address as scripts/serve.mjs stamped it (no trusted proxy by default)", () => {
    const headers = new Headers({ "X-Forwarded-For": "6.6.6.6, 203.0.113.7" });
    assert.deepEqual(webActor("user-1", headers), { userId: "user-1", ip: "203.0.113.7", via: "web" });
    assert.deepEqual(webActor("user-2", new Headers()), { userId: "user-2", ip: "unknown", via: "web" });
  });
});
