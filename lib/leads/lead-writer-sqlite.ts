import type Database from "better-sqlite3";
import { sqliteValue, type ColumnType } from "../db/column-values";
import { newJobId, type NewJob } from "../jobs/job-store";
import type { ChatRecipient } from "../chat/chat-outbox";
import type { LeadSource } from "../teams/lead-sources";
import { LEAD_CREATED, LEAD_SUBMITTED } from "../webhooks/lead-created-event";
import { assignSqlite, insertWaitingSqlite } from "../routing/intake-assignment";
import { DEFAULT_CURRENCY } from "../workspace/settings";
import {
  API_REQUEST_COLUMNS,
  CONNECTION_DELIVERY_COLUMNS,
  deliveryUpsertSql,
  insertSql,
  repeatCandidatesSql,
  updateByIdSql,
  JOB_COLUMNS,
  LEAD_COLUMNS,
  LEAD_SUBMISSION_COLUMNS,
  LEAD_CONSENT_COLUMNS,
  QUARANTINED_LEAD_COLUMNS,
  SPAM_LIST_ENTRY_COLUMNS,
  spamListEntrySql,
  SPENT_CHALLENGE_COLUMNS,
} from "./lead-columns";
import {
  allowRow,
  consentRow,
  counterSql,
  deliveryRow,
  firstSubmissionId,
  JOINED_LEAD_COLUMNS,
  joinedJobs,
  joinedRoutedLead,
  joinLead,
  leadRow,
  MissingApiSource,
  missingCounter,
  newSubmissionId,
  outboxJobs,
  pickSource,
  quarantineRow,
  repeatLookup,
  repeatTarget,
  requestLogRow,
  sourceKeys,
  STORED_LEAD_COLUMNS,
  storedLead,
  submissionRow,
  type BatchOutcome,
  type JoinChats,
  type LeadWrite,
  type StoredLead,
  type LeadWritten,
} from "./lead-write";
import { formatLeadId } from "./lead-id";

// The lead writer on SQLite: statements prepared once per connection, one synchronous
// IMMEDIATE better-sqlite3 transaction on Prisma's own connection, behind the adapter's lock
// (lib/db/driver.ts). PostgreSQL's statements are lead-writer-postgres.ts; what both share
// is lead-write.ts.

type Statements = ReturnType<typeof prepare> & {
  writeLead: ReturnType<typeof leadTransaction>;
  writeLeads: ReturnType<typeof batchTransaction>;
};
const statements = new WeakMap<Database.Database, Statements>();

function prepare(database: Database.Database) {
  const statement = (sql: string) => database.prepare(sql).safeIntegers(false);
  return {
    source: statement(`SELECT "id", "name", "nameKey" FROM "LeadSource" WHERE "teamId" = ? AND ("nameKey" = ? OR "nameKey" = ?)`),
    currency: statement(`SELECT "currency" FROM "WorkspaceSettings" WHERE "id" = 1`),
    counter: statement(counterSql("1")),
    lead: statement(insertSql("Lead", LEAD_COLUMNS, () => "?")),
    submission: statement(insertSql("LeadSubmission", LEAD_SUBMISSION_COLUMNS, () => "?")),
    consent: statement(insertSql("LeadConsent", LEAD_CONSENT_COLUMNS, () => "?")),
    request: statement(insertSql("ApiRequest", API_REQUEST_COLUMNS, () => "?")),
    endpoints: statement(`SELECT "id", "events" FROM "WebhookEndpoint" WHERE "teamId" = ? AND "enabled" = 1 ORDER BY "id"`),
    subscribers: statement(`SELECT "userId" FROM "Membership" WHERE "teamId" = ? AND "notifyNewLeads" = 1 ORDER BY "userId"`),
    chats: statement(
      `SELECT "id", "newLeadFilter" AS "filter", "includeFields" AS "fields" FROM "ChatDestination" WHERE "teamId" = ? AND "enabled" = 1 AND "postNewLeads" = 1 ORDER BY "id"`,
    ),
    repeatChats: statement(
      `SELECT "id", "newLeadFilter" AS "filter", "includeFields" AS "fields" FROM "ChatDestination" WHERE "teamId" = ? AND "enabled" = 1 AND "postRepeats" = 1 ORDER BY "id"`,
    ),
    sourceName: statement(`SELECT "name" FROM "LeadSource" WHERE "id" = ?`),
    ownerName: statement(`SELECT "id", COALESCE("name", "email") AS "name" FROM "User" WHERE "id" = ?`),
    teamSlug: statement(`SELECT "slug" FROM "Team" WHERE "id" = ?`),
    job: statement(insertSql("Job", JOB_COLUMNS, () => "?")),
    claim: statement(
      `UPDATE "IdempotencyRecord" SET "responseStatus" = ?, "responseBody" = ? WHERE "id" = ? AND "token" = ? AND "responseStatus" IS NULL`,
    ),
    challenge: statement(`${insertSql("SpentChallenge", SPENT_CHALLENGE_COLUMNS, () => "?")} ON CONFLICT ("id") DO NOTHING`),
    delivery: statement(deliveryUpsertSql(() => "?")),
    repeatCandidates: statement(
      repeatCandidatesSql(
        STORED_LEAD_COLUMNS,
        { team: "@team", email: "@email", n1: "@n1", n2: "@n2" },
        { time: (c) => c, forUpdate: false },
      ),
    ),
    joinLead: statement(updateByIdSql("Lead", JOINED_LEAD_COLUMNS, () => "?")),
    assignJoined: statement(`UPDATE "Lead" SET "ownerId" = ?, "assignedAt" = ? WHERE "id" = ?`),
    quarantine: statement(insertSql("QuarantinedLead", QUARANTINED_LEAD_COLUMNS, () => "?")),
    unquarantine: statement(`DELETE FROM "QuarantinedLead" WHERE "id" = ? AND "teamId" = ?`),
    allowEntry: statement(spamListEntrySql(() => "?").insert),
    bumpSpamLists: statement(spamListEntrySql(() => "?").bump),
  };
}

