// Recognises failures that mean "the database cannot serve right now" (down, unreachable,
// overloaded, locked, too slow) as opposed to a bug, so callers can answer 503 and the
// client retries. The shapes were taken from what Prisma 6.19 with adapter-pg and
// adapter-better-sqlite3 actually throws (lib/db/database-unavailable.test.ts).

const UNAVAILABLE_PRISMA_CODES = new Set([
  "P1001", // can't reach database server
  "P1002", // server reached but timed out
  "P1008", // operation timed out
  "P1017", // server closed the connection
  "P2024", // timed out fetching a connection from the pool
  "P2028", // transaction could not start in time
  "P2034", // write conflict or deadlock: retrying is the fix
]);

// Driver adapter error kinds (@prisma/driver-adapter-utils) that mean the server is
// unreachable or out of capacity. Everything else (constraint, missing table…) is a bug.
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  "DatabaseNotReachable",
  "ConnectionClosed",
  "SocketTimeout",
  "TooManyConnections",
  "TransactionWriteConflict",
]);

// PostgreSQL SQLSTATEs, reported by adapter-pg as kind "postgres" with `code`:
// class 08 connection exceptions, 53 insufficient resources, 57P01-57P03 shutdown,
// crash and start-up, 57014 statement timeout, 40001/40P01 serialization failure and
// deadlock, 55P03 lock timeout, 25P03 idle-in-transaction timeout.
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[123]|57014|40001|40P01|55P03|25P03)$/;

const UNAVAILABLE_TEXT =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection terminated|is not queryable|connection timeout|timeout exceeded|Query read timeout|terminating connection|the database system is (shutting down|starting up)|database is locked|SQLITE_BUSY|SQLITE_CANTOPEN|unable to open database|Cannot open database|Can't reach database|canceling statement due to statement timeout|Unable to start a transaction|Transaction already closed|too many clients/i;

type Candidate = { code?: unknown; kind?: unknown; name?: unknown; message?: unknown; cause?: unknown; meta?: unknown };

function isUnavailableCause(candidate: Candidate): boolean {
  const { code, kind, name, message } = candidate;
  if (typeof code === "string" && (UNAVAILABLE_PRISMA_CODES.has(code) || UNAVAILABLE_SQLSTATE.test(code))) return true;
  if (typeof kind === "string" && UNAVAILABLE_ADAPTER_KINDS.has(kind)) return true;
  if (name === "PrismaClientInitializationError") return true;
  if (typeof message === "string" && UNAVAILABLE_TEXT.test(message)) return true;
  return typeof code === "string" && UNAVAILABLE_TEXT.test(code);
}

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

export function isDatabaseUnavailable(thrown: unknown): boolean {
  return anyCause(thrown, isUnavailableCause);
}

// The narrower case of the above: nothing reaches the database now (down, unreachable, out of
// connections, its write lock or a transaction not to be had in time). A deadlock, a write
// conflict, or a lock or statement timeout is one statement's failure instead, which the same
// work done in smaller pieces may not meet (lib/jobs/dispatcher.ts writes a group's outcomes
// alone after one).
const UNREACHABLE_PRISMA_CODES = new Set(["P1001", "P1002", "P1017", "P2024", "P2028"]);
const UNREACHABLE_ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const UNREACHABLE_SQLSTATE = /^(08...|53...|57P0[123])$/;
const UNREACHABLE_TEXT =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection terminated|is not queryable|connection timeout|timeout exceeded when trying to connect|terminating connection|the database system is (shutting down|starting up)|database is locked|SQLITE_BUSY|SQLITE_CANTOPEN|unable to open database|Cannot open database|Can't reach database|Unable to start a transaction|too many clients/i;

function isUnreachableCause({ code, kind, name, message }: Candidate): boolean {
  if (typeof code === "string" && (UNREACHABLE_PRISMA_CODES.has(code) || UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_TEXT.test(code)))
    return true;
  if (typeof kind === "string" && UNREACHABLE_ADAPTER_KINDS.has(kind)) return true;
  if (name === "PrismaClientInitializationError") return true;
  return typeof message === "string" && UNREACHABLE_TEXT.test(message);
}

/** The database cannot be reached or give a transaction now (a subset of isDatabaseUnavailable). */
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
