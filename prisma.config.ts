// Prisma CLI config for the embedded SQLite database (the default).
// PostgreSQL uses prisma.pg.config.ts; lib/setup/migrate.ts picks one from DATABASE_URL.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl, sqliteFilePath } from "./lib/db/database-url";
import { releaseIdleTimers } from "./prisma/cli-timers";

releaseIdleTimers();

// Workaround for @prisma/adapter-better-sqlite3 6.19.3 (no upstream issue found as of
// 2026-11-23; ../shared/STACK.md, item 3): the schema engine replays each migration
// file on the in-memory shadow database with one argument-less executeRaw, which
// better-sqlite3 runs as a single statement, so `migrate dev` and
// `migrate diff --from-migrations` fail with P3006 once a migration exists.
// Argument-less raw SQL on the shadow is routed to executeScript, which runs them all.
class PrismaBetterSQLite3WithShadow extends PrismaBetterSQLite3 {
  override async connectToShadowDb() {
    const shadow = await super.connectToShadowDb();
    const executeRaw = shadow.executeRaw.bind(shadow);
    shadow.executeRaw = async (query) => {
      if (query.args.length > 0) return executeRaw(query);
      await shadow.executeScript(query.sql);
      return 0;
    };
    return shadow;
  }
}

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "sqlite"),
  migrations: { path: path.join("prisma", "sqlite", "migrations") },
  async adapter() {
    const url = databaseUrl();
    if (!url.startsWith("file:")) throw new Error("prisma.config.ts is for SQLite; use prisma.pg.config.ts for PostgreSQL");
    return new PrismaBetterSQLite3WithShadow({ url: sqliteFilePath(url) });
  },
});
