import { CLI_ACTOR, recordAuditEvent, type AuditActor } from "../audit/audit-log";
import { env } from "../env";
import { db, type Tx } from "../db/client";
import { revokeInvitesBeyondRights } from "./invite-store";
import { API_SOURCE_NAME } from "./lead-sources";
import { isRole, type Role } from "./roles";

// Every database access for teams and memberships lives here.

export { isRole, ROLES, type Role } from "./roles";

export type Team = { id: string; slug: string; name: string; defaultPhoneCountry: string | null };

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

type NewTeam = { slug: string; name: string; ownerUserId?: string; defaultPhoneCountry?: string | null };

/** Creates a team with its "API" lead source and, when given, its owner: all or nothing. */
export async function createTeam(options: NewTeam): Promise<Team> {
  return db().$transaction((tx) => createTeamIn(tx, options));
}

/** createTeam inside a transaction of the caller's (the seed's). */
export async function createTeamIn(tx: Tx, options: NewTeam): Promise<Team> {
  if (!isValidSlug(options.slug)) throw new Error(`Invalid team slug "${options.slug}"`);
  const team = await tx.team.create({
    data: {
      slug: options.slug,
      name: options.name,
      defaultPhoneCountry: options.defaultPhoneCountry?.toUpperCase() ?? null,
      sources: { create: { name: API_SOURCE_NAME, nameKey: API_SOURCE_NAME.toLowerCase() } },
    },
    select: { id: true, slug: true, name: true, defaultPhoneCountry: true },
  });
  if (options.ownerUserId) {
    await tx.membership.create({ data: { teamId: team.id, userId: options.ownerUserId, role: "owner" } });
  }
  return team;
}

export const TEAM_NAME_MAX = 100;

/** A slug from a team name: lower-case ASCII letters, digits and single hyphens, at most 40. */
export function slugFromName(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .slice(0, 40)
    .replace(/^-+|-+$/g, "");
  return slug || "team";
}

/**
 * A user creates a team (web UI or operator CLI): the team with its "API" source, the user
 * as its owner, and the audit event, all or nothing. The slug comes from the name; when it
 * is taken, "-2", "-3" … is added.
 */
export async function createOwnedTeam(options: { name: string; ownerUserId: string; actor?: AuditActor }): Promise<Team> {
  const name = options.name.trim().replace(/\s+/g, " ");
  if (!name || name.length > TEAM_NAME_MAX) throw new Error(`A team name has 1 to ${TEAM_NAME_MAX} characters`);
  const base = slugFromName(name);
  return db().$transaction(async (tx) => {
    const taken = new Set((await tx.team.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((t) => t.slug));
    let slug = base;
    for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 40 - String(n).length - 1).replace(/-+$/, "")}-${n}`;
    const team = await createTeamIn(tx, { slug, name, ownerUserId: options.ownerUserId });
    await recordAuditEvent(
      {
        teamId: team.id,
        action: "team.created",
        actor: options.actor ?? { userId: options.ownerUserId, ip: null, via: "web" },
        targetId: team.id,
        details: { name, slug },
      },
      tx,
    );
    return team;
  });
}

export function findTeamBySlug(slug: string): Promise<Team | null> {
  return db().team.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, defaultPhoneCountry: true },
  });
}

export async function deleteTeam(teamId: string): Promise<void> {
  await db().team.delete({ where: { id: teamId } });
}

export async function addMember(options: { teamId: string; userId: string; role: Role }): Promise<void> {
  await db().membership.upsert({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    create: options,
    update: { role: options.role },
  });
}

export type TeamMembership = { team: Team; role: Role };

/** The user's membership of the team with this slug, or null (also for an unknown team). */
export async function findMembership(options: { userId: string; slug: string }): Promise<TeamMembership | null> {
  const row = await db().membership.findFirst({
    where: { userId: options.userId, team: { slug: options.slug } },
    select: { role: true, team: { select: { id: true, slug: true, name: true, defaultPhoneCountry: true } } },
  });
  if (!row || !isRole(row.role)) return null;
  return { team: row.team, role: row.role };
}

export type TeamSummary = { slug: string; name: string; role: Role };

export async function listTeamsForUser(userId: string): Promise<TeamSummary[]> {
  const rows = await db().membership.findMany({
    where: { userId },
    select: { role: true, team: { select: { slug: true, name: true } } },
    orderBy: { team: { name: "asc" } },
  });
  return rows.flatMap((row) => (isRole(row.role) ? [{ slug: row.team.slug, name: row.team.name, role: row.role }] : []));
}

export async function updateTeamSettings(options: { teamId: string; name: string; defaultPhoneCountry: string | null }): Promise<void> {
  await db().team.update({
    where: { id: options.teamId },
    data: { name: options.name.trim(), defaultPhoneCountry: options.defaultPhoneCountry?.toUpperCase() ?? null },
  });
}

export type Member = { userId: string; email: string; name: string | null; role: Role; joinedAt: Date };

export async function listMembers(teamId: string): Promise<Member[]> {
  const rows = await db().membership.findMany({
    where: { teamId },
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
    orderBy: [{ createdAt: "asc" }],
  });
  return rows.map((row) => ({
    userId: row.user.id,
    email: row.user.email,
    name: row.user.name,
    role: isRole(row.role) ? row.role : "member",
    joinedAt: row.createdAt,
  }));
}

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
 * the member's pending invites their new role no longer allows are revoked with it.
 */
export async function changeMembership(options: {
  teamId: string;
  userId: string;
  role: Role | null;
  actor?: AuditActor;
}): Promise<boolean> {
  const where = { userId_teamId: { userId: options.userId, teamId: options.teamId } };
  return db().$transaction(
    async (tx) => {
      if (env().DATABASE_PROVIDER === "postgres") {
        await tx.$queryRaw`SELECT 1 FROM "Team" WHERE "id" = ${options.teamId} FOR UPDATE`;
      }
      const current = await tx.membership.findUnique({ where, select: { role: true, user: { select: { email: true } } } });
      if (!current) return false;
      if (options.role === null) await tx.membership.delete({ where });
      else await tx.membership.update({ where, data: { role: options.role } });
      if (current.role === "owner" && options.role !== "owner") {
        const owners = await tx.membership.count({ where: { teamId: options.teamId, role: "owner" } });
        if (owners === 0) throw new LastOwnerError();
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
                ? { email: current.user.email, role: current.role }
                : { email: current.user.email, from: current.role, to: options.role },
          },
          tx,
        );
        await revokeInvitesBeyondRights(tx, { teamId: options.teamId, inviterId: options.userId, role: options.role, actor });
      }
      return true;
    },
    { maxWait: 10_000, timeout: 10_000 },
  );
}

/** Teams that delete old leads (the retention job), and after how many days. */
export async function teamsWithRetention(): Promise<{ id: string; retentionDays: number }[]> {
  const rows = await db().team.findMany({ where: { retentionDays: { not: null } }, select: { id: true, retentionDays: true } });
  return rows.flatMap((row) => (row.retentionDays ? [{ id: row.id, retentionDays: row.retentionDays }] : []));
}

/** Sets (or, with null, clears) the team's lead retention in days. */
export async function setTeamRetention(teamId: string, retentionDays: number | null): Promise<void> {
  await db().team.update({ where: { id: teamId }, data: { retentionDays }, select: { id: true } });
}

export async function teamRetention(teamId: string): Promise<number | null> {
  const row = await db().team.findUnique({ where: { id: teamId }, select: { retentionDays: true } });
  return row?.retentionDays ?? null;
}
