import type Database from "better-sqlite3";
import type pg from "pg";
import { PG_CAST, pgValue, sqliteValue, type ColumnType } from "../db/column-values";
import { driver, type Driver } from "../db/driver";
import { newJobId, type NewJob } from "../jobs/job-store";
import { LEAD_COLUMNS, type LeadColumn } from "../leads/lead-columns";
import { formatLeadId } from "../leads/lead-id";
import { LEAD_COUNTER, searchKeys, type NewLead } from "../leads/lead-store";
import { leadCreatedJobs } from "../notifications/lead-created-outbox";
import { LEAD_CREATED, type LeadOrigin } from "../webhooks/lead-created-event";
import { API_SOURCE_NAME, type LeadSource } from "../teams/lead-sources";
import { DEFAULT_CURRENCY } from "../workspace/settings";
import type { BodyEncoding } from "../request-log/request-log-store";

// The lead's statements of the intake's hot path, on the database driver itself instead of
// Prisma (docs/performance.md "The intake on the driver"; the API key's lookup is
// lib/api-keys/key-lookup-store.ts): the one transaction that stores a lead (its id from the counter, its source, the
// workspace currency, the lead, its request-log row, its outbox rows and, when the
// request brings them, the idempotent response and the spent proof-of-work challenge).
// SQLite runs that transaction synchronously with better-sqlite3 on Prisma's own
// connection, behind the adapter's lock; PostgreSQL sends it as BEGIN, one statement
// (CTEs), the extras, COMMIT, through Prisma's pool. Prisma owns the schema: the columns
// written here are checked against its model metadata (intake-store.test.ts).

/** The lead as the rules made it; the source and the currency are settled in the transaction. */
export type LeadFields = Omit<NewLead, "sourceId" | "currency">;

export type LeadWrite = {
  lead: LeadFields;
  /** A source chosen by the channel (a web form's), or the request's `source` field (spec 2.1). */
  source: { chosen: LeadSource } | { requested: string | undefined };
  /** The request-log row of the created lead (status 201), when the lead came over HTTP. */
  requestLog?: { apiKeyId: string | null; formId: string | null; ip: string | null; encoding: BodyEncoding } | null;
  /** An Idempotency-Key claim, completed with the response for the new lead id. */
  claim?: { id: string; token: string; response: (leadId: string) => { status: number; body: string }; lost: () => Error } | null;
  /** A proof-of-work solution, spent once. */
  spentChallenge?: { id: string; expiresAt: Date; replayed: () => Error } | null;
  /** What the "lead created" event says created the lead, and whether new-lead emails are sent (SMTP set). */
  events: { origin: LeadOrigin; emails: boolean };
  now: Date;
};

export type LeadWritten = { leadId: string; source: LeadSource; currency: string; jobs: number };

const API_SOURCE_KEY = API_SOURCE_NAME.toLowerCase();

/** Thrown inside the transaction when the team has no API source yet (it is made with Prisma, then the write is retried). */
export class MissingApiSource extends Error {}

export const API_REQUEST_COLUMNS = {
  teamId: "text",
  apiKeyId: "text",
  formId: "text",
  createdAt: "timestamp",
  status: "int",
  leadId: "text",
  error: "text",
  ip: "text",
  encoding: "text",
} as const satisfies Record<string, ColumnType>;
/** The autoincrement id. */
export const DEFAULTED_API_REQUEST_COLUMNS = ["id"] as const;

