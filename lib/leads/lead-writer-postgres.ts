import { createHash } from "node:crypto";
import pg from "pg";
import { parseChatRecipient } from "../chat/chat-outbox";
import { PG_CAST, pgValue, type ColumnType } from "../db/column-values";
import { newJobId, type NewJob } from "../jobs/job-store";
import { summariseError } from "../log/error-summary";
import { log } from "../log/logger";
import { LEAD_CREATED, LEAD_SUBMITTED } from "../webhooks/lead-created-event";
import { assignPostgres, nextTurnSql, planPostgres, settlePostgres } from "../routing/intake-assignment";
import { DEFAULT_CURRENCY } from "../workspace/settings";
import {
  API_REQUEST_COLUMNS,
  CONNECTION_DELIVERY_COLUMNS,
  deliveryUpsertSql,
  repeatCandidatesSql,
  updateByIdSql,
  insertSql,
  JOB_COLUMNS,
  quoteName,
  LEAD_COLUMNS,
  LEAD_SUBMISSION_COLUMNS,
  LEAD_CONSENT_COLUMNS,
  QUARANTINED_LEAD_COLUMNS,
  SPAM_LIST_ENTRY_COLUMNS,
  spamListEntrySql,
  SPENT_CHALLENGE_COLUMNS,
  type LeadColumn,
} from "./lead-columns";
import { formatLeadId, leadIdSql } from "./lead-id";
import { LEAD_NUMBER_BARRIER_SQL, LEAD_WRITERS_LOCK_SQL, nextLeadNumberSql } from "./lead-number-store";
import {
  allowRow,
  consentRow,
  deliveryRow,
  firstSubmissionId,
  firstSubmissionIdSql,
  JOINED_LEAD_COLUMNS,
  joinedJobs,
  joinedRoutedLead,
  joinLead,
  MissingApiSource,
  newSubmissionId,
  outboxJobs,
  quarantineRow,
  repeatLookup,
  repeatTarget,
  requestLogRow,
  sourceKeys,
  STORED_LEAD_COLUMNS,
  storedLead,
  submissionRow,
  type LeadWrite,
  type BatchOutcome,
  type JoinChats,
  type JoinRecipients,
  type LeadWritten,
  type Recipients,
  type StoredLead,
} from "./lead-write";
import { derivedColumns } from "./new-lead";
import { contactKeys } from "./repeat-match";

// The lead writer on PostgreSQL: named prepared statements through Prisma's pool; BEGIN, one
// statement for the source, the currency, the lead number, the lead, its first submission and
// its request-log row (CTEs), then the extras; the batch's outbox rows in one statement;
// COMMIT. SQLite's statements are lead-writer-sqlite.ts; what both share is lead-write.ts.

const pgRow = (columns: Record<string, ColumnType>, row: Record<string, unknown>) =>
  Object.keys(columns).map((name) => pgValue(columns[name]!, row[name]));

// The lead's columns other than those the statement computes (id, seq, source, currency, owner).
const COMPUTED_COLUMNS: readonly LeadColumn[] = ["id", "seq", "sourceId", "currency", "ownerId", "assignedAt"];
const LEAD_PARAMS = (Object.keys(LEAD_COLUMNS) as LeadColumn[]).filter((name) => !COMPUTED_COLUMNS.includes(name));
type SubmissionColumn = keyof typeof LEAD_SUBMISSION_COLUMNS;
// The submission's columns other than those the statement computes from the lead's id.
const SUBMISSION_PARAMS: readonly SubmissionColumn[] = (Object.keys(LEAD_SUBMISSION_COLUMNS) as SubmissionColumn[]).filter(
  (name) => name !== "id" && name !== "leadId",
);

