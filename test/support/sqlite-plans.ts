import Database from "better-sqlite3";

// SQLite's plan of each statement the app prepares while a read runs: better-sqlite3's
// prepare is wrapped, and each statement `wanted` picks is planned with EXPLAIN QUERY PLAN as
// it is prepared (the plan tests of lib/leads: the Lead indexes, a lead's story). SQLite plans
// a statement when it is prepared, not per value (no STAT4 here): any value in each
// parameter's place gives the statement's plan.

export type CaughtPlan = { label: string; sql: string; plan: string[] };

export function catchSqlitePlans(wanted: (sql: string) => boolean): {
  caught: CaughtPlan[];
  reading: (what: string, read: () => unknown) => Promise<void>;
} {
  const caught: CaughtPlan[] = [];
  let label: string | null = null;
  const prepare = Database.prototype.prepare;
  Database.prototype.prepare = function (this: Database.Database, sql: string) {
    if (label && !/^\s*EXPLAIN/i.test(sql) && wanted(sql)) {
      const planned = sql.replace(/\?|@\w+/g, "'x'");
      const plan = (prepare.call(this, `EXPLAIN QUERY PLAN ${planned}`).all([]) as { detail: string }[]).map((row) => row.detail);
      caught.push({ label, sql, plan });
    }
    return prepare.call(this, sql) as ReturnType<typeof prepare>;
  } as typeof prepare;
  return {
    caught,
    /** Catches the statements `read` prepares, under `what`. */
    async reading(what, read) {
      label = what;
      try {
        await read();
      } finally {
        label = null;
      }
    },
  };
}