function statementsOf(database: Database.Database): Statements {
  let prepared = statements.get(database);
  if (!prepared) {
    const plain = prepare(database);
    const writeLead = leadTransaction(database, plain);
    prepared = { ...plain, writeLead, writeLeads: batchTransaction(database, writeLead) };
    statements.set(database, prepared);
  }
  return prepared;
}

const rowValues = (columns: Record<string, ColumnType>, row: Record<string, unknown>) =>
  Object.keys(columns).map((name) => sqliteValue(columns[name]!, row[name]));

/**
 * Writes several leads in one IMMEDIATE transaction, each in a savepoint of its own
 * (better-sqlite3 nests a transaction function as a savepoint): a lead that throws (a lost
 * claim, a repeated delivery, a missing source) is rolled back alone and its error returned
 * in its place; the others commit together. An error that ends the whole transaction fails
 * every lead of the batch (thrown).
 */
export function writeLeadsSqlite(database: Database.Database, writes: readonly LeadWrite[]): BatchOutcome[] {
  return statementsOf(database).writeLeads.immediate(writes);
}

function batchTransaction(database: Database.Database, writeLead: ReturnType<typeof leadTransaction>) {
  return database.transaction((writes: readonly LeadWrite[]): BatchOutcome[] =>
    writes.map((write) => {
      try {
        return { written: writeLead(write) };
      } catch (error) {
        // SQLite ended the transaction itself (a full disk, an I/O error): nothing is committed.
        if (!database.inTransaction) throw error;
        return { error };
      }
    }),
  );
}

