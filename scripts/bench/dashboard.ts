import Database from "better-sqlite3";
import pg from "pg";
import { CHANNEL_GROUPS } from "../../lib/attribution/channel-groups";
import { channelGroupCounts, leadsOverTime, owners, spamPerDay, statusFunnel, topCampaigns } from "../../lib/dashboard/overview-store";
import type { OverviewRange } from "../../lib/dashboard/overview";
import { deleteTeamRollup } from "../../lib/dashboard/dashboard-rollup";
import { db } from "../../lib/db/client";
import { createLead } from "../../lib/leads/create-lead";
import { reserveLeadNumbersPostgres } from "../../lib/leads/lead-number-store";
import { databaseProvider, sqliteFilePath } from "../../lib/db/database-url";
import { addLeadSource } from "../../lib/teams/lead-sources";
import { addMember, createTeam } from "../../lib/teams/team-store";
import { workspaceCurrency } from "../../lib/workspace/settings";
import { measureQuery, type QueryResult } from "./lead-queries";

// BENCH_ONLY=dashboard: Leads → Overview's aggregates (lib/dashboard/overview-store.ts) over a
// team of `leads` leads spread evenly over the last 90 days, each query alone, in-process, one
// caller, for the 90-day range (docs/attribution.md "Dashboard queries and their speed").
//
// The rows are made by the database (INSERT … SELECT over generated numbers: a recursive CTE on
// SQLite, generate_series on PostgreSQL), the Lead indexes dropped before and rebuilt after, as
// scripts/bench/preload.ts does. The spread: ten channel groups (Paid Search the most), five
// sources, 40 campaigns (one lead in seven without one), a key, a deleted key, two forms or two
// connections per lead in turn, 30 % New / 25 % Contacted / 10 % Nurture / 15 % Qualified / 10 %
// Unqualified / 10 % Junk, five owners and the unassigned in turn, a first contact 1 to 600
// minutes after creation for every lead that left New. Audit history: one lead.status_changed
// event per lead that left New, and for half of the Unqualified and Junk ones a second: they were
// Qualified first (what "ever reached Qualified" reads). 20,000 quarantined submissions.

const DAY_MS = 24 * 60 * 60 * 1000;
const DAYS = 90;
const SPAM_ROWS = 20_000;

type Dialect = {
  /** createdAt: epoch milliseconds (an SQL expression) in the form Prisma stores. */
  time: (epochMs: string) => string;
  least: (a: string, b: string) => string;
  json: (pairs: [string, string][]) => string;
};

const SQLITE: Dialect = {
  time: (epochMs) => `strftime('%Y-%m-%dT%H:%M:%f+00:00', (${epochMs}) / 1000.0, 'unixepoch')`,
  least: (a, b) => `min(${a}, ${b})`,
  json: (pairs) => `json_object(${pairs.map(([k, v]) => `'${k}', ${v}`).join(", ")})`,
};

const POSTGRES: Dialect = {
  time: (epochMs) => `(to_timestamp((${epochMs}) / 1000.0) AT TIME ZONE 'UTC')`,
  least: (a, b) => `least(${a}, ${b})`,
  json: (pairs) => `jsonb_build_object(${pairs.map(([k, v]) => `'${k}', ${v}`).join(", ")})`,
};

export type DashboardTeam = {
  teamId: string;
  currency: string;
  sourceIds: string[];
  ownerIds: string[];
  apiKeyIds: string[];
  formIds: string[];
  connectionIds: string[];
};

const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
/** CASE over `i % values.length`. */
const pick = (i: string, values: (string | null)[]) =>
  `(CASE (${i}) % ${values.length} ${values.map((v, n) => `WHEN ${n} THEN ${v === null ? "NULL" : text(v)}`).join(" ")} END)`;

