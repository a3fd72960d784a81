import type { AuditActor } from "../audit/audit-log";
import type { Tx } from "../db/client";
import { isRole, type Role } from "./roles";
import { lockMemberRoles } from "./team-store";

/** The actor's role in the team, read in `tx` (held to its end on PostgreSQL): the operator's command line acts as an owner. */
export async function actorRole(tx: Tx, teamId: string, actor: AuditActor): Promise<Role | null> {
  if (actor.via === "cli" && actor.userId === null) return "owner";
  if (!actor.userId) return null;
  const role = (await lockMemberRoles(tx, teamId, [actor.userId])).get(actor.userId);
  return isRole(role) ? role : null;
}

/** Whether the actor is an owner or an admin of the team (who act on its leads and its spam). */
export async function actorManages(tx: Tx, teamId: string, actor: AuditActor): Promise<boolean> {
  const role = await actorRole(tx, teamId, actor);
  return role === "owner" || role === "admin";
}
