import { db, type Tx } from "../db/client";
import { isUniqueViolation } from "../db/errors";
import { assertSignInAllowed, recordSignInFailure, SIGN_IN_THROTTLED } from "../rate-limit/sign-in-limits";
import { passwordProblem } from "../users/password-policy";
import { digestToken } from "../users/link-token";
import { newPasswordHash } from "../users/password";
import { canInvite, isRole, type Role } from "./roles";

// Accepting an invite link (docs/security.md "Invites"). The invite page never asks for an
// existing account's password: a new invitee sets one here; someone with an account signs
// in through /signin (throttled, logged) and accepts as that signed-in user. The page looks
// the same either way; whether the address has an account only shows once someone acts.

export type InviteForAcceptance = { email: string; role: Role; team: { slug: string; name: string } };

export type AcceptInviteResult =
  | { ok: true; email: string; teamSlug: string }
  | { ok: false; reason: "invalid" | "account-exists" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number }
  | { ok: false; reason: "weak-password"; problem: string }
  | { ok: false; reason: "other-address"; inviteEmail: string };

const INVALID = { ok: false, reason: "invalid" } as const;

type InviteRow = { id: string; teamId: string; email: string; role: string; createdById: string | null };

/** An invite stays valid only while its creator may still invite that role (removed or demoted: no). */
async function inviterStillMay(client: Tx, invite: InviteRow): Promise<boolean> {
  if (!isRole(invite.role)) return false;
  if (!invite.createdById) return true;
  const inviter = await client.membership.findUnique({
    where: { userId_teamId: { userId: invite.createdById, teamId: invite.teamId } },
    select: { role: true },
  });
  return canInvite(isRole(inviter?.role) ? inviter.role : null, invite.role);
}

async function openInviteRow(client: Tx, token: string): Promise<InviteRow | null> {
  const row = await client.invite.findFirst({
    where: { tokenDigest: digestToken(token), acceptedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, teamId: true, email: true, role: true, createdById: true },
  });
  return row && (await inviterStillMay(client, row)) ? row : null;
}

/** The open invite behind a link, or null when it is unknown, used, expired or its creator lost the right. */
export async function findOpenInvite(token: string): Promise<InviteForAcceptance | null> {
  const row = await openInviteRow(db(), token);
  if (!row || !isRole(row.role)) return null;
  const team = await db().team.findUniqueOrThrow({ where: { id: row.teamId }, select: { slug: true, name: true } });
  return { email: row.email, role: row.role, team };
}

/**
 * Claims the invite (a conditional update, so a link works once even when submitted twice
 * at once), lets `join` name the user, and adds the membership: all in one transaction.
 * Joining never lowers a role the user already has in the team.
 */
async function claimInvite(token: string, join: (tx: Tx, invite: InviteRow) => Promise<string>): Promise<AcceptInviteResult> {
  return db().$transaction(
    async (tx) => {
      const row = await openInviteRow(tx, token);
      if (!row || !isRole(row.role)) return INVALID;
      const { count } = await tx.invite.updateMany({ where: { id: row.id, acceptedAt: null }, data: { acceptedAt: new Date() } });
      if (count !== 1) return INVALID;
      const userId = await join(tx, row);
      await tx.membership.upsert({
        where: { userId_teamId: { userId, teamId: row.teamId } },
        create: { userId, teamId: row.teamId, role: row.role },
        update: {},
      });
      const team = await tx.team.findUniqueOrThrow({ where: { id: row.teamId }, select: { slug: true } });
      return { ok: true, email: row.email, teamSlug: team.slug } as const;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

function throttled(error: unknown): AcceptInviteResult | null {
  const match = error instanceof Error ? new RegExp(`^${SIGN_IN_THROTTLED}:(\\d+)$`).exec(error.message) : null;
  return match ? { ok: false, reason: "throttled", retryAfterSeconds: Number(match[1]) } : null;
}

/**
 * A new invitee creates their account with a password the server's policy accepts. When
 * the address already has an account nothing is created and no password is checked: the
 * answer is "sign in", counted as a failed sign-in for that address from this client, so
 * probing addresses through invite links costs what guessing on /signin costs.
 */
export async function acceptInviteWithNewAccount(options: {
  token: string;
  password: string;
  name?: string;
  ip: string;
}): Promise<AcceptInviteResult> {
  const invite = await findOpenInvite(options.token);
  if (!invite) return INVALID;
  try {
    await assertSignInAllowed(invite.email, options.ip);
  } catch (error) {
    const refused = throttled(error);
    if (refused) return refused;
    throw error;
  }
  if (await db().user.findUnique({ where: { email: invite.email }, select: { id: true } })) {
    await recordSignInFailure(invite.email, options.ip);
    return { ok: false, reason: "account-exists" };
  }
  const problem = passwordProblem(options.password, { email: invite.email });
  if (problem) return { ok: false, reason: "weak-password", problem };
  const passwordHash = await newPasswordHash(options.password, invite.email);
  try {
    return await claimInvite(options.token, async (tx, row) => {
      const user = await tx.user.create({
        data: { email: row.email, name: options.name?.trim() || null, passwordHash },
        select: { id: true },
      });
      return user.id;
    });
  } catch (error) {
    // The address got an account between the check and the claim.
    if (isUniqueViolation(error)) return { ok: false, reason: "account-exists" };
    throw error;
  }
}

/** The signed-in user accepts an invite made out to their own address. */
export async function acceptInviteAsUser(options: { token: string; userId: string }): Promise<AcceptInviteResult> {
  const invite = await findOpenInvite(options.token);
  if (!invite) return INVALID;
  const user = await db().user.findUnique({ where: { id: options.userId }, select: { email: true } });
  if (!user) return INVALID;
  if (user.email !== invite.email) return { ok: false, reason: "other-address", inviteEmail: invite.email };
  return claimInvite(options.token, async () => options.userId);
}