// Paid Search 6 in 20, Organic Search 4, Paid Social 2, Email 2, the other six 1 each.
const GROUP_WEIGHTS: Record<string, number> = { "Paid Search": 6, "Organic Search": 4, "Paid Social": 2, Email: 2 };
const GROUP_TURNS = CHANNEL_GROUPS.flatMap((group) => Array<string>(GROUP_WEIGHTS[group] ?? 1).fill(group));
// 30 % New, 25 % Contacted, 10 % Nurture, 15 % Qualified, 10 % Unqualified, 10 % Junk.
const STATUS_TURNS = [
  ...Array<string>(6).fill("new"),
  ...Array<string>(5).fill("contacted"),
  ...Array<string>(2).fill("nurture"),
  ...Array<string>(3).fill("qualified"),
  ...Array<string>(2).fill("unqualified"),
  ...Array<string>(2).fill("junk"),
];

/** Every Lead column the rows set, as expressions of `s` (the lead's number) and `i` (its place, from 0). */
function leadColumns(d: Dialect, team: DashboardTeam, firstSeq: number, startMs: number, stepMs: number, nowMs: number) {
  const i = `(s - ${firstSeq})`;
  const created = `(${startMs} + CAST(${i} AS BIGINT) * ${stepMs})`;
  const status = pick(`(${i} / 7)`, STATUS_TURNS);
  const channel = (n: number, values: string[]) => `(CASE WHEN ${i} % 3 = ${n} THEN ${pick(`(${i} / 3)`, values)} END)`;
  return {
    id: `('CRM-LEAD-' || s)`,
    seq: "s",
    teamId: text(team.teamId),
    firstName: `('Lead ' || s)`,
    organization: text(""),
    sourceId: pick(i, team.sourceIds),
    currency: text(team.currency),
    extraFields: text("{}"),
    createdAt: d.time(created),
    channelGroup: pick(i, GROUP_TURNS),
    firstChannelGroup: pick(`(${i} / 2)`, GROUP_TURNS),
    utmCampaign: `(CASE WHEN ${i} % 7 = 0 THEN NULL ELSE ('campaign-' || (${i} % 40)) END)`,
    apiKeyId: channel(0, team.apiKeyIds),
    formId: channel(1, team.formIds),
    connectionId: channel(2, team.connectionIds),
    status,
    ownerId: pick(`(${i} / 11)`, [...team.ownerIds, null]),
    firstContactedAt: `(CASE WHEN ${status} <> 'new' THEN ${d.time(d.least(`${created} + (((${i} % 1000) * 7919) % 600 + 1) * 60000`, String(nowMs)))} END)`,
  };
}

/** The team, its sources, owners, keys (one of them deleted), forms and connections. */
export async function dashboardTeam(): Promise<DashboardTeam> {
  const team = await createTeam({ slug: `dashboard-${Date.now()}`, name: "Dashboard bench" });
  const sourceIds: string[] = [];
  for (const name of ["Website", "Webinar", "Partner", "Trade show", "Ads"]) sourceIds.push((await addLeadSource(team.id, name)).id);
  const ownerIds: string[] = [];
  for (let n = 1; n <= 5; n++) {
    const user = await db().user.create({
      data: { email: `dash-owner-${team.id}-${n}@example.com`, name: `Owner ${n}`, passwordHash: "x" },
    });
    await addMember({ teamId: team.id, userId: user.id, role: "member" });
    ownerIds.push(user.id);
  }
  const key = await db().apiKey.create({
    data: { id: `team_dash${Date.now()}`, teamId: team.id, description: "Website form", secretDigest: "x", secretPrefix: "x" },
  });
  const formIds: string[] = [];
  for (const name of ["Contact", "Demo request"]) {
    formIds.push(
      (await db().webForm.create({ data: { id: `form_${name.length}${Date.now()}`, teamId: team.id, name, allowedOrigins: [] } })).id,
    );
  }
  const connectionIds: string[] = [];
  for (const name of ["Tally", "Typeform"]) {
    const row = await db().connection.create({
      data: { teamId: team.id, builder: "generic", name, tokenDigest: `dash-${name}-${Date.now()}`, tokenHint: "abcd", mapping: {} },
    });
    connectionIds.push(row.id);
  }
  return {
    teamId: team.id,
    currency: await workspaceCurrency(),
    sourceIds,
    ownerIds,
    apiKeyIds: [key.id, "team_deleted_key"],
    formIds,
    connectionIds,
  };
}

