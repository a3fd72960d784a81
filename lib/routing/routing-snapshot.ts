import type Database from "better-sqlite3";
import type pg from "pg";
import { driver, preparedPerConnection, readDriverBoolean, readDriverTime } from "../db/driver";
import { log } from "../log/logger";
import { parseWorkingHours } from "./availability";
import { RULE_MODES, type Routing, type RoutingMember, type RoutingRule, type RuleMode } from "./route-lead";
import { compileCondition, conditionSchema } from "./rule-conditions";

// A team's routing as the intake reads it (docs/routing.md "At intake"): its enabled rules in
// order, its fallback member and its members' availability and choice of assignment emails
// (so the lead's transaction queues the owner's email with no statement more), read on the
// database driver in the lead's own transaction and kept per process under the team's
// routingVersion. Every change that can change whom a lead goes to, or whether they hear of
// it, bumps that version (the rules and the fallback: assignment-rule-store.ts; a member's
// availability: lib/users/availability-store.ts; a membership: lib/teams/membership-changes.ts;
// a member's assignment emails: lib/notifications/notification-changes.ts), and the lead's
// transaction reads the version with the lead, so a cached routing is used only while it is
// the team's current one.

const SQL = {
  team: `SELECT "routingVersion", "routingFallbackUserId" FROM "Team" WHERE "id" = ?`,
  rules: `SELECT "id", "name", "conditions", "mode", "userIds", "fallbackUserId", "fallbackLater" FROM "AssignmentRule"
    WHERE "teamId" = ? AND "enabled" ORDER BY "position", "id"`,
  members: `SELECT u."id", u."email", u."name", u."away", u."awayUntil", u."workingHours", m."notifyAssignments" FROM "Membership" m JOIN "User" u ON u."id" = m."userId"
    WHERE m."teamId" = ?`,
};

const postgresText = (sql: string) => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

const POSTGRES = {
  team: { name: "routing_team", text: postgresText(SQL.team) },
  rules: { name: "routing_rules", text: postgresText(SQL.rules) },
  members: {
    name: "routing_members",
    text: postgresText(SQL.members).replace('u."awayUntil"', '(EXTRACT(EPOCH FROM u."awayUntil") * 1000)::float8 AS "awayUntil"'),
  },
};

type TeamRow = { routingVersion: number | string; routingFallbackUserId: string | null };
type RuleRow = {
  id: string;
  name: string;
  conditions: unknown;
  mode: string;
  userIds: unknown;
  fallbackUserId: string | null;
  fallbackLater: unknown;
};
type MemberRow = {
  id: string;
  email: string;
  name: string | null;
  away: unknown;
  awayUntil: unknown;
  workingHours: unknown;
  notifyAssignments: unknown;
};

/** A boolean column: 0/1 on SQLite, true/false on PostgreSQL. */

/** JSON text (SQLite) or an already parsed jsonb value (PostgreSQL). */
function readJson(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
}

/** A stored rule, or null (logged) when it cannot be read: such a rule never matches. */
function readRule(row: RuleRow): RoutingRule | null {
  const conditions = readJson(row.conditions);
  const userIds = readJson(row.userIds);
  const parsed = Array.isArray(conditions) ? conditions.map((condition) => conditionSchema.safeParse(condition)) : null;
  const mode = (RULE_MODES as readonly string[]).includes(row.mode) ? (row.mode as RuleMode) : null;
  if (
    !parsed ||
    parsed.some((result) => !result.success) ||
    !mode ||
    !Array.isArray(userIds) ||
    !userIds.every((id) => typeof id === "string")
  ) {
    log("warn", "routing.rule_unreadable", { ruleId: row.id });
    return null;
  }
  return {
    id: row.id,
    name: row.name,
    conditions: parsed.map((result) => compileCondition(result.data!)),
    mode,
    userIds: userIds as string[],
    fallbackUserId: row.fallbackUserId,
    fallbackLater: readDriverBoolean(row.fallbackLater),
  };
}

