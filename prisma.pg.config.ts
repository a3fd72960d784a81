// Prisma CLI config for PostgreSQL (DATABASE_URL=postgresql://…), used with --config.
// lib/setup/migrate.ts picks this file or prisma.config.ts from DATABASE_URL.
// Everything below runs inside the CLI process only, never in the app.
import { randomBytes } from "node:crypto";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { databaseProvider, databaseUrl } from "./lib/db/database-url";
import { releaseIdleTimers } from "./prisma/cli-timers";

releaseIdleTimers();

// Workaround for prisma/orm#27403 ("Column type 'name' could not be deserialized"):
// the schema engine reads pg_catalog columns of type `name` (OID 19) and `"char"`
// (OID 18), which adapter-pg 6.19 cannot map to a column type. Both arrive as plain
// text on the wire, so the fields are relabelled as `text` (OID 25) before the adapter
// sees them. Patched here, in the CLI's config only: the app never reads the catalog.
const CATALOG_TEXT_OIDS = new Set([18, 19]);
const TEXT_OID = 25;
type FieldDescription = { dataTypeID: number };
const resultPrototype = pg.Result.prototype as unknown as { addFields(fields: FieldDescription[]): void };
const addFields = resultPrototype.addFields;
resultPrototype.addFields = function (this: unknown, fields: FieldDescription[]) {
  for (const field of fields) {
    if (CATALOG_TEXT_OIDS.has(field.dataTypeID)) field.dataTypeID = TEXT_OID;
  }
  return addFields.call(this, fields);
};

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

// Workaround for PrismaPgAdapterFactory.connectToShadowDb in @prisma/adapter-pg 6.19.3
// (no upstream issue found as of 2026-11-23; ../shared/STACK.md, item 2), used by
// `migrate dev` and `migrate diff --from-migrations`: with a connection
// string it ignores the database override, so the "shadow" is the main database and
// migrations are replayed and wiped there; it also drops the shadow before closing the
// pool still connected to it. This version creates a uniquely named database, connects
// to it by URL, and on dispose closes that pool first, then drops the database.
class PrismaPgWithShadow extends PrismaPg {
  constructor(private readonly url: string) {
    // allowExitOnIdle: idle pooled connections must not keep the CLI alive ~10 s
    // after its work is done (../shared/STACK.md, item 4).
    super({ connectionString: url, allowExitOnIdle: true });
  }

  override async connectToShadowDb() {
    const database = `prisma_shadow_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
    await adminQuery(this.url, `CREATE DATABASE "${database}"`);
    const shadow = await new PrismaPg({
      connectionString: withDatabase(this.url, database),
      allowExitOnIdle: true,
    }).connect();
    const closePool = shadow.dispose.bind(shadow);
    shadow.dispose = async () => {
      await closePool();
      await adminQuery(this.url, `DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "postgres"),
  migrations: { path: path.join("prisma", "postgres", "migrations") },
  async adapter() {
    const url = databaseUrl();
    if (databaseProvider(url) !== "postgres") {
      throw new Error("prisma.pg.config.ts needs DATABASE_URL=postgresql://…; SQLite uses prisma.config.ts");
    }
    return new PrismaPgWithShadow(url);
  },
});
