import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db, type Tx } from "../db/client";
import { digestToken, newLinkToken } from "../users/link-token";
import { normaliseEmail } from "../users/user-store";
import { deletePendingInvites, hasMemberWithEmail, pendingInvitesOutside, replacePendingInvite } from "./invite-store";
import { invitableRoles, type Role } from "./roles";

// Invitations, the audited changes: making an invite (its link's token is shown once, to
// the inviter; the rows are invite-store.ts') and revoking the invites an inviter may no
// longer make. Accepting one is accept-invite.ts.

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
  if (await hasMemberWithEmail({ teamId: options.teamId, email })) return "already-member";
  const token = newLinkToken();
  const expiresAt = new Date(Date.now() + INVITE_LIFETIME_MS);
  await db().$transaction(async (tx) => {
    const inviteId = await replacePendingInvite(tx, {
      teamId: options.teamId,
      email,
      role: options.role,
      createdById: options.createdById,
      tokenDigest: digestToken(token),
      expiresAt,
    });
    await recordAuditEvent(
      {
        teamId: options.teamId,
        action: "member.invited",
        actor: options.actor ?? { userId: options.createdById, ip: null, via: "web" },
        targetId: inviteId,
        details: { email, role: options.role },
      },
      tx,
    );
  });
  return { token, email, role: options.role, expiresAt };
}

/**
 * Revokes the pending invites `inviterId` made in the team that `role` (their new role,
 * null once removed) no longer allows, each recorded as "member.invite_revoked", in the
 * caller's transaction (membership-changes.ts changeMembership).
 */
export async function revokeInvitesBeyondRights(
  tx: Tx,
  options: { teamId: string; inviterId: string; role: Role | null; actor: AuditActor },
): Promise<number> {
  const invites = await pendingInvitesOutside(tx, {
    teamId: options.teamId,
    inviterId: options.inviterId,
    roles: invitableRoles(options.role),
  });
  if (invites.length === 0) return 0;
  await deletePendingInvites(
    tx,
    invites.map((invite) => invite.id),
  );
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