/** The statements that fill the team: its leads (numbers first … last), their audit events, the quarantine. `numbers`: a WITH clause of n(s). */
function seedStatements(
  d: Dialect,
  team: DashboardTeam,
  first: number,
  last: number,
  nowMs: number,
  numbers: (from: number, to: number) => string,
) {
  const stepMs = Math.floor((DAYS * DAY_MS) / (last - first + 1));
  const startMs = nowMs - (last - first + 1) * stepMs;
  const columns = leadColumns(d, team, first, startMs, stepMs, nowMs);
  const names = Object.keys(columns)
    .map((c) => `"${c}"`)
    .join(", ");
  const leads = `${numbers(first, last)} INSERT INTO "Lead" (${names}) SELECT ${Object.values(columns).join(", ")} FROM n`;
  const event = (id: string, from: string, to: string, where: string) =>
    `INSERT INTO "AuditEvent" ("id", "teamId", "action", "via", "targetId", "details", "createdAt")
     SELECT ${id}, "teamId", 'lead.status_changed', 'web', "id", ${d.json([
       ["from", from],
       ["to", to],
     ])}, "firstContactedAt" FROM "Lead" WHERE "teamId" = ${text(team.teamId)} AND "status" <> 'new'${where}`;
  const wasQualified = ` AND "status" IN ('unqualified', 'junk') AND "seq" % 2 = 0`;
  const spamStep = Math.floor((DAYS * DAY_MS) / SPAM_ROWS);
  const spam = `${numbers(1, SPAM_ROWS)} INSERT INTO "QuarantinedLead" ("id", "seq", "teamId", "name", "lead", "source", "score", "reasons", "createdAt")
     SELECT ('SPAM-${team.teamId}-' || s), s, ${text(team.teamId)}, 'Spammer', ${d.json([])}, ${d.json([])}, 10, ${text("[]")}, ${d.time(`${nowMs - SPAM_ROWS * spamStep} + CAST(s AS BIGINT) * ${spamStep}`)} FROM n`;
  return [
    leads,
    event(
      `('ae1-' || "seq")`,
      `'new'`,
      `(CASE WHEN "status" IN ('unqualified', 'junk') AND "seq" % 2 = 0 THEN 'qualified' ELSE "status" END)`,
      "",
    ),
    event(`('ae2-' || "seq")`, `'qualified'`, `"status"`, wasQualified),
    spam,
  ];
}