/** The lead's transaction, as one better-sqlite3 transaction function (prepared once per connection). */
function leadTransaction(database: Database.Database, s: ReturnType<typeof prepare>) {
  return database.transaction((write: LeadWrite): LeadWritten => {
    const teamId = write.lead.teamId;
    if (write.quarantine) return quarantineSqlite(s, write);
    const joined = joinSqlite(database, s, write);
    if (joined) return joined;
    const source = resolveSource(s, write);
    const currency = (s.currency.get() as { currency: string } | undefined)?.currency ?? DEFAULT_CURRENCY;
    const counter = write.release ? released(s, write) : (s.counter.get() as { value: number } | undefined);
    if (!counter) throw missingCounter();
    const lead = { ...write.lead, sourceId: source.id, currency };
    const assigned = assignSqlite(database, teamId, lead, write.now);
    const row = { ...leadRow(lead, counter.value, write.now), ownerId: assigned.owner?.id ?? null, assignedAt: assigned.assignedAt };
    s.lead.run(rowValues(LEAD_COLUMNS, row));
    s.submission.run(
      rowValues(
        LEAD_SUBMISSION_COLUMNS,
        submissionRow(write.lead, { id: firstSubmissionId(row.id), leadId: row.id, createdAt: write.now }),
      ),
    );
    if (write.consent) s.consent.run(rowValues(LEAD_CONSENT_COLUMNS, consentRow(write, row.id, firstSubmissionId(row.id))));
    // A lead whose rule has nobody on duty waits for the next one (docs/routing.md "Assignment rules").
    if (assigned.waitRuleId) insertWaitingSqlite(database, { leadId: row.id, teamId, ruleId: assigned.waitRuleId, since: write.now });
    if (write.requestLog) s.request.run(rowValues(API_REQUEST_COLUMNS, requestLogRow(write, row.id, false)));
    const endpoints = (s.endpoints.all(teamId) as { id: string; events: string }[])
      .filter((endpoint) => endpoint.events.split(" ").includes(LEAD_CREATED))
      .map((endpoint) => endpoint.id);
    const subscribers = write.events.emails ? (s.subscribers.all(teamId) as { userId: string }[]).map((member) => member.userId) : [];
    const teamSlug = () => (s.teamSlug.get(teamId) as { slug: string }).slug;
    const created = { leadId: row.id, lead, sourceName: source.name, owner: assigned.owner, notifyOwner: assigned.notifyOwner };
    const chats = s.chats.all(teamId) as ChatRecipient[];
    const jobs = outboxJobs(write, created, { teamSlug, endpoints, subscribers, chats });
    insertJobs(s, write, jobs);
    writeExtras(s, write, row.id, false);
    return { added: false, leadId: row.id, source, currency, ownerId: row.ownerId, jobs: jobs.length };
  });
}

function insertJobs(s: ReturnType<typeof prepare>, write: LeadWrite, jobs: readonly NewJob[]): void {
  for (const job of jobs)
    s.job.run(
      rowValues(JOB_COLUMNS, {
        ...job,
        id: newJobId(),
        endpointId: job.endpointId ?? null,
        chatDestinationId: job.chatDestinationId ?? null,
        leadId: job.leadId ?? null,
        createdAt: write.now,
      }),
    );
}

/** What commits with a submission, made a lead or added to one: the idempotent response, the spent challenge, the delivery's log row. */
function writeExtras(s: ReturnType<typeof prepare>, write: LeadWrite, leadId: string, added: boolean): void {
  if (write.claim) {
    const response = write.claim.response(leadId, added);
    if (s.claim.run(response.status, response.body, write.claim.id, write.claim.token).changes !== 1) throw write.claim.lost();
  }
  if (write.spentChallenge) {
    if (s.challenge.run(rowValues(SPENT_CHALLENGE_COLUMNS, write.spentChallenge)).changes !== 1) throw write.spentChallenge.replayed();
  }
  if (write.delivery) {
    if (s.delivery.run(rowValues(CONNECTION_DELIVERY_COLUMNS, deliveryRow(write, leadId, added))).changes !== 1) {
      throw write.delivery.repeated();
    }
  }
}

/**
 * A channel set to "add": the person's lead takes the submission (its empty fields filled, the
 * submission kept, its request-log row 200), inside the lead's savepoint; null when the person
 * has no lead in the window (a new lead is made). The transaction holds SQLite's write lock
 * from its start, so the lead read is the lead updated, on every instance.
 */
