import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { createUser } from "../users/user-store";
import { acceptInviteAsUser, acceptInviteWithNewAccount, findOpenInvite } from "./accept-invite";
import { createInvite, type CreatedInvite } from "./invite-changes";
import { listPendingInvites } from "./invite-store";
import { changeMembership } from "./membership-changes";
import { addMember, createTeam, type Role } from "./team-store";

// Invites outlive neither their creator's membership nor their creator's right to invite
// that role (docs/security.md "Invites"): revoked with the change, and audited.

await useTestDatabase();

let count = 0;
const PASSWORD = "a long enough password";
const OWNER_ACTOR = { userId: null, ip: "203.0.113.1", via: "web" } as const;

async function teamWith(...roles: Role[]) {
  const team = await createTeam({ slug: `team-${++count}`, name: `Team ${count}` });
  const users = [];
  for (const role of roles) {
    const user = await createUser({ email: `user-${++count}@example.test`, password: PASSWORD });
    await addMember({ teamId: team.id, userId: user.id, role });
    users.push(user);
  }
  return { team, users };
}

async function inviteAs(teamId: string, inviterId: string, role: Role): Promise<CreatedInvite> {
  const created = await createInvite({ teamId, email: `invitee-${++count}@example.test`, role, createdById: inviterId });
  assert.notEqual(created, "already-member");
  return created as CreatedInvite;
}

const revocations = (teamId: string) =>
  db().auditEvent.findMany({
    where: { teamId, action: "member.invite_revoked" },
    select: { targetId: true, details: true, via: true, ip: true },
  });

describe("invites and their creator's rights", () => {
  test("an admin's invites are revoked when the admin is removed, and each revocation is audited", async () => {
    const { team, users } = await teamWith("owner", "admin");
    const admin = users[1]!;
    const asAdmin = await inviteAs(team.id, admin.id, "admin");
    const asMember = await inviteAs(team.id, admin.id, "member");
    const byOwner = await inviteAs(team.id, users[0]!.id, "admin");

    assert.equal(await changeMembership({ teamId: team.id, userId: admin.id, role: null, actor: OWNER_ACTOR }), true);
    assert.equal(await findOpenInvite(asAdmin.token), null);
    assert.equal(await findOpenInvite(asMember.token), null);
    assert.ok(await findOpenInvite(byOwner.token), "other members' invites stay");
    assert.deepEqual(
      (await listPendingInvites(team.id)).map((invite) => invite.email),
      [byOwner.email],
    );
    assert.deepEqual((await acceptInviteWithNewAccount({ token: asAdmin.token, password: PASSWORD, ip: "203.0.113.2" })).ok, false);
    assert.equal(await db().user.count({ where: { email: asAdmin.email } }), 0);

    const events = await revocations(team.id);
    assert.equal(events.length, 2);
    for (const event of events) {
      assert.equal(event.via, "web");
      assert.equal(event.ip, "203.0.113.1");
      assert.equal((event.details as { reason: string }).reason, "inviter_removed");
    }
    assert.deepEqual(events.map((event) => (event.details as { email: string }).email).sort(), [asAdmin.email, asMember.email].sort());
  });

  test("losing the right to invite a role revokes exactly those invites", async () => {
    const { team, users } = await teamWith("owner", "owner");
    const demoted = users[1]!;
    const owner = await inviteAs(team.id, demoted.id, "owner");
    const admin = await inviteAs(team.id, demoted.id, "admin");
    const member = await inviteAs(team.id, demoted.id, "member");

    // Owner → admin: may still invite admins and members.
    await changeMembership({ teamId: team.id, userId: demoted.id, role: "admin", actor: OWNER_ACTOR });
    assert.equal(await findOpenInvite(owner.token), null);
    assert.ok(await findOpenInvite(admin.token));
    assert.ok(await findOpenInvite(member.token));

    // Admin → member: invites no one.
    await changeMembership({ teamId: team.id, userId: demoted.id, role: "member", actor: OWNER_ACTOR });
    assert.equal(await findOpenInvite(admin.token), null);
    assert.equal(await findOpenInvite(member.token), null);

    const events = await revocations(team.id);
    assert.deepEqual(
      events
        .map((event) => event.details as { role: string; reason: string })
        .map(({ role, reason }) => [role, reason])
        .sort(),
      [
        ["admin", "inviter_role_changed"],
        ["member", "inviter_role_changed"],
        ["owner", "inviter_role_changed"],
      ],
    );
  });

  test("a promotion revokes nothing", async () => {
    const { team, users } = await teamWith("owner", "admin");
    const invite = await inviteAs(team.id, users[1]!.id, "member");
    await changeMembership({ teamId: team.id, userId: users[1]!.id, role: "owner", actor: OWNER_ACTOR });
    assert.ok(await findOpenInvite(invite.token));
    assert.deepEqual(await revocations(team.id), []);
  });

  test("an invite whose creator lost the right some other way (e.g. before this rule) is refused at acceptance", async () => {
    const { team, users } = await teamWith("owner", "admin");
    const invitee = await createUser({ email: `later-${++count}@example.test`, password: PASSWORD });
    const created = await createInvite({ teamId: team.id, email: invitee.email, role: "admin", createdById: users[1]!.id });
    assert.notEqual(created, "already-member");
    // Bypass changeMembership, as an older version of the app did.
    await db().membership.deleteMany({ where: { teamId: team.id, userId: users[1]!.id } });
    assert.equal(await findOpenInvite((created as CreatedInvite).token), null);
    assert.deepEqual(await acceptInviteAsUser({ token: (created as CreatedInvite).token, userId: invitee.id }), {
      ok: false,
      reason: "invalid",
    });
  });
});
