import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { digestToken, newLinkToken } from "../users/link-token";
import { normaliseEmail } from "../users/user-store";
import { invitableRoles, isRole, type Role } from "./roles";

// Every database access for invitations lives here, acceptance aside (accept-invite.ts).
// The link's token is shown once, to the inviter; only its SHA-256 digest is stored (it
// has 256 random bits).

const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type CreatedInvite = { token: string; email: string; role: Role; expiresAt: Date };

export type CreateInviteResult = CreatedInvite | "already-member";

/**
 * Creates an invite, replacing any pending one for the same address, and records
 * "member.invited" in the same transaction (actor: the inviter on the web by default).
 */
export async function createInvite(options: {
  teamId: string;
  email: string;
  role: Role;
  createdById: string;
  actor?: AuditActor;
}): Promise<CreateInviteResult> {
  const email = normaliseEmail(options.email);
  const member = await db().membership.findFirst({ where: { teamId: options.teamId, user: { email } }, select: { id: true } });
  if (member) return "already-member";
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + INVITE_LIFETIME_MS);
  await db().$transaction(async (tx) => {
    await tx.invite.deleteMany({ where: { teamId: options.teamId, email, acceptedAt: null } });
    const invite = await tx.invite.create({
      data: {
        teamId: options.teamId,
        email,
        role: options.role,
        createdById: options.createdById,
        tokenDigest: digestToken(token),
        expiresAt,
      },
      select: { id: true },
    });
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "member.invited",
        actor: options.actor ?? { userId: options.createdById, ip: null, via: "web" },
        targetId: invite.id,
        details: { email, role: options.role },
      },
      tx,
    );
  });
  return { token, email, role: options.role, expiresAt };
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

/**
 * Revokes the pending invites `inviterId` made in the team that `role` (their new role,
 * null once removed) no longer allows, each recorded as "member.invite_revoked", in the
 * caller's transaction (lib/teams/team-store.ts changeMembership).
 */
export async function revokeInvitesBeyondRights(
  tx: Tx,
  options: { teamId: string; inviterId: string; role: Role | null; actor: AuditActor },
): Promise<number> {
  const invites = await tx.invite.findMany({
    where: { teamId: options.teamId, createdById: options.inviterId, acceptedAt: null, role: { notIn: [...invitableRoles(options.role)] } },
    select: { id: true, email: true, role: true },
  });
  if (invites.length === 0) return 0;
  await tx.invite.deleteMany({ where: { id: { in: invites.map((invite) => invite.id) }, acceptedAt: null } });
  const reason = options.role === null ? "inviter_removed" : "inviter_role_changed";
  for (const invite of invites) {
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "member.invite_revoked",
        actor: options.actor,
        targetId: invite.id,
        details: { email: invite.email, role: invite.role, reason },
      },
      tx,
    );
  }
  return invites.length;
}
