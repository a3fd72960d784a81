import Database from "better-sqlite3";
import pg from "pg";
import { databaseProvider, sqliteFilePath } from "../../lib/db/database-url";
import { LEAD_STATUSES } from "../../lib/leads/lead-status";
import { reserveLeadNumbersPostgres } from "../../lib/leads/lead-number-store";

// Bulk-loads leads straight into the database (not through HTTP): one INSERT … SELECT
// over generated numbers (a recursive CTE on SQLite, generate_series on PostgreSQL), so
// the database makes the rows itself. The lead counter is advanced past the last number,
// so ids made by the app afterwards stay unique. Every 4th lead is owned by the team's first
// member (the bench's admin: "My leads" and its status views have leads to show), the rest
// are unassigned; the statuses go round the six, and a lead that left New was first
// contacted minutes after its creation (never after now), as the app would have recorded it.

export type PreloadTarget = { teamId: string; sourceId: string; apiKeyId: string; currency: string };

// What differs between the two databases' SQL in the rows below.
type Dialect = {
  /** `s` zero-padded to at least `width` digits. */
  padded: (width: number) => string;
  /** The extraFields value {"form":"contact","ref":s % 997}. */
  extraFields: string;
  /** createdAt: epoch milliseconds (an SQL expression) in the form Prisma stores. */
  createdAt: (epochMs: string) => string;
  /** The smaller of two numbers. */
  least: (a: string, b: string) => string;
};

const SQLITE: Dialect = {
  padded: (width) => `printf('%0${width}d', s)`,
  extraFields: `('{"form":"contact","ref":' || (s % 997) || '}')`,
  // Prisma's SQLite adapter stores DateTime as ISO 8601 text with +00:00.
  createdAt: (epochMs) => `strftime('%Y-%m-%dT%H:%M:%f+00:00', (${epochMs}) / 1000.0, 'unixepoch')`,
  least: (a, b) => `min(${a}, ${b})`,
};

const POSTGRES: Dialect = {
  // lpad cuts longer values: the width grows with the number.
  padded: (width) => `lpad(s::text, greatest(${width}, length(s::text)), '0')`,
  extraFields: `jsonb_build_object('form', 'contact', 'ref', s % 997)`,
  // Prisma's PostgreSQL DateTime is timestamp(3) without time zone, in UTC.
  createdAt: (epochMs) => `(to_timestamp((${epochMs}) / 1000.0) AT TIME ZONE 'UTC')`,
  least: (a, b) => `least(${a}, ${b})`,
};

/** Who owns the preloaded leads: every 4th (`s % 4 = 0`) is `ownerId`'s; null, none is. */
export type PreloadOwner = { ownerId: string | null };