export const JOB_COLUMNS = {
  id: "text",
  teamId: "text",
  kind: "text",
  endpointId: "text",
  eventId: "text",
  eventType: "text",
  payload: "text",
  maxAttempts: "int",
  runAt: "timestamp",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;
export const SPENT_CHALLENGE_COLUMNS = { id: "text", expiresAt: "timestamp" } as const satisfies Record<string, ColumnType>;

/** A new job is pending, never tried, unclaimed. */
export const DEFAULTED_JOB_COLUMNS = ["state", "attempts", "lockedBy", "lockedUntil", "lastError", "finishedAt"] as const;

type LeadValues = { [K in LeadColumn]: unknown };

function leadValues(lead: LeadFields, id: string, seq: number, source: LeadSource, currency: string, now: Date): LeadValues {
  const full: NewLead = { ...lead, sourceId: source.id, currency };
  return { ...full, ...searchKeys(full), id, seq, createdAt: now };
}

function sourceKeys(source: LeadWrite["source"]): [string, string] | null {
  if ("chosen" in source) return null;
  const wanted = source.requested?.trim().toLowerCase();
  return [wanted || API_SOURCE_KEY, API_SOURCE_KEY];
}

type Recipients = { teamSlug: string; endpoints: string[]; subscribers: string[] };

function jobsFor(write: LeadWrite, leadId: string, lead: NewLead, sourceName: string, recipients: Recipients): NewJob[] {
  return leadCreatedJobs({
    endpoints: recipients.endpoints,
    subscribers: recipients.subscribers,
    team: { id: write.lead.teamId, slug: recipients.teamSlug },
    leadId,
    lead,
    sourceName,
    origin: write.events.origin,
    at: write.now,
  });
}

// ---------------------------------------------------------------------------------------
// SQLite: prepared statements per connection, one synchronous IMMEDIATE transaction.

const quote = (name: string) => `"${name}"`;

function insertSql(table: string, columns: Record<string, ColumnType>, placeholder: (i: number, type: ColumnType) => string): string {
  const names = Object.keys(columns);
  return `INSERT INTO ${quote(table)} (${names.map(quote).join(", ")}) VALUES (${names
    .map((name, i) => placeholder(i, columns[name]!))
    .join(", ")})`;
}

type SqliteStatements = ReturnType<typeof prepareSqlite> & { writeLead: ReturnType<typeof leadTransaction> };
const sqliteStatements = new WeakMap<Database.Database, SqliteStatements>();

function prepareSqlite(database: Database.Database) {
  const prepare = (sql: string) => database.prepare(sql).safeIntegers(false);
  return {
    source: prepare(`SELECT "id", "name", "nameKey" FROM "LeadSource" WHERE "teamId" = ? AND ("nameKey" = ? OR "nameKey" = ?)`),
    currency: prepare(`SELECT "currency" FROM "WorkspaceSettings" WHERE "id" = 1`),
    counter: prepare(`UPDATE "Counter" SET "value" = "value" + 1 WHERE "name" = '${LEAD_COUNTER}' RETURNING "value"`),
    lead: prepare(insertSql("Lead", LEAD_COLUMNS, () => "?")),
    request: prepare(insertSql("ApiRequest", API_REQUEST_COLUMNS, () => "?")),
    endpoints: prepare(`SELECT "id", "events" FROM "WebhookEndpoint" WHERE "teamId" = ? AND "enabled" = 1 ORDER BY "id"`),
    subscribers: prepare(`SELECT "userId" FROM "Membership" WHERE "teamId" = ? AND "notifyNewLeads" = 1 ORDER BY "userId"`),
    teamSlug: prepare(`SELECT "slug" FROM "Team" WHERE "id" = ?`),
    job: prepare(insertSql("Job", JOB_COLUMNS, () => "?")),
    claim: prepare(
      `UPDATE "IdempotencyRecord" SET "responseStatus" = ?, "responseBody" = ? WHERE "id" = ? AND "token" = ? AND "responseStatus" IS NULL`,
    ),
    challenge: prepare(`${insertSql("SpentChallenge", SPENT_CHALLENGE_COLUMNS, () => "?")} ON CONFLICT ("id") DO NOTHING`),
  };
}

function statementsOf(database: Database.Database): SqliteStatements {
  let statements = sqliteStatements.get(database);
  if (!statements) {
    const prepared = prepareSqlite(database);
    statements = { ...prepared, writeLead: leadTransaction(database, prepared) };
    sqliteStatements.set(database, statements);
  }
  return statements;
}

const rowValues = (columns: Record<string, ColumnType>, row: Record<string, unknown>) =>
  Object.keys(columns).map((name) => sqliteValue(columns[name]!, row[name]));

function writeLeadSqlite(database: Database.Database, write: LeadWrite): LeadWritten {
  return statementsOf(database).writeLead.immediate(write);
}

/** The lead's transaction, as one better-sqlite3 transaction function (prepared once per connection). */
function leadTransaction(database: Database.Database, s: Omit<SqliteStatements, "writeLead">) {
  return database.transaction((write: LeadWrite): LeadWritten => {
    const source = resolveSqliteSource(s, write);
    const currency = (s.currency.get() as { currency: string } | undefined)?.currency ?? DEFAULT_CURRENCY;
    const counter = s.counter.get() as { value: number } | undefined;
    if (!counter) throw new Error(`The "${LEAD_COUNTER}" counter row is missing`);
    const leadId = formatLeadId(counter.value);
    const values = leadValues(write.lead, leadId, counter.value, source, currency, write.now);
    s.lead.run(rowValues(LEAD_COLUMNS, values));
    if (write.requestLog) {
      s.request.run(
        rowValues(API_REQUEST_COLUMNS, {
          ...write.requestLog,
          teamId: write.lead.teamId,
          createdAt: write.now,
          status: 201,
          leadId,
          error: null,
        }),
      );
    }
    const endpoints = (s.endpoints.all(write.lead.teamId) as { id: string; events: string }[])
      .filter((row) => row.events.split(" ").includes(LEAD_CREATED))
      .map((row) => row.id);
    const subscribers = write.events.emails ? (s.subscribers.all(write.lead.teamId) as { userId: string }[]).map((row) => row.userId) : [];
    const teamSlug = () => (s.teamSlug.get(write.lead.teamId) as { slug: string }).slug;
    const jobs =
      endpoints.length || subscribers.length
        ? jobsFor(write, leadId, { ...write.lead, sourceId: source.id, currency }, source.name, {
            teamSlug: teamSlug(),
            endpoints,
            subscribers,
          })
        : [];
    for (const job of jobs)
      s.job.run(rowValues(JOB_COLUMNS, { ...job, id: newJobId(), endpointId: job.endpointId ?? null, createdAt: write.now }));
    if (write.claim) {
      const response = write.claim.response(leadId);
      if (s.claim.run(response.status, response.body, write.claim.id, write.claim.token).changes !== 1) throw write.claim.lost();
    }
    if (write.spentChallenge) {
      if (s.challenge.run(rowValues(SPENT_CHALLENGE_COLUMNS, write.spentChallenge)).changes !== 1) throw write.spentChallenge.replayed();
    }
    return { leadId, source, currency, jobs: jobs.length };
  });
}

function resolveSqliteSource(s: Omit<SqliteStatements, "writeLead">, write: LeadWrite): LeadSource {
  if ("chosen" in write.source) return write.source.chosen;
  const [wanted, api] = sourceKeys(write.source)!;
  const found = s.source.all(write.lead.teamId, wanted, api) as { id: string; name: string; nameKey: string }[];
  const match = found.find((row) => row.nameKey === wanted) ?? found.find((row) => row.nameKey === api);
  if (!match) throw new MissingApiSource();
  return { id: match.id, name: match.name };
}

// ---------------------------------------------------------------------------------------
// PostgreSQL: named prepared statements; BEGIN, one statement for the lead, the extras, COMMIT.

const pgRow = (columns: Record<string, ColumnType>, row: Record<string, unknown>) =>
  Object.keys(columns).map((name) => pgValue(columns[name]!, row[name]));

// The lead's columns other than those the statement computes (id, seq, source, currency).
const PG_LEAD_PARAMS = (Object.keys(LEAD_COLUMNS) as LeadColumn[]).filter((name) => !["id", "seq", "sourceId", "currency"].includes(name));
const PG_COMPUTED: Partial<Record<LeadColumn, string>> = {
  // formatLeadId: five digits at least.
  id: `'CRM-LEAD-' || CASE WHEN length(c."value"::text) < 5 THEN lpad(c."value"::text, 5, '0') ELSE c."value"::text END`,
  seq: `c."value"`,
  sourceId: `s."id"`,
  currency: `w."currency"`,
};

function pgLeadStatement(withSourceLookup: boolean): string {
  const base = PG_LEAD_PARAMS.length; // $1..$base: the lead's columns
  const p = {
    wanted: `$${base + 1}::text`,
    api: `$${base + 2}::text`,
    chosenId: `$${base + 1}::text`,
    chosenName: `$${base + 2}::text`,
    logWanted: `$${base + 3}::boolean`,
    logApiKey: `$${base + 4}::text`,
    logForm: `$${base + 5}::text`,
    logIp: `$${base + 6}::text`,
    logEncoding: `$${base + 7}::text`,
    emails: `$${base + 8}::boolean`,
  };
  const paramOf = (name: LeadColumn) => `$${PG_LEAD_PARAMS.indexOf(name) + 1}::${PG_CAST[LEAD_COLUMNS[name]]}`;
  const leadColumns = Object.keys(LEAD_COLUMNS) as LeadColumn[];
  const teamId = paramOf("teamId");
  const createdAt = paramOf("createdAt");
  const source = withSourceLookup
    ? `SELECT "id", "name" FROM "LeadSource" WHERE "teamId" = ${teamId} AND "nameKey" IN (${p.wanted}, ${p.api})
         ORDER BY ("nameKey" = ${p.wanted}) DESC LIMIT 1`
    : `SELECT ${p.chosenId} AS "id", ${p.chosenName} AS "name"`;
  return `
    WITH s AS (${source}),
    w AS (SELECT COALESCE((SELECT "currency" FROM "WorkspaceSettings" WHERE "id" = 1), '${DEFAULT_CURRENCY}') AS "currency"),
    c AS (UPDATE "Counter" SET "value" = "value" + 1 WHERE "name" = '${LEAD_COUNTER}' AND EXISTS (SELECT 1 FROM s) RETURNING "value"),
    l AS (
      INSERT INTO "Lead" (${leadColumns.map(quote).join(", ")})
      SELECT ${leadColumns.map((name) => PG_COMPUTED[name] ?? paramOf(name)).join(", ")} FROM c, s, w
      RETURNING "id", "seq"),
    r AS (
      INSERT INTO "ApiRequest" ("teamId", "apiKeyId", "formId", "createdAt", "status", "leadId", "error", "ip", "encoding")
      SELECT ${teamId}, ${p.logApiKey}, ${p.logForm}, ${createdAt}, 201, l."id", NULL, ${p.logIp}, ${p.logEncoding} FROM l WHERE ${p.logWanted})
    SELECT l."id", l."seq", s."id" AS "sourceId", s."name" AS "sourceName", w."currency",
      (SELECT t."slug" FROM "Team" t WHERE t."id" = ${teamId}) AS "teamSlug",
      ARRAY(SELECT e."id" FROM "WebhookEndpoint" e WHERE e."teamId" = ${teamId} AND e."enabled"
            AND '${LEAD_CREATED}' = ANY(string_to_array(e."events", ' ')) ORDER BY e."id") AS "endpoints",
      ARRAY(SELECT m."userId" FROM "Membership" m WHERE ${p.emails} AND m."teamId" = ${teamId} AND m."notifyNewLeads" ORDER BY m."userId") AS "subscribers"
    FROM l, s, w`;
}

const PG_STATEMENTS = {
  leadBySource: { name: "intake_lead_by_source", text: pgLeadStatement(true) },
  leadChosenSource: { name: "intake_lead_chosen_source", text: pgLeadStatement(false) },
  job: {
    name: "intake_job",
    text: `${insertSql("Job", JOB_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`)}`,
  },
  claim: {
    name: "intake_claim",
    text: `UPDATE "IdempotencyRecord" SET "responseStatus" = $1, "responseBody" = $2 WHERE "id" = $3 AND "token" = $4 AND "responseStatus" IS NULL`,
  },
  challenge: {
    name: "intake_challenge",
    text: `${insertSql("SpentChallenge", SPENT_CHALLENGE_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`)} ON CONFLICT ("id") DO NOTHING`,
  },
} as const;

type PgLeadRow = { id: string; seq: number; sourceId: string; sourceName: string; currency: string; teamSlug: string } & Omit<
  Recipients,
  "teamSlug"
>;

async function writeLeadPostgres(pool: pg.Pool, write: LeadWrite): Promise<LeadWritten> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query("BEGIN");
    const written = await writeInTransaction(client, write);
    await client.query("COMMIT");
    return written;
  } catch (error) {
    // A connection that cannot even roll back (it broke mid-transaction) leaves the pool.
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error("ROLLBACK failed");
    });
    throw error;
  } finally {
    client.release(broken);
  }
}

