import type { Tx } from "../db/client";
import { driver } from "../db/driver";
import { env } from "../env";
import { resolveLeadSource } from "../teams/lead-sources";
import { leadBatchInserts } from "./lead-columns";
import { counterSql, leadRow, MissingApiSource, missingCounter, type LeadWrite, type LeadWritten } from "./lead-write";
import { writeLeadPostgres } from "./lead-writer-postgres";
import { writeLeadsSqlite } from "./lead-writer-sqlite";
import type { NewLead } from "./new-lead";

// The one lead writer: every lead enters the database here, whether it came from create_lead,
// a web form (one lead per transaction, on the intake's hot path) or an import (batches).
// It owns the lead counter and the id format, the fall-back to the team's "API" source, the
// written columns and their conversion (lead-write.ts, lead-columns.ts), and its statements
// for SQLite and PostgreSQL side by side (lead-writer-sqlite.ts, lead-writer-postgres.ts).
// Those run on the database driver, not through Prisma (docs/performance.md "The intake on
// the driver"); Prisma owns the schema, and lead-writer-columns.test.ts checks the written
// columns against its model metadata, lead-writer-parity.test.ts what is written against
// Prisma's own writes.

export { MissingApiSource, type LeadFields, type LeadWrite, type LeadWritten } from "./lead-write";

/**
 * Stores a lead and everything that commits with it (its request-log row, its outbox rows,
 * an idempotent response, a spent challenge) in one transaction. A team without its "API"
 * source (deleted, or never made) gets it made once, and the lead is written again. Throws
 * the claim's `lost` or the challenge's `replayed` error when those fail, after rolling
 * everything back.
 */
export async function writeLead(write: LeadWrite): Promise<LeadWritten> {
  const once = async () => {
    const d = await driver();
    return d.provider === "sqlite" ? groupCommit(write) : writeLeadPostgres(d.pool, write);
  };
  return once().catch(async (error: unknown) => {
    if (!(error instanceof MissingApiSource)) throw error;
    await resolveLeadSource(write.lead.teamId);
    return once();
  });
}

/** The most leads one SQLite commit holds. */
const MOST_PER_COMMIT = 64;
type Waiting = { write: LeadWrite; resolve: (written: LeadWritten) => void; reject: (error: unknown) => void };
const waiting: Waiting[] = [];
let flushing = false;

/**
 * SQLite's group commit (docs/performance.md "Group commit"): the leads that reach the
 * writer while the event loop is busy with other requests wait for its next turn
 * (setImmediate) and commit together, each in its own savepoint (writeLeadsSqlite), so one
 * refused lead never undoes another. Each is answered only after the commit: a lead that is
 * acknowledged is in the WAL, as before. One commit writes the pages the leads share (the
 * counter's, the right-hand leaves of the id- and time-ordered indexes) once, not once per lead.
 */
function groupCommit(write: LeadWrite): Promise<LeadWritten> {
  return new Promise((resolve, reject) => {
    waiting.push({ write, resolve, reject });
    if (!flushing) {
      flushing = true;
      setImmediate(flush);
    }
  });
}

async function flush(): Promise<void> {
  const batch = waiting.splice(0, MOST_PER_COMMIT);
  try {
    const d = await driver();
    if (d.provider !== "sqlite") throw new Error("Group commit is SQLite's");
    const outcomes = await d.run((database) =>
      writeLeadsSqlite(
        database,
        batch.map((w) => w.write),
      ),
    );
    outcomes.forEach((outcome, i) => ("written" in outcome ? batch[i]!.resolve(outcome.written) : batch[i]!.reject(outcome.error)));
  } catch (error) {
    for (const w of batch) w.reject(error);
  } finally {
    if (waiting.length) setImmediate(flush);
    else flushing = false;
  }
}

/**
 * Inserts leads inside `tx` (Prisma's, so an import's batch commits with its progress) with
 * consecutive ids in the order given (an import's batch, in file order); returns their ids.
 * Their sources and owners are settled by the caller; a lead with an owner is assigned at the
 * batch's time. The counter is advanced first thing here, so its row lock, which create_lead
 * waits for, is held only from here to the commit.
 */
export async function writeLeadBatch(
  tx: Tx,
  leads: readonly (NewLead & { importId?: string | null; ownerId?: string | null })[],
): Promise<string[]> {
  if (!leads.length) return [];
  // Raw: the same statement Prisma would send, without compiling it per call.
  const [counter] = await tx.$queryRawUnsafe<{ value: number | bigint }[]>(counterSql(String(leads.length)));
  if (!counter) throw missingCounter();
  const first = Number(counter.value) - leads.length + 1;
  const createdAt = new Date();
  const rows = leads.map((lead, index) => ({
    ...leadRow(lead, first + index, createdAt),
    importId: lead.importId ?? null,
    ownerId: lead.ownerId ?? null,
    assignedAt: lead.ownerId ? createdAt : null,
  }));
  // Multi-row INSERTs: Prisma's createMany compiles a plan per call in its query compiler,
  // ≈ 2 s and hundreds of MB for 500 rows on a loaded 2-core machine; these statements go
  // to the driver as they are.
  for (const { sql, values } of leadBatchInserts(env().DATABASE_PROVIDER, rows)) await tx.$executeRawUnsafe(sql, ...values);
  return rows.map((row) => row.id);
}