function leadStatement(withSourceLookup: boolean, released = false): string {
  // $1..: the lead's columns, then its submission's; $base + 1..: the rest.
  const base = LEAD_PARAMS.length + SUBMISSION_PARAMS.length;
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
    // The early routing plan (lib/routing/intake-assignment.ts planPostgres).
    ruleId: `$${base + 9}::text`,
    n: `$${base + 10}::int`,
    onDuty: `$${base + 11}::boolean[]`,
    userIds: `$${base + 12}::text[]`,
    ownerId: `$${base + 13}::text`,
    // A released submission's own lead number (LeadWrite.release), instead of a new one.
    seq: `$${base + 14}::int`,
  };
  const paramOf = (name: LeadColumn) => `$${LEAD_PARAMS.indexOf(name) + 1}::${PG_CAST[LEAD_COLUMNS[name]]}`;
  const submissionParam = (name: SubmissionColumn) =>
    `$${LEAD_PARAMS.length + SUBMISSION_PARAMS.indexOf(name) + 1}::${PG_CAST[LEAD_SUBMISSION_COLUMNS[name]]}`;
  const submissionColumns = Object.keys(LEAD_SUBMISSION_COLUMNS) as SubmissionColumn[];
  const submissionComputed: Partial<Record<SubmissionColumn, string>> = { id: firstSubmissionIdSql(`l."id"`), leadId: `l."id"` };
  const leadColumns = Object.keys(LEAD_COLUMNS) as LeadColumn[];
  const teamId = paramOf("teamId");
  const createdAt = paramOf("createdAt");
  const computed: Partial<Record<LeadColumn, string>> = {
    id: leadIdSql(`c."value"`),
    seq: `c."value"`,
    sourceId: `s."id"`,
    currency: `w."currency"`,
    ownerId: `(SELECT o."userId" FROM o)`,
    assignedAt: `CASE WHEN EXISTS (SELECT 1 FROM o) THEN ${createdAt} END`,
  };
  // pickSource's order: the requested name, else the API source.
  const source = withSourceLookup
    ? `SELECT "id", "name" FROM "LeadSource" WHERE "teamId" = ${teamId} AND "nameKey" IN (${p.wanted}, ${p.api})
         ORDER BY ("nameKey" = ${p.wanted}) DESC LIMIT 1`
    : `SELECT ${p.chosenId} AS "id", ${p.chosenName} AS "name"`;
  return `
    WITH s AS (${source}),
    w AS (SELECT COALESCE((SELECT "currency" FROM "WorkspaceSettings" WHERE "id" = 1), '${DEFAULT_CURRENCY}') AS "currency"),
    c AS (SELECT ${released ? p.seq : nextLeadNumberSql} AS "value" WHERE EXISTS (SELECT 1 FROM s)),
    rr AS (
      UPDATE "AssignmentRule" a SET "turn" = ${nextTurnSql("a", p.n, p.onDuty)}
      WHERE a."id" = ${p.ruleId} AND a."teamId" = ${teamId} RETURNING a."turn"),
    o AS (
      SELECT m."userId" FROM "Membership" m
      WHERE m."teamId" = ${teamId} AND m."userId" = COALESCE((${p.userIds})[(SELECT rr."turn" FROM rr)], ${p.ownerId})),
    l AS (
      INSERT INTO "Lead" (${leadColumns.map(quoteName).join(", ")})
      SELECT ${leadColumns.map((name) => computed[name] ?? paramOf(name)).join(", ")} FROM c, s, w
      RETURNING "id", "seq", "ownerId"),
    f AS (
      INSERT INTO "LeadSubmission" (${submissionColumns.map(quoteName).join(", ")})
      SELECT ${submissionColumns.map((name) => submissionComputed[name] ?? submissionParam(name)).join(", ")} FROM l),
    r AS (
      INSERT INTO "ApiRequest" ("teamId", "apiKeyId", "formId", "createdAt", "status", "leadId", "error", "ip", "encoding")
      SELECT ${teamId}, ${p.logApiKey}, ${p.logForm}, ${createdAt}, 201, l."id", NULL, ${p.logIp}, ${p.logEncoding} FROM l WHERE ${p.logWanted})
    SELECT l."id", l."seq", l."ownerId", s."id" AS "sourceId", s."name" AS "sourceName", w."currency",
      (SELECT t."slug" FROM "Team" t WHERE t."id" = ${teamId}) AS "teamSlug",
      (SELECT t."routingVersion" FROM "Team" t WHERE t."id" = ${teamId}) AS "routingVersion",
      ARRAY(SELECT e."id" FROM "WebhookEndpoint" e WHERE e."teamId" = ${teamId} AND e."enabled"
            AND '${LEAD_CREATED}' = ANY(string_to_array(e."events", ' ')) ORDER BY e."id") AS "endpoints",
      ARRAY(SELECT m."userId" FROM "Membership" m WHERE ${p.emails} AND m."teamId" = ${teamId} AND m."notifyNewLeads" ORDER BY m."userId") AS "subscribers",
      ARRAY(SELECT json_build_object('id', c."id", 'filter', c."newLeadFilter", 'fields', c."includeFields")::text
            FROM "ChatDestination" c WHERE c."teamId" = ${teamId} AND c."enabled" AND c."postNewLeads" ORDER BY c."id") AS "chats"
    FROM l, s, w`;
}