async function writeInTransaction(client: pg.PoolClient, write: LeadWrite): Promise<LeadWritten> {
  const log = write.requestLog;
  const values: Record<string, unknown> = { ...write.lead, ...searchKeys(write.lead), createdAt: write.now };
  const leadParams = PG_LEAD_PARAMS.map((name) => pgValue(LEAD_COLUMNS[name], values[name]));
  const keys = sourceKeys(write.source);
  const statement = keys ? PG_STATEMENTS.leadBySource : PG_STATEMENTS.leadChosenSource;
  const sourceParams = keys ?? [
    "chosen" in write.source ? write.source.chosen.id : "",
    "chosen" in write.source ? write.source.chosen.name : "",
  ];
  const { rows } = await client.query<PgLeadRow>({
    ...statement,
    values: [
      ...leadParams,
      ...sourceParams,
      Boolean(log),
      log?.apiKeyId ?? null,
      log?.formId ?? null,
      log?.ip ?? null,
      log?.encoding ?? null,
      write.events.emails,
    ],
  });
  const row = rows[0];
  if (!row) throw new MissingApiSource();
  const source = { id: row.sourceId, name: row.sourceName };
  const jobs =
    row.endpoints.length || row.subscribers.length
      ? jobsFor(write, row.id, { ...write.lead, sourceId: source.id, currency: row.currency }, source.name, row)
      : [];
  for (const job of jobs) {
    const jobRow: Record<string, unknown> = { ...job, id: newJobId(), endpointId: job.endpointId ?? null, createdAt: write.now };
    await client.query({ ...PG_STATEMENTS.job, values: pgRow(JOB_COLUMNS, jobRow) });
  }
  if (write.claim) {
    const response = write.claim.response(row.id);
    const { rowCount } = await client.query({
      ...PG_STATEMENTS.claim,
      values: [response.status, response.body, write.claim.id, write.claim.token],
    });
    if (rowCount !== 1) throw write.claim.lost();
  }
  if (write.spentChallenge) {
    const { rowCount } = await client.query({ ...PG_STATEMENTS.challenge, values: pgRow(SPENT_CHALLENGE_COLUMNS, write.spentChallenge) });
    if (rowCount !== 1) throw write.spentChallenge.replayed();
  }
  return { leadId: row.id, source, currency: row.currency, jobs: jobs.length };
}

// ---------------------------------------------------------------------------------------
// The hot path's API.

/**
 * Stores a lead and everything that commits with it, in one transaction. Throws
 * MissingApiSource when the request names no existing source and the team has no API
 * source (the caller makes it and retries); the claim's `lost` or the challenge's
 * `replayed` error when those fail, after rolling everything back.
 */
export async function writeLead(write: LeadWrite): Promise<LeadWritten> {
  const d: Driver = await driver();
  if (d.provider === "sqlite") return d.run((database) => writeLeadSqlite(database, write));
  return writeLeadPostgres(d.pool, write);
}