// A value for every column the app's Lead table may have (present ones are used, so the
// loader keeps working when a branch adds search columns). `s` is the lead's number.
function columnExpressions(
  dialect: Dialect,
  target: PreloadTarget & PreloadOwner,
  startMs: number,
  stepMs: number,
  nowMs: number,
): Record<string, string> {
  const text = (value: string) => `'${value.replaceAll("'", "''")}'`;
  const created = `(${startMs} + CAST(s AS BIGINT) * ${stepMs})`;
  // s / 4 (an integer division on both), so the owned leads (s % 4 = 0) get every status too;
  // LEAD_STATUSES[0] is New.
  const turn = `((s / 4) % ${LEAD_STATUSES.length})`;
  const owned = target.ownerId === null ? "NULL" : `(CASE WHEN s % 4 = 0 THEN ${text(target.ownerId)} END)`;
  const first = `('First' || (s % 5000))`;
  const last = `('Last' || s)`;
  const email = `('lead' || s || '@example' || (s % 1000) || '.com')`;
  const org = `('Company ' || (s % 20000))`;
  return {
    id: `('CRM-LEAD-' || ${dialect.padded(5)})`,
    seq: "s",
    teamId: text(target.teamId),
    firstName: first,
    lastName: last,
    email,
    emailKey: email,
    phone: `('+4479' || ${dialect.padded(8)})`,
    phoneCountryCode: text("+44"),
    phoneNational: `('79' || ${dialect.padded(8)})`,
    organization: org,
    sourceId: text(target.sourceId),
    jobTitle: text("Buyer"),
    website: `('https://company' || (s % 20000) || '.example.com')`,
    currency: text(target.currency),
    utmSource: `(CASE s % 3 WHEN 0 THEN 'google' WHEN 1 THEN 'newsletter' ELSE 'linkedin' END)`,
    utmMedium: text("cpc"),
    utmCampaign: `('campaign-' || (s % 50))`,
    extraFields: dialect.extraFields,
    apiKeyId: text(target.apiKeyId),
    createdAt: dialect.createdAt(created),
    status: `(CASE ${turn} ${LEAD_STATUSES.map((status, i) => `WHEN ${i} THEN ${text(status)}`).join(" ")} END)`,
    ownerId: owned,
    assignedAt: target.ownerId === null ? "NULL" : `(CASE WHEN s % 4 = 0 THEN ${dialect.createdAt(created)} END)`,
    // 1 to 180 minutes after the creation, capped at now.
    firstContactedAt: `(CASE WHEN ${turn} <> 0 THEN ${dialect.createdAt(dialect.least(`${created} + (s % 180 + 1) * 60000`, String(nowMs)))} END)`,
    // Search keys (lower-cased copies).
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
    const columns = database.prepare(`PRAGMA table_info("Lead")`).all() as ColumnInfo[];
    const indexes = database
      .prepare(`SELECT "name", "sql" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Lead' AND "sql" IS NOT NULL`)
      .all() as { name: string; sql: string }[];
    // One IMMEDIATE transaction, from reading the counter on: a server still finishing
    // its last requests cannot take numbers in between. Drop the Lead indexes, insert
    // every row, rebuild the indexes (a sort per index is far cheaper than a million
    // random B-tree inserts into each), advance the counter. A failure rolls all of it
    // back, indexes included.
    const missing = database
      .transaction(() => {
        const existing = database.prepare(`SELECT count(*) AS n FROM "Lead" WHERE "teamId" = ?`).get(target.teamId) as { n: number };
        const missing = total - existing.n;
        if (missing <= 0) return 0;
        const counter = database.prepare(`SELECT "value" FROM "Counter" WHERE "name" = 'lead'`).get() as { value: number } | undefined;
        const next = (counter?.value ?? 0) + 1;
        const last = next + missing - 1;
        const member = database
          .prepare(`SELECT "userId" FROM "Membership" WHERE "teamId" = ? ORDER BY "createdAt", "id" LIMIT 1`)
          .get(target.teamId) as { userId: string } | undefined;
        // One lead every 100 ms, the last one now.
        const nowMs = Date.now();
        const owner = { ...target, ownerId: member?.userId ?? null };
        const expressions = columnExpressions(SQLITE, owner, nowMs - last * 100, 100, nowMs);
        const unknown = columns.filter((c) => !(c.name in expressions) && c.notnull && c.dflt_value === null);
        if (unknown.length) throw new Error(`preload: no value for required Lead column(s) ${unknown.map((c) => c.name).join(", ")}`);
        const used = columns.filter((c) => c.name in expressions);
        const names = used.map((c) => `"${c.name}"`).join(", ");
        const values = used.map((c) => expressions[c.name]).join(", ");
        for (const index of indexes) database.exec(`DROP INDEX "${index.name}"`);
        // CAST: better-sqlite3 binds a JS number as REAL, and 'campaign-' || (8.0 % 50) is
        // 'campaign-8.0' (earlier runs' UTM and email rows matched nothing they meant to).
        database
          .prepare(
            `WITH RECURSIVE n(s) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT s + 1 FROM n WHERE s < ?) INSERT INTO "Lead" (${names}) SELECT ${values} FROM n`,
          )
          .run(next, last);
        for (const index of indexes) database.exec(index.sql);
        database
          .prepare(
            `INSERT INTO "Counter" ("name", "value") VALUES ('lead', ?) ON CONFLICT ("name") DO UPDATE SET "value" = max("value", excluded."value")`,
          )
          .run(last);
        return missing;
      })
      .immediate();
    if (missing === 0) return { inserted: 0, seconds: 0 };
    database.pragma("wal_checkpoint(TRUNCATE)");
    return { inserted: missing, seconds: (performance.now() - started) / 1000 };
  } finally {
    database.close();
  }
}