/** Fills the team with `total` leads over the last 90 days (see the top of the file); seconds taken. */
export async function seedDashboard(databaseUrl: string, team: DashboardTeam, total: number): Promise<number> {
  const started = performance.now();
  const nowMs = Date.now();
  if (databaseProvider(databaseUrl) === "postgres") {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const indexes = await client.query<{ name: string; sql: string }>(
        `SELECT indexname AS name, indexdef AS sql FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'Lead' AND indexname <> 'Lead_pkey'`,
      );
      await client.query("BEGIN");
      const first = await reserveLeadNumbersPostgres(client, total);
      const last = first + total - 1;
      for (const index of indexes.rows) await client.query(`DROP INDEX "${index.name}"`);
      for (const statement of seedStatements(
        POSTGRES,
        team,
        first,
        last,
        nowMs,
        (from, to) => `WITH n(s) AS (SELECT generate_series(${from}, ${to}))`,
      ))
        await client.query(statement);
      for (const index of indexes.rows) await client.query(index.sql);
      await client.query("COMMIT");
      // Index-only scans need the visibility map: a freshly loaded table has none until vacuumed.
      await client.query(`VACUUM ANALYZE "Lead", "AuditEvent", "QuarantinedLead"`);
    } finally {
      await client.end();
    }
  } else {
    const database = new Database(sqliteFilePath(databaseUrl), { timeout: 10_000 });
    try {
      database.pragma("cache_size = -262144");
      database.pragma("temp_store = MEMORY");
      database.pragma("synchronous = OFF");
      const indexes = database
        .prepare(`SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Lead' AND "sql" IS NOT NULL`)
        .all() as { name: string; sql: string }[];
      database
        .transaction(() => {
          const counter = database.prepare(`SELECT "value" FROM "Counter" WHERE "name" = 'lead'`).get() as { value: number } | undefined;
          const first = (counter?.value ?? 0) + 1;
          const last = first + total - 1;
          for (const index of indexes) database.exec(`DROP INDEX "${index.name}"`);
          const numbers = (from: number, to: number) =>
            `WITH RECURSIVE n(s) AS (SELECT CAST(${from} AS INTEGER) UNION ALL SELECT s + 1 FROM n WHERE s < ${to})`;
          for (const statement of seedStatements(SQLITE, team, first, last, nowMs, numbers)) database.exec(statement);
          for (const index of indexes) database.exec(index.sql);
          database
            .prepare(
              `INSERT INTO "Counter" ("name", "value") VALUES ('lead', ?) ON CONFLICT ("name") DO UPDATE SET "value" = max("value", excluded."value")`,
            )
            .run(last);
        })
        .immediate();
      database.pragma("wal_checkpoint(TRUNCATE)");
    } finally {
      database.close();
    }
  }
  return (performance.now() - started) / 1000;
}

export type DashboardQuery = { id: string; label: string; run: () => Promise<unknown> };

/** Each aggregate of the page for the last 90 days (UTC days: from 89 days before today to tomorrow's midnight). */
export function dashboardQueries(teamId: string, now = new Date()): { range: OverviewRange; queries: DashboardQuery[] } {
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  const range = { from: new Date(to.getTime() - DAYS * DAY_MS), to };
  const queries: DashboardQuery[] = [
    {
      id: "over-time-day-group",
      label: "Leads over time, by day, by channel group",
      run: () => leadsOverTime(teamId, range, "day", "channelGroup"),
    },
    {
      id: "over-time-week-source",
      label: "Leads over time, by week, by source",
      run: () => leadsOverTime(teamId, range, "week", "source"),
    },
    { id: "over-time-day-key", label: "Leads over time, by day, by API key", run: () => leadsOverTime(teamId, range, "day", "apiKey") },
    { id: "channel-groups", label: "Channel groups, this period and the previous", run: () => channelGroupCounts(teamId, range) },
    {
      id: "campaigns",
      label: "Top 10 campaigns (leads, ever qualified, median time to contact)",
      run: () => topCampaigns(teamId, range, 10),
    },
    { id: "funnel", label: "Status funnel (ever contacted, ever qualified)", run: () => statusFunnel(teamId, range) },
    { id: "owners", label: "Owners (assigned, contacted, median time to contact)", run: () => owners(teamId, range) },
    { id: "spam", label: "Spam per day", run: () => spamPerDay(teamId, range) },
    {
      id: "page",
      label: "The whole page: all of the above but the two other breakdowns, at once",
      run: () =>
        Promise.all([
          leadsOverTime(teamId, range, "day", "channelGroup"),
          channelGroupCounts(teamId, range),
          topCampaigns(teamId, range, 10),
          statusFunnel(teamId, range),
          owners(teamId, range),
          spamPerDay(teamId, range),
        ]),
    },
  ];
  return { range, queries };
}

