import type { AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { addMember, createTeam, type Role } from "../teams/team-store";
import { createLead } from "./create-lead";

// Shared setup of the status and owner tests (lead-ownership*.test.ts): a team with an owner,
// an admin and two members, leads made the API's way, each lead's row and audit events. Not
// a test file itself; each test file calls useTestDatabase() before using any of this.

let count = 0;

/** A user who signs in on the web (no password: these tests never sign in). */
export async function makeUser(name: string | null = null) {
  const n = ++count;
  return db().user.create({
    data: { email: `user-${n}@example.com`, name, passwordHash: "x" },
    select: { id: true, email: true, name: true },
  });
}

export const actorOf = (user: { id: string }): AuditActor => ({ userId: user.id, ip: "203.0.113.7", via: "web" });

export async function makeTeam() {
  const n = ++count;
  const team = await createTeam({ slug: `owners-${n}`, name: `Owners ${n}` });
  const people: Record<"owner" | "admin" | "member" | "other", { id: string; email: string; name: string | null }> = {
    owner: await makeUser("Olive Owner"),
    admin: await makeUser("Adam Admin"),
    member: await makeUser("Mia Member"),
    other: await makeUser(null),
  };
  const roles: [keyof typeof people, Role][] = [
    ["owner", "owner"],
    ["admin", "admin"],
    ["member", "member"],
    ["other", "member"],
  ];
  for (const [who, role] of roles) await addMember({ teamId: team.id, userId: people[who].id, role });
  return { team, ...people };
}

export async function lead(teamId: string, name = "Ada Lovelace"): Promise<string> {
  return (await createLead({ team: { id: teamId, defaultPhoneCountry: null }, apiKeyId: null, input: { extraFields: {}, name } })).leadId;
}

/** A lead's status and owner columns as stored. */
export const row = (id: string) =>
  db().lead.findUniqueOrThrow({ where: { id }, select: { status: true, ownerId: true, assignedAt: true, firstContactedAt: true } });

/**
 * The team's audit events of status and owner changes: each call gives those written since
 * the previous one, by lead id, as [action, actor, lead, details].
 */
export function auditTrail(teamId: string) {
  const seen = new Set<string>();
  return async () => {
    const events = await db().auditEvent.findMany({
      where: { teamId, action: { in: ["lead.status_changed", "lead.assigned"] }, id: { notIn: [...seen] } },
      orderBy: { targetId: "asc" },
    });
    for (const event of events) seen.add(event.id);
    return events.map((event) => [event.action, event.actorUserId, event.targetId, event.details]);
  };
}
