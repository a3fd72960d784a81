// Recognises failures that mean "the database cannot serve right now" (down, unreachable,
// overloaded, locked) as opposed to a bug, so callers can answer 503 and the client retries.

const UNAVAILABLE_CODES = new Set([
  "P1001", // can't reach database server
  "P1002", // server reached but timed out
  "P1008", // operation timed out
  "P1017", // server closed the connection
  "P2024", // timed out fetching a connection from the pool
  "P2028", // transaction could not start in time
  "P2034", // write conflict or deadlock: retrying is the fix
]);

const UNAVAILABLE_TEXT =
  /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|Connection terminated|connection timeout|timeout exceeded|terminating connection|the database system is (shutting down|starting up)|database is locked|SQLITE_BUSY|SQLITE_CANTOPEN|unable to open database|Cannot open database|Can't reach database|canceling statement due to statement timeout|Unable to start a transaction|Transaction already closed|too many clients/i;

export function isDatabaseUnavailable(thrown: unknown): boolean {
  for (let error = thrown, depth = 0; error && depth < 5; depth++) {
    const candidate = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    if (typeof candidate.code === "string" && UNAVAILABLE_CODES.has(candidate.code)) return true;
    if (candidate.name === "PrismaClientInitializationError") return true;
    if (typeof candidate.message === "string" && UNAVAILABLE_TEXT.test(candidate.message)) return true;
    if (typeof candidate.code === "string" && UNAVAILABLE_TEXT.test(candidate.code)) return true;
    error = candidate.cause;
  }
  return false;
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
