import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { CLI_ACTOR, listAuditEvents } from "../audit/audit-log";
import { addMember, createTeam, newLeadEmailsEnabled } from "../teams/team-store";
import { createUser } from "../users/user-store";
import { setNewLeadEmails } from "./notification-changes";

// A member's new-lead emails (notification-changes.ts): the choice and its audit event
// commit together; a user who is no member changes nothing and leaves no event.

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
