import { db, type Tx } from "../db/client";
import { isRole, type Role } from "./roles";

// Every database access for invitations lives here, acceptance aside (accept-invite.ts),
// and nothing else: a store only stores. Making an invite and revoking the invites an
// inviter may no longer make, with their audit events, are invite-changes.ts. Only the
// SHA-256 digest of a link's token is stored.

/** Whether the team has a member with this (normalised) address. */
export async function hasMemberWithEmail(options: { teamId: string; email: string }): Promise<boolean> {
  const member = await db().membership.findFirst({
    where: { teamId: options.teamId, user: { email: options.email } },
    select: { id: true },
  });
  return member !== null;
}

/** Stores an invite in place of any pending one for the same address; returns its id. */
export async function replacePendingInvite(
  tx: Tx,
  invite: { teamId: string; email: string; role: Role; createdById: string; tokenDigest: string; expiresAt: Date },
): Promise<string> {
  await tx.invite.deleteMany({ where: { teamId: invite.teamId, email: invite.email, acceptedAt: null } });
  const created = await tx.invite.create({ data: invite, select: { id: true } });
  return created.id;
}

export type PendingInvite = { id: string; email: string; role: Role; createdAt: Date; expiresAt: Date; expired: boolean };

/** Invites not yet accepted, newest first; expired ones too, marked, so that a new link can be made for them. */
export async function listPendingInvites(teamId: string, now = new Date()): Promise<PendingInvite[]> {
  const rows = await db().invite.findMany({
    where: { teamId, acceptedAt: null },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((row) => ({ ...row, role: isRole(row.role) ? row.role : "member", expired: row.expiresAt <= now }));
}

/** One of the team's invites that is not accepted (expired or not), for a new link. */
export async function findUnacceptedInvite(options: { teamId: string; inviteId: string }): Promise<{ email: string; role: Role } | null> {
  const row = await db().invite.findFirst({
    where: { id: options.inviteId, teamId: options.teamId, acceptedAt: null },
    select: { email: true, role: true },
  });
  return row && isRole(row.role) ? { email: row.email, role: row.role } : null;
}

export async function revokeInvite(options: { teamId: string; inviteId: string }): Promise<boolean> {
  const { count } = await db().invite.deleteMany({ where: { id: options.inviteId, teamId: options.teamId, acceptedAt: null } });
  return count === 1;
}

/** The pending invites `inviterId` made in the team for a role outside `roles`. */
export async function pendingInvitesOutside(
  tx: Tx,
  options: { teamId: string; inviterId: string; roles: readonly Role[] },
): Promise<{ id: string; email: string; role: string }[]> {
  return tx.invite.findMany({
    where: { teamId: options.teamId, createdById: options.inviterId, acceptedAt: null, role: { notIn: [...options.roles] } },
    select: { id: true, email: true, role: true },
  });
}

/** Deletes these invites, those still pending. */
export async function deletePendingInvites(tx: Tx, ids: string[]): Promise<void> {
  await tx.invite.deleteMany({ where: { id: { in: ids }, acceptedAt: null } });
}