/** preloadSqlite for PostgreSQL: the same rows, indexes rebuilt after, then ANALYZE. */
export async function preloadPostgres(
  databaseUrl: string,
  target: PreloadTarget,
  total: number,
): Promise<{ inserted: number; seconds: number }> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const columns = await client.query<{ name: string; notnull: boolean; hasDefault: boolean }>(
      `SELECT column_name AS name, is_nullable = 'NO' AS notnull, column_default IS NOT NULL AS "hasDefault"
       FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'Lead'`,
    );
    // Secondary indexes only: the primary key stays (a constraint, not a plain index).
    const indexes = await client.query<{ name: string; sql: string }>(
      `SELECT indexname AS name, indexdef AS sql FROM pg_indexes
       WHERE schemaname = current_schema() AND tablename = 'Lead' AND indexname <> 'Lead_pkey'`,
    );
    await client.query("BEGIN");
    let missing: number;
    try {
      const existing = await client.query<{ n: string }>(`SELECT count(*) AS n FROM "Lead" WHERE "teamId" = $1`, [target.teamId]);
      missing = total - Number(existing.rows[0]!.n);
      if (missing > 0) {
        // The numbers are reserved from here to COMMIT: the app's creates wait.
        const next = await reserveLeadNumbersPostgres(client, missing);
        const last = next + missing - 1;
        const member = await client.query<{ userId: string }>(
          `SELECT "userId" FROM "Membership" WHERE "teamId" = $1 ORDER BY "createdAt", "id" LIMIT 1`,
          [target.teamId],
        );
        const nowMs = Date.now();
        const owner = { ...target, ownerId: member.rows[0]?.userId ?? null };
        const expressions = columnExpressions(POSTGRES, owner, nowMs - last * 100, 100, nowMs);
        const unknown = columns.rows.filter((c) => !(c.name in expressions) && c.notnull && !c.hasDefault);
        if (unknown.length) throw new Error(`preload: no value for required Lead column(s) ${unknown.map((c) => c.name).join(", ")}`);
        const used = columns.rows.filter((c) => c.name in expressions);
        const names = used.map((c) => `"${c.name}"`).join(", ");
        const values = used.map((c) => expressions[c.name]).join(", ");
        for (const index of indexes.rows) await client.query(`DROP INDEX "${index.name}"`);
        await client.query(`INSERT INTO "Lead" (${names}) SELECT ${values} FROM generate_series($1::int, $2::int) AS s`, [next, last]);
        for (const index of indexes.rows) await client.query(index.sql);
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK");
      throw error;
    }
    if (missing <= 0) return { inserted: 0, seconds: 0 };
    await client.query(`ANALYZE "Lead"`);
    return { inserted: missing, seconds: (performance.now() - started) / 1000 };
  } finally {
    await client.end();
  }
}

/** Tops the team up to `total` leads on whichever database the URL names. */
export function preload(databaseUrl: string, target: PreloadTarget, total: number): Promise<{ inserted: number; seconds: number }> {
  return databaseProvider(databaseUrl) === "postgres"
    ? preloadPostgres(databaseUrl, target, total)
    : Promise.resolve(preloadSqlite(databaseUrl, target, total));
}
