import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, listAuditEvents } from "../audit/audit-log";
import { db } from "../db/client";
import { addMember, assignmentEmailsEnabled, createTeam, newLeadEmailsEnabled } from "../teams/team-store";
import { createUser } from "../users/user-store";
import { setAssignmentEmails, setNewLeadEmails } from "./notification-changes";

// A member's new-lead and assignment emails (notification-changes.ts): the choice and its
// audit event commit together; a user who is no member changes nothing and leaves no event.

await useTestDatabase();

test("a member's choice is stored with one audit event; a non-member's changes nothing", async () => {
  const team = await createTeam({ slug: "choices", name: "Choices" });
  const member = await createUser({ email: "member@example.test", password: "a-long-password-123" });
  const stranger = await createUser({ email: "stranger@example.test", password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });

  assert.equal(await setNewLeadEmails({ userId: stranger.id, teamId: team.id, enabled: true, actor: CLI_ACTOR }), false);
  assert.equal(await newLeadEmailsEnabled({ userId: stranger.id, teamId: team.id }), false);
  assert.deepEqual(await listAuditEvents(team.id), []);

  assert.equal(await setNewLeadEmails({ userId: member.id, teamId: team.id, enabled: true, actor: CLI_ACTOR }), true);
  assert.equal(await newLeadEmailsEnabled({ userId: member.id, teamId: team.id }), true);
  const [event, ...more] = await listAuditEvents(team.id);
  assert.deepEqual(more, []);
  assert.equal(event!.action, "notifications.changed");
  assert.equal(event!.targetId, member.id);
  assert.deepEqual(event!.details, { new_lead_emails: true });
});

test("a member's assignment emails: on by default; a change is audited and moves the team's routing version", async () => {
  const team = await createTeam({ slug: "assignment-choices", name: "Assignment choices" });
  const member = await createUser({ email: "assigned@example.test", password: "a-long-password-123" });
  const stranger = await createUser({ email: "stranger-2@example.test", password: "a-long-password-123" });
  await addMember({ teamId: team.id, userId: member.id, role: "member" });
  const version = async () => (await db().team.findUniqueOrThrow({ where: { id: team.id } })).routingVersion;
  const before = await version();
  assert.equal(await assignmentEmailsEnabled({ userId: member.id, teamId: team.id }), true, "on by default");

  assert.equal(await setAssignmentEmails({ userId: stranger.id, teamId: team.id, enabled: false, actor: CLI_ACTOR }), false);
  assert.equal(await version(), before);
  assert.deepEqual(await listAuditEvents(team.id), []);

  assert.equal(await setAssignmentEmails({ userId: member.id, teamId: team.id, enabled: false, actor: CLI_ACTOR }), true);
  assert.equal(await assignmentEmailsEnabled({ userId: member.id, teamId: team.id }), false);
  assert.equal(await version(), before + 1, "the intake's cached routing carries the choice");
  assert.equal(await newLeadEmailsEnabled({ userId: member.id, teamId: team.id }), false, "the other choice untouched");
  const [event, ...more] = await listAuditEvents(team.id);
  assert.deepEqual(more, []);
  assert.equal(event!.action, "notifications.changed");
  assert.deepEqual(event!.details, { assignment_emails: false });
});