/** Creates through the lead writer, in-process, timed per call (the triggers' cost at intake). */
async function createCost(teamId: string, duration: number, warmup: number): Promise<QueryResult> {
  let n = 0;
  return measureQuery(
    () =>
      createLead({ team: { id: teamId, defaultPhoneCountry: null }, apiKeyId: null, input: { extraFields: {}, name: `Trigger ${++n}` } }),
    duration,
    warmup,
  );
}

/** Turns the rollup's triggers on Lead off or back on (SQLite has no switch: they are dropped and made again). */
async function setTriggers(databaseUrl: string, on: boolean, saved: { name: string; sql: string }[]): Promise<void> {
  if (databaseProvider(databaseUrl) === "postgres") {
    await db().$executeRawUnsafe(`ALTER TABLE "Lead" ${on ? "ENABLE" : "DISABLE"} TRIGGER USER`);
    return;
  }
  if (on) {
    for (const trigger of saved) await db().$executeRawUnsafe(trigger.sql);
    return;
  }
  saved.splice(
    0,
    saved.length,
    ...(await db().$queryRawUnsafe<{ name: string; sql: string }[]>(
      `SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'trigger' AND "tbl_name" = 'Lead'`,
    )),
  );
  for (const trigger of saved) await db().$executeRawUnsafe(`DROP TRIGGER "${trigger.name}"`);
}

export type DashboardResult = { query: DashboardQuery; cold: number; result: QueryResult };

/**
 * The team made and filled, then each query measured: its first call with the team's rollup
 * deleted (cold: every settled day recomputed) and then p50 and p99 of the calls after (warm);
 * last, a lead write's cost with the rollup's triggers and without them, alternately, twice.
 */
export async function dashboardBench(options: {
  databaseUrl: string;
  leads: number;
  duration: number;
  warmup: number;
}): Promise<{ seedSeconds: number; results: DashboardResult[]; create: { triggers: QueryResult; none: QueryResult }[] }> {
  const team = await dashboardTeam();
  const seedSeconds = await seedDashboard(options.databaseUrl, team, options.leads);
  console.log(`Dashboard: seeded ${options.leads.toLocaleString("en-US")} leads in ${seedSeconds.toFixed(1)} s`);
  const { queries } = dashboardQueries(team.teamId);
  const results: DashboardResult[] = [];
  for (const query of queries) {
    let result: QueryResult;
    let cold = NaN;
    try {
      await deleteTeamRollup(team.teamId);
      const started = performance.now();
      await query.run();
      cold = Math.round(performance.now() - started);
      result = await measureQuery(query.run, options.duration, options.warmup);
    } catch (error) {
      // A failure (PostgreSQL's statement timeout, DB_STATEMENT_TIMEOUT_MS): the row says so.
      console.log(
        `Dashboard ${query.id} failed: ${error instanceof Error ? error.message.split("\n").filter(Boolean).at(-1) : String(error)}`,
      );
      result = { opsPerSec: 0, p50: NaN, p99: NaN, calls: 0, errors: 1 };
    }
    console.log(
      `Dashboard ${query.id}: cold ${cold} ms; warm p50 ${result.p50} ms, p99 ${result.p99} ms (${result.calls} calls, ${result.errors} errors)`,
    );
    results.push({ query, cold, result });
  }
  const create: { triggers: QueryResult; none: QueryResult }[] = [];
  const saved: { name: string; sql: string }[] = [];
  for (let round = 0; round < 2; round++) {
    const triggers = await createCost(team.teamId, options.duration, options.warmup);
    await setTriggers(options.databaseUrl, false, saved);
    const none = await createCost(team.teamId, options.duration, options.warmup);
    await setTriggers(options.databaseUrl, true, saved);
    console.log(`Dashboard create (round ${round + 1}): with the triggers p50 ${triggers.p50} ms, without ${none.p50} ms`);
    create.push({ triggers, none });
  }
  return { seedSeconds, results, create };
}