/** The Job columns in the order of outboxInsertSql's parameters and outboxColumns' arrays. */
const JOB_NAMES = Object.keys(JOB_COLUMNS) as (keyof typeof JOB_COLUMNS)[];

/**
 * The batch's outbox rows, all in one statement before its COMMIT ($1..: one array per Job
 * column). A row for an endpoint or chat destination deleted since the lead's statement read it
 * is left out (there is nothing to deliver to) rather than failing the batch on its foreign
 * key: the destination's row is locked FOR KEY SHARE, which waits for a delete under way and
 * then finds no row, and keeps it until the COMMIT, as the foreign key's own check would.
 */
function outboxInsertSql(): string {
  const columns = JOB_NAMES.map(quoteName).join(", ");
  const arrays = JOB_NAMES.map((name, i) => `$${i + 1}::${PG_CAST[JOB_COLUMNS[name]]}[]`).join(", ");
  return `INSERT INTO "Job" (${columns})
    SELECT ${columns} FROM unnest(${arrays}) AS u(${columns})
    WHERE (u."endpointId" IS NULL OR EXISTS (SELECT 1 FROM "WebhookEndpoint" e WHERE e."id" = u."endpointId" FOR KEY SHARE))
      AND (u."chatDestinationId" IS NULL OR EXISTS (SELECT 1 FROM "ChatDestination" c WHERE c."id" = u."chatDestinationId" FOR KEY SHARE))`;
}

/** A person's leads by team, email and two numbers (repeatCandidatesSql), locked or not. */
function candidatesStatement(name: string, forUpdate: boolean): { name: string; text: string } {
  const p = { team: "$1::text", email: "$2::text", n1: "$3::text", n2: "$4::text" };
  return {
    name,
    text: repeatCandidatesSql(STORED_LEAD_COLUMNS, p, { time: (column) => `(EXTRACT(EPOCH FROM ${column}) * 1000)::float8`, forUpdate }),
  };
}