function joinSqlite(database: Database.Database, s: ReturnType<typeof prepare>, write: LeadWrite): LeadWritten | null {
  const lookup = repeatLookup(write);
  if (!lookup) return null;
  const [n1 = null, n2 = n1] = lookup.numbers;
  const found = s.repeatCandidates.all({ team: write.lead.teamId, email: lookup.email, n1, n2 }) as Record<string, unknown>[];
  const target = repeatTarget(write, found.map(storedLead));
  if (!target) return null;
  const teamId = write.lead.teamId;
  const joined = joinLead(target, write);
  s.joinLead.run([...rowValues(JOINED_LEAD_COLUMNS, joined.values), target.id]);
  // A lead with no owner goes through the rules again (no owner found: it stays unassigned).
  if (!target.ownerId) {
    const assigned = assignSqlite(database, teamId, joinedRoutedLead(joined, write), write.now);
    if (assigned.owner) {
      s.assignJoined.run(assigned.owner.id, sqliteValue("timestamp", write.now), target.id);
      joined.values.ownerId = assigned.owner.id;
    }
    if (assigned.waitRuleId) insertWaitingSqlite(database, { leadId: target.id, teamId, ruleId: assigned.waitRuleId, since: write.now });
  }
  const submission = submissionRow(write.lead, { id: newSubmissionId(), leadId: target.id, createdAt: write.now });
  s.submission.run(rowValues(LEAD_SUBMISSION_COLUMNS, submission));
  if (write.consent) s.consent.run(rowValues(LEAD_CONSENT_COLUMNS, consentRow(write, target.id, submission.id)));
  if (write.requestLog) s.request.run(rowValues(API_REQUEST_COLUMNS, requestLogRow(write, target.id, true)));
  const endpoints = (s.endpoints.all(teamId) as { id: string; events: string }[])
    .filter((endpoint) => endpoint.events.split(" ").includes(LEAD_SUBMITTED))
    .map((endpoint) => endpoint.id);
  const subscribers =
    write.events.emails && !joined.values.ownerId ? (s.subscribers.all(teamId) as { userId: string }[]).map((member) => member.userId) : [];
  const teamSlug = (s.teamSlug.get(teamId) as { slug: string }).slug;
  const jobs = joinedJobs(
    write,
    joined,
    submission,
    { teamSlug, endpoints, subscribers },
    joinChatsSqlite(s, teamId, target, joined.values.ownerId),
  );
  insertJobs(s, write, jobs);
  writeExtras(s, write, target.id, true);
  return { added: true, leadId: target.id, ownerId: joined.values.ownerId, jobs: jobs.length };
}

/** The chat destinations that post repeats, and the source's and owner's names their messages give; null when there are none. */
function joinChatsSqlite(s: ReturnType<typeof prepare>, teamId: string, target: StoredLead, ownerId: string | null): JoinChats | null {
  const chats = s.repeatChats.all(teamId) as ChatRecipient[];
  if (!chats.length) return null;
  const source = s.sourceName.get(target.sourceId) as { name: string } | undefined;
  const owner = ownerId ? ((s.ownerName.get(ownerId) as { id: string; name: string } | undefined) ?? null) : null;
  return { chats, sourceName: source?.name ?? "", owner, lastSubmittedAt: target.returnedAt };
}

/**
 * A submission the spam checks flagged: its quarantine row under a lead number of its own,
 * its request-log row naming the reasons, and the extras (an idempotent response, a spent
 * challenge, a delivery's row), so the sender is answered as for a new lead; nothing else.
 */
function quarantineSqlite(s: ReturnType<typeof prepare>, write: LeadWrite): LeadWritten {
  const counter = s.counter.get() as { value: number } | undefined;
  if (!counter) throw missingCounter();
  const row = quarantineRow(write, counter.value);
  s.quarantine.run(rowValues(QUARANTINED_LEAD_COLUMNS, row));
  if (write.requestLog) s.request.run(rowValues(API_REQUEST_COLUMNS, requestLogRow(write, row.id, false)));
  writeExtras(s, write, row.id, false);
  return { added: false, quarantined: true, leadId: row.id, ownerId: null, jobs: 0 };
}

/** A released submission's lead number, once its quarantine row is deleted and its sender allow-listed (LeadWrite.release). */
function released(s: ReturnType<typeof prepare>, write: LeadWrite): { value: number } {
  const { seq, gone } = write.release!;
  if (s.unquarantine.run(formatLeadId(seq), write.lead.teamId).changes !== 1) throw gone();
  const allow = allowRow(write);
  if (allow && s.allowEntry.run(rowValues(SPAM_LIST_ENTRY_COLUMNS, allow)).changes === 1) s.bumpSpamLists.run(write.lead.teamId);
  return { value: seq };
}

function resolveSource(s: ReturnType<typeof prepare>, write: LeadWrite): LeadSource {
  const keys = sourceKeys(write.source);
  if (!keys) return (write.source as { chosen: LeadSource }).chosen;
  const match = pickSource(s.source.all(write.lead.teamId, ...keys) as { id: string; name: string; nameKey: string }[], keys);
  if (!match) throw new MissingApiSource();
  return { id: match.id, name: match.name };
}
