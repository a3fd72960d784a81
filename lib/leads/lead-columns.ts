import { PG_CAST, pgValue, sqliteValue, type ColumnType } from "../db/column-values";

// The columns the lead writer (lib/leads/lead-writer.ts) writes without Prisma, with the
// types that say how each value is sent: a lead's and its submission's (one per create_lead
// or form post, many per statement for an import's batch), and the rows that commit with a
// single lead (its request-log row, its outbox jobs, a spent proof-of-work challenge).
// lib/leads/lead-writer-columns.test.ts checks every list against Prisma's model metadata.

/** Every column of Lead the lead writer writes for one lead, with its type. The rest keep their defaults (DEFAULTED_LEAD_COLUMNS). */
export const LEAD_COLUMNS = {
  id: "text",
  seq: "int",
  teamId: "text",
  firstName: "text",
  lastName: "text",
  email: "text",
  emailKey: "text",
  nameKey: "text",
  lastNameKey: "text",
  organizationKey: "text",
  phone: "text",
  phoneCountryCode: "text",
  phoneNational: "text",
  mobileNo: "text",
  mobileCountryCode: "text",
  mobileNational: "text",
  skippedPhone: "text",
  skippedMobileNo: "text",
  skippedWebsite: "text",
  organization: "text",
  sourceId: "text",
  jobTitle: "text",
  website: "text",
  territory: "text",
  industry: "text",
  annualRevenue: "text",
  noOfEmployees: "text",
  currency: "text",
  utmSource: "text",
  utmMedium: "text",
  utmCampaign: "text",
  utmTerm: "text",
  utmContent: "text",
  extraFields: "json",
  apiKeyId: "text",
  formId: "text",
  connectionId: "text",
  createdAt: "timestamp",
  // The owner an assignment rule gave the lead at intake (lib/routing/intake-assignment.ts), or null.
  ownerId: "text",
  assignedAt: "timestamp",
  // Derived from the fields (lib/attribution/lead-attribution.ts leadChannelGroups).
  channelGroup: "text",
  firstChannelGroup: "text",
} as const satisfies Record<string, ColumnType>;
/**
 * Lead columns every new lead, one or an import's batch, leaves to their database defaults:
 * it is New ("new", lib/leads/lead-status.ts), never contacted, and has not returned. They change afterwards
 * (lib/leads/lead-ownership.ts).
 */
export const NEW_LEAD_DEFAULTED_COLUMNS = ["status", "firstContactedAt", "returnedAt"] as const;
/** Lead columns an API or form lead leaves to their default (null): set only by a merge, or by a CSV import; and a new lead's. */
export const DEFAULTED_LEAD_COLUMNS = ["mergedLeadIds", "importId", ...NEW_LEAD_DEFAULTED_COLUMNS] as const;

export type LeadColumn = keyof typeof LEAD_COLUMNS;

/** The columns of an import's batch insert: the hot path's, and the import the rows belong to. */
export const LEAD_BATCH_COLUMNS = { ...LEAD_COLUMNS, importId: "text" } as const satisfies Record<string, ColumnType>;
export type LeadBatchRow = { [K in keyof typeof LEAD_BATCH_COLUMNS]: unknown };