const STATEMENTS = {
  leadBySource: { name: "intake_lead_by_source", text: leadStatement(true) },
  leadChosenSource: { name: "intake_lead_chosen_source", text: leadStatement(false) },
  releasedBySource: { name: "intake_released_by_source", text: leadStatement(true, true) },
  releasedChosenSource: { name: "intake_released_chosen_source", text: leadStatement(false, true) },
  unquarantine: { name: "intake_unquarantine", text: `DELETE FROM "QuarantinedLead" WHERE "id" = $1 AND "teamId" = $2` },
  allowEntry: { name: "intake_allow_entry", text: spamListEntrySql((i, type) => `$${i + 1}::${PG_CAST[type]}`).insert },
  bumpSpamLists: { name: "intake_bump_spam_lists", text: spamListEntrySql((i, type) => `$${i + 1}::${PG_CAST[type]}`).bump },
  jobs: { name: "intake_jobs", text: outboxInsertSql() },
  claim: {
    name: "intake_claim",
    text: `UPDATE "IdempotencyRecord" SET "responseStatus" = $1, "responseBody" = $2 WHERE "id" = $3 AND "token" = $4 AND "responseStatus" IS NULL`,
  },
  challenge: {
    name: "intake_challenge",
    text: `${insertSql("SpentChallenge", SPENT_CHALLENGE_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`)} ON CONFLICT ("id") DO NOTHING`,
  },
  delivery: { name: "intake_delivery", text: deliveryUpsertSql((i, type) => `$${i + 1}::${PG_CAST[type]}`) },
  // A repeat submission (joinPostgres): the person's leads, locked; the one joined; its submission and log row.
  repeatCandidates: candidatesStatement("intake_repeat_candidates", true),
  // The same, unlocked: whether the batch needs the lead writers' order lock (joinsExistingLead), and a
  // join's lookup in a batch without it (joinPostgres).
  repeatProbe: candidatesStatement("intake_repeat_probe", false),
  joinLead: { name: "intake_join_lead", text: updateByIdSql("Lead", JOINED_LEAD_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`) },
  submission: {
    name: "intake_submission",
    text: insertSql("LeadSubmission", LEAD_SUBMISSION_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`),
  },
  consent: { name: "intake_consent", text: insertSql("LeadConsent", LEAD_CONSENT_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`) },
  request: { name: "intake_request", text: insertSql("ApiRequest", API_REQUEST_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`) },
  number: { name: "intake_lead_number", text: `SELECT ${nextLeadNumberSql} AS "value"` },
  quarantine: {
    name: "intake_quarantine",
    text: insertSql("QuarantinedLead", QUARANTINED_LEAD_COLUMNS, (i, type) => `$${i + 1}::${PG_CAST[type]}`),
  },
  joinRecipients: {
    name: "intake_join_recipients",
    text: `SELECT t."slug" AS "teamSlug", t."routingVersion",
        ARRAY(SELECT e."id" FROM "WebhookEndpoint" e WHERE e."teamId" = $1 AND e."enabled"
              AND '${LEAD_SUBMITTED}' = ANY(string_to_array(e."events", ' ')) ORDER BY e."id") AS "endpoints",
        ARRAY(SELECT m."userId" FROM "Membership" m WHERE $2::boolean AND m."teamId" = $1 AND m."notifyNewLeads" ORDER BY m."userId") AS "subscribers",
        ARRAY(SELECT json_build_object('id', c."id", 'filter', c."newLeadFilter", 'fields', c."includeFields")::text
              FROM "ChatDestination" c WHERE c."teamId" = $1 AND c."enabled" AND c."postRepeats" ORDER BY c."id") AS "chats"
      FROM "Team" t WHERE t."id" = $1`,
  },
  // A repeat's chat messages name the lead's source and its owner (read only when a destination posts repeats).
  joinChatNames: {
    name: "intake_join_chat_names",
    text: `SELECT (SELECT s."name" FROM "LeadSource" s WHERE s."id" = $1) AS "sourceName",
        (SELECT COALESCE(u."name", u."email") FROM "User" u WHERE u."id" = $2::text) AS "ownerName"`,
  },
} as const;

type LeadStatementRow = {
  id: string;
  seq: number;
  sourceId: string;
  sourceName: string;
  currency: string;
  teamSlug: string;
  routingVersion: number;
  ownerId: string | null;
  /** Each a ChatRecipient's JSON text. */
  chats: string[];
} & Omit<Recipients, "teamSlug" | "chats">;

/**
 * Writes several leads in one transaction, each in a savepoint of its own (lead-writer.ts's
 * group commit on PostgreSQL, writeLeadsSqlite's twin): a lead that throws is rolled back to
 * its savepoint alone and its error returned in its place; the others commit together. The
 * savepoint's bookkeeping rides in one round trip per lead ("RELEASE …; SAVEPOINT …"). An
 * error outside a lead's own work (the connection, the commit) fails the whole batch (thrown).
 */
export async function writeLeadsPostgres(pool: pg.Pool, writes: readonly LeadWrite[]): Promise<BatchOutcome[]> {
  const client = await pool.connect();
  let broken: Error | undefined;
  const alone = writes.length === 1;
  let transactionId: string | undefined;
  let committing = false;
  const outcomes: BatchOutcome[] = [];
  const batch: Batch = { ordered: false, made: new Set(), jobs: [] };
  try {
    const opening = `${alone ? "" : " SAVEPOINT lead;"} ${TRANSACTION_ID_SQL}`;
    let begun: unknown;
    const persons = personLockKeys(writes);
    const released = writes.some((write) => write.release);
    if (persons.length > 0 && !released) {
      // "add" submissions: the persons' locks first, then the order lock only if one joins a lead made before.
      await client.query(`BEGIN;${personLocksSql(persons)}`);
      batch.ordered = await joinsExistingLead(client, writes);
      begun = await client.query(`${rowLocksSql(writes, batch.ordered)}${opening}`);
    } else {
      batch.ordered = persons.length > 0 || released;
      begun = await client.query(`BEGIN;${personLocksSql(persons)}${rowLocksSql(writes, batch.ordered)}${opening}`);
    }
    transactionId = transactionIdOf(begun);
    for (const [i, write] of writes.entries()) {
      const jobsBefore = batch.jobs.length;
      try {
        const written = await writeInTransaction(client, write, batch);
        batch.made.add(written.leadId);
        outcomes.push({ written });
        if (!alone && i < writes.length - 1) await client.query("RELEASE SAVEPOINT lead; SAVEPOINT lead");
      } catch (error) {
        if (alone) throw error;
        // The savepoint stays after a rollback to it: the next lead is written inside it.
        await client.query("ROLLBACK TO SAVEPOINT lead");
        batch.jobs.length = jobsBefore;
        outcomes.push({ error });
      }
    }
    if (batch.jobs.length) await client.query({ ...STATEMENTS.jobs, values: outboxColumns(batch.jobs) });
    committing = true;
    await client.query("COMMIT");
    return outcomes;
  } catch (error) {
    // A connection that cannot even roll back (it broke mid-transaction) leaves the pool.
    // After a COMMIT whose answer never came, the ROLLBACK queues behind it: it returns once
    // the COMMIT has ended on the server, whichever way.
    await client.query("ROLLBACK").catch((rollbackError: unknown) => {
      broken = rollbackError instanceof Error ? rollbackError : new Error("ROLLBACK failed");
    });
    if (committing && transactionId && !answeredByServer(error) && (await committedAfterAll(broken ? pool : client, transactionId))) {
      log("warn", "leads.commit_confirmed", { leads: writes.length, ...summariseError(error) });
      return outcomes;
    }
    throw error;
  } finally {
    client.release(broken);
  }
}

/** The batch's transaction id, taken in its BEGIN round trip (an id is assigned at the first write anyway). */
const TRANSACTION_ID_SQL = `SELECT pg_current_xact_id()::text AS "transactionId"`;

/** The transaction id from the BEGIN round trip's results (a multi-statement query's last result). */
function transactionIdOf(results: unknown): string | undefined {
  const last = (Array.isArray(results) ? results.at(-1) : results) as pg.QueryResult<{ transactionId: string }> | undefined;
  return last?.rows?.[0]?.transactionId;
}

/**
 * Whether PostgreSQL itself answered the failed COMMIT (its error message: a deferred
 * constraint, the statement timeout): the transaction was then rolled back. Without an answer
 * (the client's read timeout, a connection cut) it may have committed all the same.
 */
const answeredByServer = (error: unknown) => error instanceof pg.DatabaseError;

/** How long a COMMIT left running on a broken connection is waited for (its status "in progress"). */
const COMMIT_STATUS_WAIT_MS = 5_000;

/**
 * Whether the transaction committed, asked of PostgreSQL (pg_xact_status) on `via`: the batch's
 * own connection once its ROLLBACK returned (the COMMIT has then ended), else a pooled one,
 * while the COMMIT may still be running on the broken connection's server process. A COMMIT
 * whose answer was lost but that committed is a success: its leads exist, and each sender is
 * answered so, not told to retry and make a second lead. Any doubt left: false (the batch fails
 * as before, 503; a retry with the same Idempotency-Key makes the lead once, or replays its answer).
 */
async function committedAfterAll(via: pg.Pool | pg.PoolClient, transactionId: string): Promise<boolean> {
  const deadline = Date.now() + COMMIT_STATUS_WAIT_MS;
  try {
    for (;;) {
      const { rows } = await via.query<{ status: string | null }>(`SELECT pg_xact_status($1::xid8) AS "status"`, [transactionId]);
      const status = rows[0]?.status;
      if (status !== "in progress" || Date.now() > deadline) return status === "committed";
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  } catch {
    return false;
  }
}

/**
 * The locks a batch takes first thing, in the one order every lead writer takes them
 * (docs/performance.md "Lead numbers"), so two batches, on any instance, queue for each other
 * instead of deadlocking, now that no create locks one counter row:
 * 1. the lead numbers' barrier, shared (leadNumbersSettled waits for the batches holding it);
 * 2. with repeat submissions (docs/leads.md "Repeat submissions"), a transaction-scoped
 *    advisory lock per person (the team and each email or number a submission set to "add" is
 *    matched by), sorted, so two submissions of one new person never both miss each other's
 *    lead; then, with a repeat that joins a lead made before the batch (writeLeadsPostgres asks
 *    joinsExistingLead once it holds the persons' locks; `ordered`) or a release, the lead
 *    writers' order lock (the lead counter's row: LEAD_WRITERS_LOCK_SQL), which orders those
 *    batches among themselves and with an import's batch (one that fills duplicates takes it before their rows,
 *    lib/imports/commit-batch.ts; one that takes round-robin turns, before their rules,
 *    lib/routing/import-assignment.ts) as every create did before the lead numbers were a
 *    sequence: they lock existing leads' rows and teams' spam lists, in no order of their own;
 * 3. the batch's teams' rows (KEY SHARE, as each lead's foreign key takes it anyway: a rule's
 *    or a membership's change locks the team first, then its rules) and every assignment rule
 *    of those teams (FOR UPDATE), in id order, before any lead takes a round robin's turn:
 *    the batches of a team with rules queue on its rules, those of a team without take no
 *    row lock here.
 * The keys are hashes and the team ids the keys' own (never a sender's text).
 */
export function batchLocksSql(
  writes: readonly LeadWrite[],
  ordered = personLockKeys(writes).length > 0 || writes.some((write) => write.release),
): string {
  return `${personLocksSql(personLockKeys(writes))}${rowLocksSql(writes, ordered)}`;
}

/** 1. and 2. of batchLocksSql without the order lock: the numbers' barrier and the persons' locks (personLockKeys). */
function personLocksSql(keys: readonly bigint[]): string {
  return [` ${LEAD_NUMBER_BARRIER_SQL};`, ...keys.map((key) => ` SELECT pg_advisory_xact_lock(${key});`)].join("");
}

/** The rest of batchLocksSql: the order lock when `ordered`, the teams' rows and their rules. */
function rowLocksSql(writes: readonly LeadWrite[], ordered: boolean): string {
  const teams = [...new Set(writes.map((write) => `'${write.lead.teamId.replaceAll("'", "''")}'`))].sort().join(", ");
  return [
    ordered ? ` ${LEAD_WRITERS_LOCK_SQL};` : "",
    ` SELECT 1 FROM "Team" WHERE "id" IN (${teams}) ORDER BY "id" FOR KEY SHARE;`,
    ` SELECT 1 FROM "AssignmentRule" WHERE "teamId" IN (${teams}) ORDER BY "id" FOR UPDATE;`,
  ].join("");
}

/** The persons' advisory lock keys of a batch's "add" submissions, sorted. */
function personLockKeys(writes: readonly LeadWrite[]): bigint[] {
  const keys = new Set<bigint>();
  for (const write of writes) {
    if (!repeatLookup(write)) continue;
    for (const key of contactKeys(write.lead)) keys.add(personLockKey(write.lead.teamId, key));
  }
  return [...keys].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * What a batch of "add" submissions knows once it holds their persons' locks: whether one of
 * them joins a lead made before this batch (read unlocked). Only such a batch locks existing
 * leads' rows, so only it takes the order lock (docs/performance.md "Lead numbers on
 * PostgreSQL"); a batch of new people writes beside the others.
 */
async function joinsExistingLead(client: pg.PoolClient, writes: readonly LeadWrite[]): Promise<boolean> {
  for (const write of writes) {
    const lookup = repeatLookup(write);
    if (lookup && repeatTarget(write, await candidatesOf(client, write, lookup, false))) return true;
  }
  return false;
}

/** The person's leads a submission may join (repeatCandidatesSql), read FOR UPDATE when `locked`. */
async function candidatesOf(
  client: pg.PoolClient,
  write: LeadWrite,
  lookup: NonNullable<ReturnType<typeof repeatLookup>>,
  locked: boolean,
): Promise<StoredLead[]> {
  const [n1 = null, n2 = n1] = lookup.numbers;
  const { rows } = await client.query<Record<string, unknown>>({
    ...(locked ? STATEMENTS.repeatCandidates : STATEMENTS.repeatProbe),
    values: [write.lead.teamId, lookup.email, n1, n2],
  });
  return rows.map(storedLead);
}

/**
 * A batch's state for its leads: whether it holds the order lock, the leads it made, and the
 * outbox rows of its leads so far (written together before the COMMIT; a lead rolled back to
 * its savepoint takes its rows out of the list). Without the lock a submission joins only a
 * lead this batch made (a row no other transaction sees); one made by another writer since
 * joinsExistingLead looked is not locked, and the submission makes a new lead, as it would
 * have a moment earlier.
 */
type Batch = { ordered: boolean; made: Set<string>; jobs: Record<string, unknown>[] };

/** A person's advisory lock key: 64 bits of SHA-256 of the team and the contact key. */
function personLockKey(teamId: string, key: string): bigint {
  return createHash("sha256").update(`lead-person\u0000${teamId}\u0000${key}`).digest().readBigInt64BE(0);
}

/**
 * A channel set to "add": the person's lead takes the submission (its empty fields filled, the
 * submission kept, its request-log row 200), inside the lead's savepoint; null when the person
 * has no lead in the window (a new lead is made). The batch holds the person's lock
 * (repeatLocksSql), and the candidates are read FOR UPDATE: a member's edit of the lead
 * meanwhile is neither lost nor overwritten.
 */
async function joinPostgres(client: pg.PoolClient, write: LeadWrite, batch: Batch): Promise<LeadWritten | null> {
  const lookup = repeatLookup(write);
  if (!lookup) return null;
  const found = await candidatesOf(client, write, lookup, batch.ordered);
  const target = repeatTarget(write, batch.ordered ? found : found.filter((lead) => batch.made.has(lead.id)));
  if (!target) return null;
  const joined = joinLead(target, write);
  await client.query({ ...STATEMENTS.joinLead, values: [...pgRow(JOINED_LEAD_COLUMNS, joined.values), target.id] });
  const submission = submissionRow(write.lead, { id: newSubmissionId(), leadId: target.id, createdAt: write.now });
  await client.query({ ...STATEMENTS.submission, values: pgRow(LEAD_SUBMISSION_COLUMNS, submission) });
  if (write.consent)
    await client.query({ ...STATEMENTS.consent, values: pgRow(LEAD_CONSENT_COLUMNS, consentRow(write, target.id, submission.id)) });
  if (write.requestLog)
    await client.query({ ...STATEMENTS.request, values: pgRow(API_REQUEST_COLUMNS, requestLogRow(write, target.id, true)) });
  const teamId = write.lead.teamId;
  const recipients = await client.query<JoinRecipients & { routingVersion: number; chats: string[] }>({
    ...STATEMENTS.joinRecipients,
    values: [teamId, write.events.emails && !target.ownerId],
  });
  const { routingVersion: version, chats, ...to } = recipients.rows[0]!;
  // A lead with no owner goes through the rules again (no owner found: it stays unassigned).
  if (!target.ownerId) {
    const lead = joinedRoutedLead(joined, write);
    const assigned = await assignPostgres(client, { teamId, version, leadId: target.id, lead, now: write.now });
    if (assigned.owner) joined.values.ownerId = assigned.owner.id;
  }
  const jobs = joinedJobs(write, joined, submission, to, await joinChatsPostgres(client, chats, target, joined.values.ownerId));
  queueJobs(batch, write, jobs);
  await writeExtras(client, write, target.id, true);
  return { added: true, leadId: target.id, ownerId: joined.values.ownerId, jobs: jobs.length };
}

/** The chat destinations that post repeats, and the source's and owner's names their messages give; null when there are none. */
async function joinChatsPostgres(
  client: pg.PoolClient,
  chats: string[],
  target: StoredLead,
  ownerId: string | null,
): Promise<JoinChats | null> {
  if (!chats.length) return null;
  const { rows } = await client.query<{ sourceName: string | null; ownerName: string | null }>({
    ...STATEMENTS.joinChatNames,
    values: [target.sourceId, ownerId],
  });
  const names = rows[0]!;
  return {
    chats: chats.map(parseChatRecipient),
    sourceName: names.sourceName ?? "",
    owner: ownerId && names.ownerName !== null ? { id: ownerId, name: names.ownerName } : null,
    lastSubmittedAt: target.returnedAt,
  };
}

/**
 * A submission the spam checks flagged (quarantineSqlite's twin): its quarantine row under a
 * lead number of its own, its request-log row naming the reasons, and the extras; nothing else.
 */
async function quarantinePostgres(client: pg.PoolClient, write: LeadWrite): Promise<LeadWritten> {
  const number = await client.query<{ value: number }>(STATEMENTS.number);
  const row = quarantineRow(write, Number(number.rows[0]!.value));
  await client.query({ ...STATEMENTS.quarantine, values: pgRow(QUARANTINED_LEAD_COLUMNS, row) });
  if (write.requestLog)
    await client.query({ ...STATEMENTS.request, values: pgRow(API_REQUEST_COLUMNS, requestLogRow(write, row.id, false)) });
  await writeExtras(client, write, row.id, false);
  return { added: false, quarantined: true, leadId: row.id, ownerId: null, jobs: 0 };
}

/** A lead's outbox rows, for the batch's one INSERT before its COMMIT (outboxInsertSql). */
function queueJobs(batch: Batch, write: LeadWrite, jobs: readonly NewJob[]): void {
  for (const job of jobs) {
    batch.jobs.push({
      ...job,
      id: newJobId(),
      endpointId: job.endpointId ?? null,
      chatDestinationId: job.chatDestinationId ?? null,
      leadId: job.leadId ?? null,
      createdAt: write.now,
    });
  }
}

/** The batch's outbox rows as one array per Job column (outboxInsertSql's parameters). */
const outboxColumns = (rows: readonly Record<string, unknown>[]) =>
  JOB_NAMES.map((name) => rows.map((row) => pgValue(JOB_COLUMNS[name], row[name])));

/** What commits with a submission, made a lead or added to one: the idempotent response, the spent challenge, the delivery's log row. */
async function writeExtras(client: pg.PoolClient, write: LeadWrite, leadId: string, added: boolean): Promise<void> {
  if (write.claim) {
    const response = write.claim.response(leadId, added);
    const { rowCount } = await client.query({
      ...STATEMENTS.claim,
      values: [response.status, response.body, write.claim.id, write.claim.token],
    });
    if (rowCount !== 1) throw write.claim.lost();
  }
  if (write.spentChallenge) {
    const { rowCount } = await client.query({ ...STATEMENTS.challenge, values: pgRow(SPENT_CHALLENGE_COLUMNS, write.spentChallenge) });
    if (rowCount !== 1) throw write.spentChallenge.replayed();
  }
  if (write.delivery) {
    const { rowCount } = await client.query({
      ...STATEMENTS.delivery,
      values: pgRow(CONNECTION_DELIVERY_COLUMNS, deliveryRow(write, leadId, added)),
    });
    if (rowCount !== 1) throw write.delivery.repeated();
  }
}

async function writeInTransaction(client: pg.PoolClient, write: LeadWrite, batch: Batch): Promise<LeadWritten> {
  if (write.quarantine) return quarantinePostgres(client, write);
  const joined = await joinPostgres(client, write, batch);
  if (joined) return joined;
  const log = write.requestLog;
  const values: Record<string, unknown> = { ...write.lead, ...derivedColumns(write.lead), createdAt: write.now };
  const leadParams = LEAD_PARAMS.map((name) => pgValue(LEAD_COLUMNS[name], values[name]));
  const keys = sourceKeys(write.source);
  if (write.release) {
    const { rowCount } = await client.query({ ...STATEMENTS.unquarantine, values: [formatLeadId(write.release.seq), write.lead.teamId] });
    if (rowCount !== 1) throw write.release.gone();
    const allow = allowRow(write);
    if (allow && (await client.query({ ...STATEMENTS.allowEntry, values: pgRow(SPAM_LIST_ENTRY_COLUMNS, allow) })).rowCount === 1) {
      await client.query({ ...STATEMENTS.bumpSpamLists, values: [write.lead.teamId] });
    }
  }
  const statement = write.release
    ? keys
      ? STATEMENTS.releasedBySource
      : STATEMENTS.releasedChosenSource
    : keys
      ? STATEMENTS.leadBySource
      : STATEMENTS.leadChosenSource;
  const chosen = "chosen" in write.source ? write.source.chosen : null;
  const sourceParams = keys ?? (chosen ? [chosen.id, chosen.name] : []);
  const teamId = write.lead.teamId;
  const early = await planPostgres(client, { teamId, lead: write.lead, sourceId: chosen?.id ?? null, now: write.now });
  const planned = early?.owner;
  // Its id and lead are the statement's, from the lead's id.
  const submission = submissionRow(write.lead, { id: "", leadId: "", createdAt: write.now });
  const { rows } = await client.query<LeadStatementRow>({
    ...statement,
    values: [
      ...leadParams,
      ...SUBMISSION_PARAMS.map((name) => pgValue(LEAD_SUBMISSION_COLUMNS[name], submission[name])),
      ...sourceParams,
      Boolean(log),
      log?.apiKeyId ?? null,
      log?.formId ?? null,
      log?.ip ?? null,
      log?.encoding ?? null,
      write.events.emails,
      planned?.ruleId ?? null,
      planned?.n ?? 1,
      planned?.onDuty ?? [],
      planned?.userIds ?? [],
      planned?.ownerId ?? null,
      ...(write.release ? [write.release.seq] : []),
    ],
  });
  const row = rows[0];
  if (!row) throw new MissingApiSource();
  if (write.consent) {
    await client.query({
      ...STATEMENTS.consent,
      values: pgRow(LEAD_CONSENT_COLUMNS, consentRow(write, row.id, firstSubmissionId(row.id))),
    });
  }
  const source = { id: row.sourceId, name: row.sourceName };
  const lead = { ...write.lead, sourceId: source.id, currency: row.currency };
  const assigned = await settlePostgres(client, early, {
    teamId,
    version: Number(row.routingVersion),
    leadId: row.id,
    lead,
    now: write.now,
    ownerId: row.ownerId,
  });
  const created = { leadId: row.id, lead, sourceName: source.name, owner: assigned.owner, notifyOwner: assigned.notifyOwner };
  const jobs = outboxJobs(write, created, { ...row, chats: row.chats.map(parseChatRecipient), teamSlug: () => row.teamSlug });
  queueJobs(batch, write, jobs);
  await writeExtras(client, write, row.id, false);
  return { added: false, leadId: row.id, source, currency: row.currency, ownerId: assigned.owner?.id ?? null, jobs: jobs.length };
}
