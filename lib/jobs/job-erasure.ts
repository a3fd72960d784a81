import type { Tx } from "../db/client";
import { env } from "../env";
import { asStoredInJson, containsPattern, type PersonContacts } from "../leads/person-match";

// A person's erasure (lib/leads/erase-person.ts) in the outbox: the webhook and email jobs
// whose payload names one of the erased leads or the person's email or number, in any
// state (pending, running, delivered, failed, cancelled), with their delivery-log rows;
// and delivery-log rows of other jobs whose error or response excerpt quotes the person.
//
// A job being delivered right now (claimed, its POST or email under way) is deleted too.
// What was already sent is the receiver's; the dispatcher then finds no row to record the
// attempt's end on: an email's end is a lost claim (jobs.claim_lost), a webhook's delivery-
// log row no longer has its job (the foreign key refuses it, nothing of the attempt is
// written: jobs.finish_failed). Either way the job is not sent again: it no longer exists.

/** LIKE patterns per statement: each is a bound parameter (SQLite's limit is 999). */
const PATTERNS_PER_STATEMENT = 100;
/** Ids per IN list. */
const IDS_PER_STATEMENT = 500;

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * A raw statement's text and values: `head(team)` (the team's placeholder given) followed
 * by ` AND (LOWER(a) LIKE ? ESCAPE '\\' OR LOWER(b) LIKE ? …)` for every column and pattern.
 * Placeholders are numbered on PostgreSQL ($1…) and positional on SQLite (?), one value each.
 */
function withAnyLike(head: (team: string) => string, teamId: string, columns: readonly string[], patterns: readonly string[]) {
  const postgres = env().DATABASE_PROVIDER === "postgres";
  const values: string[] = [];
  const bind = (value: string) => {
    values.push(value);
    return postgres ? `$${values.length}` : "?";
  };
  const start = head(bind(teamId));
  const tests = patterns.flatMap((pattern) => columns.map((column) => `LOWER(${column}) LIKE ${bind(pattern)} ESCAPE '\\'`));
  return { sql: `${start} AND (${tests.join(" OR ")})`, values };
}

export type JobErasure = { jobs: number; deliveryAttempts: number };

type PersonJobsOptions = { teamId: string; leadIds: readonly string[]; contacts: PersonContacts };

/** The ids of the team's jobs (not imports) whose payload names these leads or the person. */
async function personJobIds(client: Tx, options: PersonJobsOptions): Promise<string[]> {
  const { contacts } = options;
  // Payloads are JSON: a lead id or a number is a whole JSON string ("CRM-LEAD-00001", not
  // a prefix of CRM-LEAD-000010); an email may sit inside a longer text (an extra field).
  const payloadPatterns = [
    ...options.leadIds.map((id) => containsPattern(JSON.stringify(id))),
    ...contacts.phones.map((phone) => containsPattern(JSON.stringify(phone))),
    ...contacts.emails.flatMap(asStoredInJson).map(containsPattern),
  ];
  const jobIds = new Set<string>();
  for (const patterns of chunks(payloadPatterns, PATTERNS_PER_STATEMENT)) {
    const { sql, values } = withAnyLike(
      (team) => `SELECT "id" FROM "Job" WHERE "teamId" = ${team} AND "kind" <> 'import'`,
      options.teamId,
      ['"payload"'],
      patterns,
    );
    const rows = await client.$queryRawUnsafe<{ id: string }[]>(sql, ...values);
    for (const row of rows) jobIds.add(row.id);
  }
  return [...jobIds];
}

/**
 * `head` over the team's delivery-log rows (`SELECT …` or `DELETE`) whose error or response
 * excerpt quotes the person (a receiver's answer, or an error, logged for any job): one
 * statement per chunk of patterns.
 */
function quotingAttempts(head: string, options: { teamId: string; contacts: PersonContacts }) {
  const { contacts } = options;
  const quoted = [...contacts.emails.flatMap(asStoredInJson), ...contacts.phones].map(containsPattern);
  return chunks(quoted, PATTERNS_PER_STATEMENT).map((patterns) =>
    withAnyLike(
      (team) => `${head} FROM "WebhookAttempt" WHERE "endpointId" IN (SELECT "id" FROM "WebhookEndpoint" WHERE "teamId" = ${team})`,
      options.teamId,
      ['"error"', '"responseExcerpt"'],
      patterns,
    ),
  );
}

/** Deletes the team's jobs naming these leads or the person, and delivery-log rows quoting the person. */
export async function erasePersonJobs(tx: Tx, options: PersonJobsOptions): Promise<JobErasure> {
  let deliveryAttempts = 0;
  let jobs = 0;
  for (const ids of chunks(await personJobIds(tx, options), IDS_PER_STATEMENT)) {
    // The delivery log would go with its jobs (ON DELETE CASCADE); deleted first to be counted.
    deliveryAttempts += (await tx.webhookAttempt.deleteMany({ where: { jobId: { in: ids } } })).count;
    jobs += (await tx.job.deleteMany({ where: { id: { in: ids }, teamId: options.teamId } })).count;
  }
  for (const { sql, values } of quotingAttempts("DELETE", options)) deliveryAttempts += await tx.$executeRawUnsafe(sql, ...values);
  return { jobs, deliveryAttempts };
}

/** What erasePersonJobs would delete now for the person (no lead ids): the Erase page's counts. */
export async function countPersonJobs(client: Tx, options: { teamId: string; contacts: PersonContacts }): Promise<JobErasure> {
  const jobIds = await personJobIds(client, { ...options, leadIds: [] });
  let deliveryAttempts = 0;
  for (const ids of chunks(jobIds, IDS_PER_STATEMENT))
    deliveryAttempts += await client.webhookAttempt.count({ where: { jobId: { in: ids } } });
  const theirs = new Set(jobIds);
  const quoted = new Set<number>();
  for (const { sql, values } of quotingAttempts(`SELECT "id", "jobId"`, options)) {
    for (const row of await client.$queryRawUnsafe<{ id: number | bigint; jobId: string }[]>(sql, ...values)) {
      if (!theirs.has(row.jobId)) quoted.add(Number(row.id));
    }
  }
  return { jobs: jobIds.length, deliveryAttempts: deliveryAttempts + quoted.size };
}
