import { createHash, randomBytes } from "node:crypto";
import { recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { db } from "../db/client";
import { verifyPassword } from "../users/password";
import { passwordProblem } from "../users/password-policy";
import { newPasswordHash, normaliseEmail } from "../users/user-store";
import { isRole, type Role } from "./team-store";

// Every database access for invitations lives here. The link's token is shown once,
// to the inviter; only its SHA-256 digest is stored (it has 256 random bits).

const INVITE_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

const digestToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

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
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITE_LIFETIME_MS);
  await db().$transaction(async (tx) => {
    await tx.invite.deleteMany({ where: { teamId: options.teamId, email, acceptedAt: null } });
    const invite = await tx.invite.create({
      data: { teamId: options.teamId, email, role: options.role, createdById: options.createdById, tokenDigest: digestToken(token), expiresAt },
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

export type PendingInvite = { id: string; email: string; role: Role; createdAt: Date; expiresAt: Date };

export async function listPendingInvites(teamId: string): Promise<PendingInvite[]> {
  const rows = await db().invite.findMany({
    where: { teamId, acceptedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, email: true, role: true, createdAt: true, expiresAt: true },
    orderBy: { createdAt: "desc" },
  });
  return rows.map((row) => ({ ...row, role: isRole(row.role) ? row.role : "member" }));
}

export async function revokeInvite(options: { teamId: string; inviteId: string }): Promise<boolean> {
  const { count } = await db().invite.deleteMany({ where: { id: options.inviteId, teamId: options.teamId, acceptedAt: null } });
  return count === 1;
}

export type InviteForAcceptance = {
  email: string;
  role: Role;
  team: { slug: string; name: string };
  /** The invitee already has an account: accepting asks for its password instead of a new one. */
  hasAccount: boolean;
};

/** The open invite behind a link, or null when it is unknown, used or expired. */
export async function findOpenInvite(token: string): Promise<InviteForAcceptance | null> {
  const invite = await db().invite.findFirst({
    where: { tokenDigest: digestToken(token), acceptedAt: null, expiresAt: { gt: new Date() } },
    select: { email: true, role: true, team: { select: { slug: true, name: true } } },
  });
  if (!invite || !isRole(invite.role)) return null;
  const user = await db().user.findUnique({ where: { email: invite.email }, select: { id: true } });
  return { email: invite.email, role: invite.role, team: invite.team, hasAccount: user !== null };
}

export type AcceptInviteResult =
  | { ok: true; email: string; teamSlug: string }
  | { ok: false; reason: "invalid" | "wrong-password" }
  | { ok: false; reason: "weak-password"; problem: string };

/**
 * Accepts an invite once: a new invitee sets a password (and gets an account), an
 * existing user confirms theirs. Claiming the invite is a conditional update inside the
 * transaction, so a link works once even when submitted twice at the same moment.
 */
export async function acceptInvite(options: { token: string; password: string; name?: string }): Promise<AcceptInviteResult> {
  const invite = await findOpenInvite(options.token);
  if (!invite) return { ok: false, reason: "invalid" };
  const existing = await db().user.findUnique({ where: { email: invite.email }, select: { id: true, passwordHash: true } });
  if (existing && !(await verifyPassword(options.password, existing.passwordHash))) {
    return { ok: false, reason: "wrong-password" };
  }
  // Whether the account is new is the database's answer, never the client's.
  const problem = existing ? null : passwordProblem(options.password, { email: invite.email });
  if (problem) return { ok: false, reason: "weak-password", problem };
  const passwordHash = existing ? null : await newPasswordHash(options.password, invite.email);

  return db().$transaction(
    async (tx) => {
      const now = new Date();
      const invites = await tx.invite.findMany({
        where: { tokenDigest: digestToken(options.token), acceptedAt: null, expiresAt: { gt: now } },
        select: { id: true, teamId: true },
      });
      const row = invites[0];
      if (!row) return { ok: false, reason: "invalid" } as const;
      const { count } = await tx.invite.updateMany({ where: { id: row.id, acceptedAt: null }, data: { acceptedAt: now } });
      if (count !== 1) return { ok: false, reason: "invalid" } as const;

      const userId =
        existing?.id ??
        (await tx.user.create({
          data: { email: invite.email, name: options.name?.trim() || null, passwordHash: passwordHash! },
          select: { id: true },
        })).id;
      // Joining never lowers a role the user already has in the team.
      await tx.membership.upsert({
        where: { userId_teamId: { userId, teamId: row.teamId } },
        create: { userId, teamId: row.teamId, role: invite.role },
        update: {},
      });
      return { ok: true, email: invite.email, teamSlug: invite.team.slug } as const;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}
