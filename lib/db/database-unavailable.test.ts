import assert from "node:assert/strict";
import { test } from "node:test";
import { isDatabaseUnavailable } from "./errors";

// What Prisma 6.19.3 with @prisma/adapter-pg 6.19.3 and pg 8.23 threw when the server
// was stopped (pg_ctl stop -m fast / immediate), unreachable, overloaded or too slow,
// reproduced against a private cluster and copied here field for field. The HTTP side
// of the same faults is covered end to end by e2e/postgres/fault.test.ts.

const adapterError = (cause: Record<string, unknown>) => ({ name: "DriverAdapterError", cause });
const prismaError = (code: string, cause: Record<string, unknown>, message: string) =>
  Object.assign(new Error(message), {
    name: "PrismaClientKnownRequestError",
    code,
    meta: { driverAdapterError: adapterError(cause) },
  });
const postgresCause = (code: string, message: string, severity = "FATAL") => ({
  originalCode: code,
  originalMessage: message,
  kind: "postgres",
  code,
  severity,
  message,
});

const unavailable: [string, unknown][] = [
  [
    "server stopped: the next query on a pooled connection (57P01, unwrapped adapter error)",
    Object.assign(new Error("terminating connection due to administrator command"), {
      name: "DriverAdapterError",
      cause: postgresCause("57P01", "terminating connection due to administrator command"),
    }),
  ],
  [
    "server stopped while a query ran (P2010 wrapping 57P01)",
    prismaError("P2010", postgresCause("57P01", "terminating connection due to administrator command"), "Raw query failed. Code: `57P01`."),
  ],
  [
    "server down: connection refused (P1001, DatabaseNotReachable)",
    prismaError("P1001", { kind: "DatabaseNotReachable", host: "127.0.0.1", port: 5555 }, "Can't reach database server at 127.0.0.1:5555"),
  ],
  ["server crashed mid-query (pg_ctl stop -m immediate)", new Error("Connection terminated unexpectedly")],
  ["a pooled client whose socket died with the server", new Error("Client has encountered a connection error and is not queryable")],
  ["a write to a socket the server has just closed", Object.assign(new Error("write EPIPE"), { code: "EPIPE" })],
  ["a pooled client already closed by the pool", new Error("Client was closed and is not queryable")],
  ["pool exhausted for DB_CONNECT_TIMEOUT_MS", new Error("timeout exceeded when trying to connect")],
  ["connect timeout on a new connection", new Error("Connection terminated due to connection timeout")],
  ["client-side query timeout (server hung)", new Error("Query read timeout")],
  [
    "too slow: statement_timeout (57014)",
    prismaError(
      "P2010",
      postgresCause("57014", "canceling statement due to statement timeout", "ERROR"),
      "Raw query failed. Code: `57014`.",
    ),
  ],
  ["server starting up (57P03)", adapterError(postgresCause("57P03", "the database system is starting up"))],
  ["too many connections (53300)", adapterError({ kind: "TooManyConnections", cause: "sorry, too many clients already" })],
  ["connection reset", adapterError({ kind: "ConnectionClosed" })],
  ["interactive transaction timed out", { name: "PrismaClientKnownRequestError", code: "P2028", message: "Transaction already closed" }],
  ["SQLite locked", Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" })],
];

const notUnavailable: [string, unknown][] = [
  [
    "unique violation",
    prismaError("P2002", { kind: "UniqueConstraintViolation", constraint: { fields: ["seq"] } }, "Unique constraint failed"),
  ],
  [
    "unsupported column type (a bug in a raw query)",
    prismaError("P2010", { kind: "UnsupportedNativeDataType", type: "void" }, "Failed to deserialize column of type 'void'"),
  ],
  [
    "missing table (migrations not applied)",
    prismaError("P2021", { kind: "TableDoesNotExist", table: "Lead" }, "The table `Lead` does not exist"),
  ],
  ["syntax error", adapterError(postgresCause("42601", 'syntax error at or near "SELEC"', "ERROR"))],
  ["plain bug", new TypeError("Cannot read properties of undefined (reading 'id')")],
  ["nothing", undefined],
];

for (const [name, error] of unavailable) {
  test(`503: ${name}`, () => assert.equal(isDatabaseUnavailable(error), true));
}
for (const [name, error] of notUnavailable) {
  test(`not 503: ${name}`, () => assert.equal(isDatabaseUnavailable(error), false));
}

test("a cycle in cause chains terminates", () => {
  const looping: { message: string; cause?: unknown } = { message: "outer" };
  looping.cause = looping;
  assert.equal(isDatabaseUnavailable(looping), false);
});
