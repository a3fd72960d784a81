import { join } from "@prisma/client/runtime/client";
import { env } from "../env";
import { db, type Tx } from "../db/client";
import { API_SOURCE_NAME } from "./lead-sources";
import { isRole, type Role } from "./roles";
import { deleteTeamRollup } from "../dashboard/dashboard-rollup";

// Every database access for teams and memberships lives here, and nothing else: a store
// only stores. The audited changes are use cases beside it: team-changes.ts (a user
// creates a team), membership-changes.ts (roles and removals, with the last-owner rule),
// and lib/notifications/notification-changes.ts (a member's new-lead and assignment emails).

export { isRole, ROLES, type Role } from "./roles";

export type Team = { id: string; slug: string; name: string; defaultPhoneCountry: string | null };

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

export function isValidSlug(slug: string): boolean {
  return SLUG.test(slug);
}

type NewTeam = { slug: string; name: string; ownerUserId?: string; defaultPhoneCountry?: string | null };

/** Creates a team with its "API" lead source and, when given, its owner: all or nothing. */
export async function createTeam(options: NewTeam): Promise<Team> {
  // A store's own transaction: one data operation on its own rows (no rule, no audit; the audited creation is team-changes.ts).
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

/** The slugs taken that start with `prefix` (a new team's slug must be none of them). */
export async function takenSlugs(tx: Tx, prefix: string): Promise<Set<string>> {
  const rows = await tx.team.findMany({ where: { slug: { startsWith: prefix } }, select: { slug: true } });
  return new Set(rows.map((row) => row.slug));
}

export function findTeamBySlug(slug: string): Promise<Team | null> {
  return db().team.findUnique({
    where: { slug },
    select: { id: true, slug: true, name: true, defaultPhoneCountry: true },
  });
}

export async function deleteTeam(teamId: string): Promise<void> {
  await db().team.delete({ where: { id: teamId } });
  // The dashboard's rollup has no foreign key to Team (its leads' deletion, whose triggers
  // mark days, runs in the cascade): its rows go after.
  await deleteTeamRollup(teamId);
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

/** Every team's id and slug, by slug (the /api/metrics gauges). */
export async function listTeamSlugs(): Promise<{ id: string; slug: string }[]> {
  return db().team.findMany({ select: { id: true, slug: true }, orderBy: { slug: "asc" } });
}

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

/** Writes the team's general settings (Settings → General) in the caller's transaction; team-changes.ts audits them. */
export async function writeGeneralSettings(
  tx: Tx,
  options: { teamId: string; name: string; defaultPhoneCountry: string | null; repeatWindowDays: number },
): Promise<void> {
  await tx.team.update({
    where: { id: options.teamId },
    data: {
      name: options.name.trim(),
      defaultPhoneCountry: options.defaultPhoneCountry?.toUpperCase() ?? null,
      repeatWindowDays: options.repeatWindowDays,
    },
    select: { id: true },
  });
}

/** The team's repeat window in days (docs/leads.md "Repeat submissions"; 0: a repeat never joins a lead). */
export async function teamRepeatWindow(teamId: string, tx?: Tx): Promise<number> {
  const row = await (tx ?? db()).team.findUnique({ where: { id: teamId }, select: { repeatWindowDays: true } });
  return row?.repeatWindowDays ?? 0;
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

/**
 * Takes the team's row lock for the rest of the transaction (PostgreSQL: SELECT … FOR
 * UPDATE; SQLite transactions hold the database's write lock from BEGIN IMMEDIATE), so
 * that changes of the team's memberships run one after the other.
 */
export async function lockTeam(tx: Tx, teamId: string): Promise<void> {
  if (env().DATABASE_PROVIDER === "postgres") {
    await tx.$queryRaw`SELECT 1 FROM "Team" WHERE "id" = ${teamId} FOR UPDATE`;
  }
}

/** A member's role (as stored) and email; null when the user is not a member of the team. */
export async function findMemberRole(tx: Tx, options: { teamId: string; userId: string }): Promise<{ role: string; email: string } | null> {
  const row = await tx.membership.findUnique({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    select: { role: true, user: { select: { email: true } } },
  });
  return row && { role: row.role, email: row.user.email };
}

/** Sets a member's role, or deletes the membership (role null). */
export async function writeMembership(tx: Tx, options: { teamId: string; userId: string; role: Role | null }): Promise<void> {
  const where = { userId_teamId: { userId: options.userId, teamId: options.teamId } };
  if (options.role === null) await tx.membership.delete({ where });
  else await tx.membership.update({ where, data: { role: options.role } });
}

/**
 * The roles of these users in the team (the members among them), their memberships locked
 * against removal until `tx` ends (a lead's owner must stay a member: lib/leads/lead-ownership.ts).
 * PostgreSQL: FOR SHARE, so a removal (which deletes the row) waits for the change to commit
 * and then releases what it assigned; SQLite: the transaction holds the write lock.
 */
export async function lockMemberRoles(tx: Tx, teamId: string, userIds: readonly string[]): Promise<Map<string, string>> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return new Map();
  if (env().DATABASE_PROVIDER === "postgres") {
    await tx.$queryRaw`SELECT 1 FROM "Membership" WHERE "teamId" = ${teamId} AND "userId" IN (${join(ids)}) FOR SHARE`;
  }
  const rows = await tx.membership.findMany({ where: { teamId, userId: { in: ids } }, select: { userId: true, role: true } });
  return new Map(rows.map((row) => [row.userId, row.role]));
}

/** The team's slug, as `tx` sees it (a webhook payload names the team by it). */
export async function findTeamSlug(tx: Tx, teamId: string): Promise<string> {
  const team = await tx.team.findUniqueOrThrow({ where: { id: teamId }, select: { slug: true } });
  return team.slug;
}

export async function countOwners(tx: Tx, teamId: string): Promise<number> {
  return tx.membership.count({ where: { teamId, role: "owner" } });
}

/** The member's choice of an email for every new lead of the team; false when not a member (the default). */
export async function newLeadEmailsEnabled(options: { userId: string; teamId: string }): Promise<boolean> {
  const membership = await db().membership.findUnique({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    select: { notifyNewLeads: true },
  });
  return membership?.notifyNewLeads ?? false;
}

/** Sets the member's new-lead emails inside `tx`; false when the user is not a member of the team. */
export async function writeNewLeadEmails(tx: Tx, options: { userId: string; teamId: string; enabled: boolean }): Promise<boolean> {
  const { count } = await tx.membership.updateMany({
    where: { userId: options.userId, teamId: options.teamId },
    data: { notifyNewLeads: options.enabled },
  });
  return count === 1;
}

/** The member's choice of an email when a lead is assigned to them (on by default); false when not a member. */
export async function assignmentEmailsEnabled(options: { userId: string; teamId: string }, tx?: Tx): Promise<boolean> {
  const membership = await (tx ?? db()).membership.findUnique({
    where: { userId_teamId: { userId: options.userId, teamId: options.teamId } },
    select: { notifyAssignments: true },
  });
  return membership?.notifyAssignments ?? false;
}

/** Sets the member's assignment emails inside `tx`; false when the user is not a member of the team. */
export async function writeAssignmentEmails(tx: Tx, options: { userId: string; teamId: string; enabled: boolean }): Promise<boolean> {
  const { count } = await tx.membership.updateMany({
    where: { userId: options.userId, teamId: options.teamId },
    data: { notifyAssignments: options.enabled },
  });
  return count === 1;
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
