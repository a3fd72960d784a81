import { CLI_ACTOR, recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { wakeDeliveries } from "../jobs/wake";
import { releaseLeadsOfLeaver } from "../leads/lead-ownership";
import { bumpRoutingVersion } from "../routing/assignment-rule-store";
import { revokeInvitesBeyondRights } from "./invite-changes";
import type { Role } from "./roles";
import { countOwners, findMemberRole, lockTeam, writeMembership } from "./team-store";

// A member's role changes, or the member is removed: the last-owner rule (a team always
// keeps an owner), the audit event and the revocation of the member's invites their new
// role no longer allows, in one transaction; a removed member's leads become unassigned
// in it too (lib/leads/lead-ownership.ts). The rows are team-store.ts'.

export class LastOwnerError extends Error {
  constructor() {
    super("A team must keep at least one owner.");
    this.name = "LastOwnerError";
  }
}

/**
 * Changes a member's role, or removes the member (role null). Takes the team's row lock
 * first (PostgreSQL: SELECT … FOR UPDATE; SQLite transactions hold the database's write
 * lock from BEGIN IMMEDIATE) and re-counts owners inside the transaction, so of two
 * concurrent changes the second sees the first and no pair can leave the team without an
 * owner. A row lock rather than SERIALIZABLE: a serialization failure in an interactive
 * transaction left its pg connection checked out of the pool (Prisma 6.19 adapter-pg),
 * so the pool could never close and, in time, ran dry. Returns false when the user is not a member. A real change
 * is recorded ("member.role_changed" or "member.removed") in the same transaction, and
 * the member's pending invites their new role no longer allows are revoked with it. A removed
 * member's leads in the team become unassigned with it, each audited as "lead.assigned" to no
 * one by the same actor and sent as lead.updated.
 */
export async function changeMembership(options: {
  teamId: string;
  userId: string;
  role: Role | null;
  actor?: AuditActor;
}): Promise<boolean> {
  const member = { teamId: options.teamId, userId: options.userId };
  let jobs = 0;
  const changed = await db().$transaction(
    async (tx) => {
      await lockTeam(tx, options.teamId);
      const current = await findMemberRole(tx, member);
      if (!current) return false;
      await writeMembership(tx, { ...member, role: options.role });
      if (current.role === "owner" && options.role !== "owner" && (await countOwners(tx, options.teamId)) === 0) {
        throw new LastOwnerError();
      }
      if (current.role !== options.role) {
        const actor = options.actor ?? CLI_ACTOR;
        await recordAuditEvent(
          {
            teamId: options.teamId,
            action: options.role === null ? "member.removed" : "member.role_changed",
            actor,
            targetId: options.userId,
            details:
              options.role === null
                ? { email: current.email, role: current.role }
                : { email: current.email, from: current.role, to: options.role },
          },
          tx,
        );
        await revokeInvitesBeyondRights(tx, { teamId: options.teamId, inviterId: options.userId, role: options.role, actor });
        if (options.role === null) {
          ({ jobs } = await releaseLeadsOfLeaver(tx, { ...member, actor }));
          // The intake's cached routing of the team must forget the member (lib/routing/routing-snapshot.ts).
          await bumpRoutingVersion(tx, options.teamId);
        }
      }
      return true;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
  if (jobs) wakeDeliveries();
  return changed;
}