/** The routing from its rows (either database's). */
export function routingFromRows(team: TeamRow, rules: readonly RuleRow[], members: readonly MemberRow[]): Routing {
  const availability = new Map<string, RoutingMember>();
  for (const member of members) {
    availability.set(member.id, {
      email: member.email,
      name: member.name,
      away: readDriverBoolean(member.away),
      awayUntil: readDriverTime(member.awayUntil),
      workingHours: parseWorkingHours(readJson(member.workingHours)),
      notifyAssignments: readDriverBoolean(member.notifyAssignments),
    });
  }
  return {
    version: Number(team.routingVersion),
    rules: rules.map(readRule).filter((rule): rule is RoutingRule => rule !== null),
    fallbackUserId: team.routingFallbackUserId,
    members: availability,
  };
}

// The routing of each team this process has taken leads for, with the version it was read at.
const cache = new Map<string, Routing>();
const CACHE_LIMIT = 10_000;

function keep(teamId: string, routing: Routing): Routing {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(teamId, routing);
  return routing;
}

/** The team's routing as this process last read it, whatever its version; undefined when it never did. */
export function cachedRouting(teamId: string): Routing | undefined {
  return cache.get(teamId);
}

type SqliteStatements = { team: Database.Statement; rules: Database.Statement; members: Database.Statement };
const statementsOf = preparedPerConnection((database): SqliteStatements => {
  const prepare = (sql: string) => database.prepare(sql).safeIntegers(false);
  return { team: prepare(SQL.team), rules: prepare(SQL.rules), members: prepare(SQL.members) };
});

/** The team's current routing, inside the lead's SQLite transaction (one indexed read when cached). */
export function routingSqlite(database: Database.Database, teamId: string): Routing | null {
  const s = statementsOf(database);
  const team = s.team.get(teamId) as TeamRow | undefined;
  if (!team) return null;
  const cached = cache.get(teamId);
  if (cached && cached.version === Number(team.routingVersion)) return cached;
  return keep(teamId, routingFromRows(team, s.rules.all(teamId) as RuleRow[], s.members.all(teamId) as MemberRow[]));
}

/**
 * The team's routing at `version` (read by the lead's statement), inside the lead's
 * PostgreSQL transaction: no statement at all while the cached one is current.
 */
export async function routingPostgres(client: pg.PoolClient, teamId: string, version: number): Promise<Routing | null> {
  const cached = cache.get(teamId);
  if (cached && cached.version === version) return cached;
  // One after another: a pg client runs one query at a time (queuing them is deprecated).
  const team = await client.query<TeamRow>({ ...POSTGRES.team, values: [teamId] });
  if (!team.rows[0]) return null;
  const rules = await client.query<RuleRow>({ ...POSTGRES.rules, values: [teamId] });
  const members = await client.query<MemberRow>({ ...POSTGRES.members, values: [teamId] });
  return keep(teamId, routingFromRows(team.rows[0], rules.rows, members.rows));
}

/** The team's routing as it is now, read afresh (Settings → Lead Routing's "Test a lead"); null when the team is gone. */
export async function loadRouting(teamId: string): Promise<Routing | null> {
  const d = await driver();
  if (d.provider === "sqlite") {
    return d.run((database) => {
      const s = statementsOf(database);
      const team = s.team.get(teamId) as TeamRow | undefined;
      return team ? routingFromRows(team, s.rules.all(teamId) as RuleRow[], s.members.all(teamId) as MemberRow[]) : null;
    });
  }
  const [team, rules, members] = await Promise.all([
    d.pool.query<TeamRow>({ ...POSTGRES.team, values: [teamId] }),
    d.pool.query<RuleRow>({ ...POSTGRES.rules, values: [teamId] }),
    d.pool.query<MemberRow>({ ...POSTGRES.members, values: [teamId] }),
  ]);
  return team.rows[0] ? routingFromRows(team.rows[0], rules.rows, members.rows) : null;
}
