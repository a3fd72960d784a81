import Database from "better-sqlite3";
import { sqliteFilePath } from "../../lib/db/database-url";

// Bulk-loads leads straight into the database (not through HTTP): one INSERT … SELECT
// over a recursive CTE, so SQLite generates the rows itself. The lead counter
// is advanced past the last number, so ids made by the app afterwards stay unique.

export type PreloadTarget = { teamId: string; sourceId: string; apiKeyId: string; currency: string };

// A value for every column the app's Lead table may have (present ones are used, so the
// loader keeps working when a branch adds search columns). `s` is the lead's number.
function columnExpressions(target: PreloadTarget, startMs: number, stepMs: number): Record<string, string> {
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const first = `('First' || (s % 5000))`;
  const last = `('Last' || s)`;
  const email = `('lead' || s || '@example' || (s % 1000) || '.com')`;
  const org = `('Company ' || (s % 20000))`;
  return {
    id: `('CRM-LEAD-' || printf('%05d', s))`,
    seq: "s",
    teamId: text(target.teamId),
    firstName: first,
    lastName: last,
    email,
    emailKey: email,
    phone: `('+4479' || printf('%08d', s))`,
    phoneCountryCode: text("+44"),
    phoneNational: `('79' || printf('%08d', s))`,
    organization: org,
    sourceId: text(target.sourceId),
    jobTitle: text("Buyer"),
    website: `('https://company' || (s % 20000) || '.example.com')`,
    currency: text(target.currency),
    utmSource: `(CASE s % 3 WHEN 0 THEN 'google' WHEN 1 THEN 'newsletter' ELSE 'linkedin' END)`,
    utmMedium: text("cpc"),
    utmCampaign: `('campaign-' || (s % 50))`,
    extraFields: `('{"form":"contact","ref":' || (s % 997) || '}')`,
    apiKeyId: text(target.apiKeyId),
    // Prisma's SQLite adapter stores DateTime as ISO 8601 text with +00:00.
    createdAt: `strftime('%Y-%m-%dT%H:%M:%f+00:00', (${startMs} + s * ${stepMs}) / 1000.0, 'unixepoch')`,
    // Search keys the UI branch adds (lower-cased copies).
    nameKey: `lower(${first} || ' ' || ${last})`,
    lastNameKey: `lower(${last})`,
    organizationKey: `lower(${org})`,
  };
}

type ColumnInfo = { name: string; notnull: number; dflt_value: string | null };

/** Adds leads to the team until it holds `total`; returns how many were inserted and how long it took. */
export function preloadSqlite(databaseUrl: string, target: PreloadTarget, total: number): { inserted: number; seconds: number } {
  const started = performance.now();
  const database = new Database(sqliteFilePath(databaseUrl), { timeout: 10_000 });
  try {
    database.pragma("cache_size = -262144"); // 256 MiB for this connection: the index B-trees stay in memory
    database.pragma("temp_store = MEMORY"); // the index rebuilds sort in memory
    database.pragma("synchronous = OFF"); // throw-away bench data: no fsync for this connection
    const existing = database.prepare(`SELECT count(*) AS n FROM "Lead" WHERE "teamId" = ?`).get(target.teamId) as { n: number };
    const missing = total - existing.n;
    if (missing <= 0) return { inserted: 0, seconds: 0 };

    const counter = database.prepare(`SELECT "value" FROM "Counter" WHERE "name" = 'lead'`).get() as { value: number } | undefined;
    const next = (counter?.value ?? 0) + 1;
    const last = next + missing - 1;

    const columns = database.prepare(`PRAGMA table_info("Lead")`).all() as ColumnInfo[];
    // One lead every 100 ms, the last one now.
    const expressions = columnExpressions(target, Date.now() - last * 100, 100);
    const unknown = columns.filter((c) => !(c.name in expressions) && c.notnull && c.dflt_value === null);
    if (unknown.length) throw new Error(`preload: no value for required Lead column(s) ${unknown.map((c) => c.name).join(", ")}`);
    const used = columns.filter((c) => c.name in expressions);
    const names = used.map((c) => `"${c.name}"`).join(", ");
    const values = used.map((c) => expressions[c.name]).join(", ");
    const insert = database.prepare(
      `WITH RECURSIVE n(s) AS (SELECT ? UNION ALL SELECT s + 1 FROM n WHERE s < ?) INSERT INTO "Lead" (${names}) SELECT ${values} FROM n`,
    );
    const advance = database.prepare(
      `INSERT INTO "Counter" ("name", "value") VALUES ('lead', ?) ON CONFLICT ("name") DO UPDATE SET "value" = max("value", excluded."value")`,
    );
    // One transaction: drop the Lead indexes, insert every row, rebuild the indexes (a
    // sort per index is far cheaper than a million random B-tree inserts into each),
    // advance the counter. A failure rolls all of it back, indexes included.
    const indexes = database
      .prepare(`SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Lead' AND "sql" IS NOT NULL`)
      .all() as { name: string; sql: string }[];
    database.transaction(() => {
      for (const index of indexes) database.exec(`DROP INDEX "${index.name}"`);
      insert.run(next, last);
      for (const index of indexes) database.exec(index.sql);
      advance.run(last);
    }).immediate();
    database.pragma("wal_checkpoint(TRUNCATE)");
    return { inserted: missing, seconds: (performance.now() - started) / 1000 };
  } finally {
    database.close();
  }
}
