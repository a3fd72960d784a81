// Recognises failures that mean "the database cannot serve right now" (down, unreachable,
// overloaded, locked, too slow) as opposed to a bug, so callers can answer 503 and the
// client retries. The shapes were taken from what Prisma 6.19 with adapter-pg and
// adapter-better-sqlite3 actually throws (lib/db/database-unavailable.test.ts).

/** What marks an error as one of a kind: its Prisma code, adapter kind, SQLSTATE or text. */
type CauseRules = { prismaCodes: Set<string>; adapterKinds: Set<string>; sqlstate: RegExp; text: RegExp };

// Nothing reaches the database now: down, unreachable, out of connections, its write lock or a
// transaction not to be had in time.
const UNREACHABLE: CauseRules = {
  prismaCodes: new Set([
    "P1001", // can't reach database server
    "P1002", // server reached but timed out
    "P1017", // server closed the connection
    "P2024", // timed out fetching a connection from the pool
    "P2028", // transaction could not start in time
  ]),
  // Driver adapter error kinds (@prisma/driver-adapter-utils): the server unreachable or out of
  // capacity. Everything else (constraint, missing table…) is a bug.
  adapterKinds: new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]),
  // PostgreSQL SQLSTATEs, reported by adapter-pg as kind "postgres" with `code`: class 08
  // connection exceptions, 53 insufficient resources, 57P01-57P03 shutdown, crash and start-up.
  sqlstate: /^(08...|53...|57P0[123])$/,
  text: /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection terminated|is not queryable|connection timeout|timeout exceeded when trying to connect|terminating connection|the database system is (shutting down|starting up)|database is locked|SQLITE_BUSY|SQLITE_CANTOPEN|unable to open database|Cannot open database|Can't reach database|Unable to start a transaction|too many clients/i,
};

// One statement's failure that a retry fixes: a deadlock, a write conflict, a lock or
// statement timeout. The same work done again, or in smaller pieces, may not meet it.
const ONE_STATEMENT: CauseRules = {
  prismaCodes: new Set([
    "P1008", // operation timed out
    "P1018", // transaction already closed (its timeout rolled it back mid-operation)
    "P2034", // write conflict or deadlock: retrying is the fix
  ]),
  adapterKinds: new Set(["TransactionWriteConflict", "TransactionAlreadyClosed"]),
  // 57014 statement timeout, 40001/40P01 serialization failure and deadlock, 55P03 lock
  // timeout, 25P03 idle-in-transaction timeout.
  sqlstate: /^(57014|40001|40P01|55P03|25P03)$/,
  text: /timeout exceeded|Query read timeout|canceling statement due to statement timeout|Transaction already closed/i,
};

type Candidate = { code?: unknown; kind?: unknown; name?: unknown; message?: unknown; cause?: unknown; meta?: unknown };

function matches(rules: CauseRules, { code, kind, message }: Candidate): boolean {
  if (typeof code === "string" && (rules.prismaCodes.has(code) || rules.sqlstate.test(code) || rules.text.test(code))) return true;
  if (typeof kind === "string" && rules.adapterKinds.has(kind)) return true;
  return typeof message === "string" && rules.text.test(message);
}

const isUnreachableCause = (candidate: Candidate) =>
  candidate.name === "PrismaClientInitializationError" || matches(UNREACHABLE, candidate);

/** Whether `thrown`, or an error in its `cause` chain or Prisma's attached adapter error, passes `test`. */
function anyCause(thrown: unknown, test: (error: Candidate) => boolean): boolean {
  const queue: unknown[] = [thrown];
  for (let seen = 0; queue.length && seen < 12; seen++) {
    const candidate = queue.shift();
    if (!candidate || typeof candidate !== "object") continue;
    const error = candidate as Candidate;
    if (test(error)) return true;
    queue.push(error.cause, (error.meta as { driverAdapterError?: unknown } | undefined)?.driverAdapterError);
  }
  return false;
}

/** The database cannot serve right now: unreachable, or one statement's failure that a retry fixes. */
export function isDatabaseUnavailable(thrown: unknown): boolean {
  return anyCause(thrown, (candidate) => isUnreachableCause(candidate) || matches(ONE_STATEMENT, candidate));
}

/**
 * Nothing reaches the database or gives a transaction now (a subset of isDatabaseUnavailable):
 * lib/jobs/dispatcher.ts then leaves a group's outcomes claimed, where after one statement's
 * failure it writes them alone.
 */
export function isDatabaseUnreachable(thrown: unknown): boolean {
  return anyCause(thrown, isUnreachableCause);
}

/** A unique-constraint violation (P2002 on both databases). */
export function isUniqueViolation(thrown: unknown): boolean {
  for (let error = thrown, depth = 0; error && depth < 5; depth++) {
    const candidate = error as { code?: unknown; cause?: unknown };
    if (candidate.code === "P2002") return true;
    error = candidate.cause;
  }
  return false;
}