/** A lead's submission (lead-write.ts submissionRow): its first, written with the lead, or an import's fill. */
export const LEAD_SUBMISSION_COLUMNS = {
  id: "text",
  leadId: "text",
  teamId: "text",
  channel: "text",
  apiKeyId: "text",
  formId: "text",
  connectionId: "text",
  importId: "text",
  fields: "json",
  skipped: "json",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;
/** A submission's consent evidence (lib/consent/, LeadConsent; lead-write.ts consentRow), written with it. */
export const LEAD_CONSENT_COLUMNS = {
  id: "text",
  leadId: "text",
  teamId: "text",
  submissionId: "text",
  status: "text",
  channel: "text",
  versionId: "text",
  text: "text",
  purpose: "text",
  consentAt: "timestamp",
  ip: "text",
  userAgent: "text",
  pageUrl: "text",
  note: "text",
  recordedById: "text",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;

export type LeadSubmissionRow = { [K in keyof typeof LEAD_SUBMISSION_COLUMNS]: unknown };

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
  spam: "text",
} as const satisfies Record<string, ColumnType>;
/** The autoincrement id. */
export const DEFAULTED_API_REQUEST_COLUMNS = ["id"] as const;

/** A submission set aside as spam (lib/leads/lead-write.ts quarantineRow). */
export const QUARANTINED_LEAD_COLUMNS = {
  id: "text",
  seq: "int",
  teamId: "text",
  apiKeyId: "text",
  formId: "text",
  connectionId: "text",
  name: "text",
  emailKey: "text",
  phone: "text",
  mobileNo: "text",
  lead: "json",
  source: "json",
  score: "int",
  reasons: "json",
  ip: "text",
  consent: "json",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;

/** An entry of a team's spam lists a release adds in its transaction (the sender allow-listed, lib/spam/quarantine-release.ts). */
export const SPAM_LIST_ENTRY_COLUMNS = {
  id: "text",
  teamId: "text",
  list: "text",
  value: "text",
  note: "text",
  createdById: "text",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;

/**
 * Adds the entry unless the team has it already (changes nothing then), and the statement that
 * bumps the team's lists version after an entry was added (lib/spam/spam-list-store.ts's rule).
 */
export function spamListEntrySql(placeholder: (index: number, type: ColumnType) => string) {
  return {
    insert: `${insertSql("SpamListEntry", SPAM_LIST_ENTRY_COLUMNS, placeholder)} ON CONFLICT ("teamId", "list", "value") DO NOTHING`,
    bump: `UPDATE "Team" SET "spamListsVersion" = "spamListsVersion" + 1 WHERE "id" = ${placeholder(0, "text")}`,
  };
}

export const JOB_COLUMNS = {
  id: "text",
  teamId: "text",
  kind: "text",
  endpointId: "text",
  chatDestinationId: "text",
  leadId: "text",
  eventId: "text",
  eventType: "text",
  payload: "text",
  maxAttempts: "int",
  runAt: "timestamp",
  createdAt: "timestamp",
} as const satisfies Record<string, ColumnType>;
/** A new job is pending, never tried, unclaimed. */
export const DEFAULTED_JOB_COLUMNS = ["state", "attempts", "lockedBy", "lockedUntil", "lastError", "finishedAt"] as const;

export const SPENT_CHALLENGE_COLUMNS = { id: "text", expiresAt: "timestamp" } as const satisfies Record<string, ColumnType>;

/** A form-builder connection's log row for the lead it made (lib/connections/). */
export const CONNECTION_DELIVERY_COLUMNS = {
  id: "text",
  connectionId: "text",
  teamId: "text",
  submissionId: "text",
  outcome: "text",
  status: "int",
  leadId: "text",
  answers: "json",
  createdAt: "timestamp",
  lastAttemptAt: "timestamp",
} as const satisfies Record<string, ColumnType>;
/** Left to their defaults on a new row: nothing to read back when a lead was made. */
export const DEFAULTED_CONNECTION_DELIVERY_COLUMNS = ["error", "contentType", "payload", "keptBytes", "attempts"] as const;

/**
 * The delivery's row, inserted with the lead; a row of the same submission that made no
 * lead yet (it needed mapping) gets the lead instead. A row that already has a lead is left
 * alone and the statement changes nothing: the caller rolls the lead back (a repeat).
 */
export function deliveryUpsertSql(placeholder: (index: number, type: ColumnType) => string): string {
  return `${insertSql("ConnectionDelivery", CONNECTION_DELIVERY_COLUMNS, placeholder)}
    ON CONFLICT ("connectionId", "submissionId") DO UPDATE SET "leadId" = excluded."leadId", "outcome" = excluded."outcome",
      "status" = excluded."status", "error" = NULL, "payload" = NULL, "keptBytes" = NULL, "contentType" = NULL, "answers" = excluded."answers",
      "attempts" = "ConnectionDelivery"."attempts" + 1, "lastAttemptAt" = excluded."lastAttemptAt"
    WHERE "ConnectionDelivery"."leadId" IS NULL`;
}

/** A table or column name quoted for SQL (both databases: the names are Prisma's, mixed case). */
export const quoteName = (name: string) => `"${name}"`;

/** A one-row INSERT of `columns` into `table`, each value written by `placeholder` ("?" for SQLite, "$1::text" for PostgreSQL). */
export function insertSql(
  table: string,
  columns: Record<string, ColumnType>,
  placeholder: (i: number, type: ColumnType) => string,
): string {
  const names = Object.keys(columns);
  return `INSERT INTO ${quoteName(table)} (${names.map(quoteName).join(", ")}) VALUES (${names
    .map((name, i) => placeholder(i, columns[name]!))
    .join(", ")})`;
}

/** A one-row UPDATE of `columns` of `table` by its id (the last parameter), each value written by `placeholder`. */
export function updateByIdSql(
  table: string,
  columns: Record<string, ColumnType>,
  placeholder: (i: number, type: ColumnType) => string,
): string {
  const names = Object.keys(columns);
  const set = names.map((name, i) => `${quoteName(name)} = ${placeholder(i, columns[name]!)}`).join(", ");
  return `UPDATE ${quoteName(table)} SET ${set} WHERE "id" = ${placeholder(names.length, "text")}`;
}

/**
 * The team's leads with an email (lower-cased) or an E.164 number (as phone or mobile), most
 * recent first, at most 100 (a person with more is a data problem; the most recent are the
 * ones that match): a repeat submission's candidates (lib/leads/repeat-match.ts). Each
 * branch names the team, so both databases read three indexes ([teamId, emailKey],
 * [teamId, phone], [teamId, mobileNo]), never the team's leads. Parameters: team, email,
 * two numbers (the same one twice when there is one; null for none).
 */
export function repeatCandidatesSql(
  columns: readonly string[],
  p: { team: string; email: string; n1: string; n2: string },
  options: { time: (column: string) => string; forUpdate: boolean },
): string {
  const time = new Set(["createdAt", "returnedAt"]);
  const select = columns.map((name) => (time.has(name) ? `${options.time(quoteName(name))} AS ${quoteName(name)}` : quoteName(name)));
  return `SELECT ${select.join(", ")} FROM "Lead"
    WHERE ("teamId" = ${p.team} AND "emailKey" = ${p.email})
       OR ("teamId" = ${p.team} AND "phone" IN (${p.n1}, ${p.n2}))
       OR ("teamId" = ${p.team} AND "mobileNo" IN (${p.n1}, ${p.n2}))
    ORDER BY "seq" DESC LIMIT 100${options.forUpdate ? " FOR UPDATE" : ""}`;
}

/**
 * SQLite's parameters per statement: 999, the limit of SQLite builds before 3.32 (this one,
 * 3.49, takes 32,766 and a raw query through Prisma's adapter passes them; 999 was kept,
 * unmeasured against larger statements).
 */
const SQLITE_MAX_PARAMETERS = 999;

/**
 * INSERT statements for `rows` (in their order), with values converted as the hot path
 * converts them, for Prisma's $executeRawUnsafe inside a transaction (an import's batch).
 * PostgreSQL: one INSERT … SELECT FROM unnest(…) with an array parameter per column, its
 * text the same for any number of rows (it was a VALUES list with a parameter per cell,
 * 30,000 for a 500-row batch, each handled by Prisma's query compiler and the driver:
 * docs/performance.md "Import memory"). SQLite: multi-row VALUES statements under its
 * parameter bound, their text built once per number of rows.
 */
export function batchInserts<C extends Record<string, ColumnType>>(
  provider: "sqlite" | "postgres",
  table: string,
  columnTypes: C,
  rows: readonly { [K in keyof C]: unknown }[],
): { sql: string; values: unknown[] }[] {
  const columns = Object.keys(columnTypes) as (keyof C & string)[];
  const types = columns.map((column) => columnTypes[column]!);
  const names = columns.map(quoteName).join(", ");
  if (provider === "postgres") {
    if (!rows.length) return [];
    const arrays = types.map((type, c) => `$${c + 1}::${PG_CAST[type]}[]`).join(", ");
    return [
      {
        sql: `INSERT INTO ${quoteName(table)} (${names}) SELECT * FROM unnest(${arrays})`,
        values: columns.map((column, c) => rows.map((row) => pgValue(types[c]!, row[column]))),
      },
    ];
  }
  const perStatement = Math.floor(SQLITE_MAX_PARAMETERS / columns.length);
  const statements: { sql: string; values: unknown[] }[] = [];
  for (let i = 0; i < rows.length; i += perStatement) {
    const end = Math.min(rows.length, i + perStatement);
    const values: unknown[] = [];
    for (let r = i; r < end; r++) {
      const row = rows[r]!;
      for (let c = 0; c < columns.length; c++) values.push(sqliteValue(types[c]!, row[columns[c]!]));
    }
    statements.push({ sql: sqliteValuesSql(table, names, columns.length, end - i), values });
  }
  return statements;
}

/** SQLite's multi-row INSERT of `tuples` rows of `width` values: the same text for every statement of that size, built once. */
const sqliteValuesSqlBySize = new Map<string, string>();
function sqliteValuesSql(table: string, names: string, width: number, tuples: number): string {
  const key = `${table} ${names} ${tuples}`;
  let sql = sqliteValuesSqlBySize.get(key);
  if (sql === undefined) {
    const tuple = `(${Array.from({ length: width }, () => "?").join(", ")})`;
    sql = `INSERT INTO ${quoteName(table)} (${names}) VALUES ${Array.from({ length: tuples }, () => tuple).join(", ")}`;
    // A few sizes occur per table (a full statement, each batch's last).
    if (sqliteValuesSqlBySize.size >= 64) sqliteValuesSqlBySize.delete(sqliteValuesSqlBySize.keys().next().value!);
    sqliteValuesSqlBySize.set(key, sql);
  }
  return sql;
}

/** An import's batch of leads as multi-row INSERTs (batchInserts). */
export const leadBatchInserts = (provider: "sqlite" | "postgres", rows: readonly LeadBatchRow[]) =>
  batchInserts(provider, "Lead", LEAD_BATCH_COLUMNS, rows);

/** Submissions (an import's batch, its fills) as multi-row INSERTs (batchInserts). */
export const submissionInserts = (provider: "sqlite" | "postgres", rows: readonly LeadSubmissionRow[]) =>
  batchInserts(provider, "LeadSubmission", LEAD_SUBMISSION_COLUMNS, rows);
