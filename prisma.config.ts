// Prisma CLI config for the embedded SQLite database (the default).
// PostgreSQL uses prisma.pg.config.ts; scripts/prisma.ts picks one from DATABASE_URL.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { databaseUrl, sqliteFilePath } from "./lib/db/database-url";
import { releaseIdleTimers } from "./prisma/cli-timers";

releaseIdleTimers();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "sqlite"),
  migrations: { path: path.join("prisma", "sqlite", "migrations") },
  async adapter() {
    const url = databaseUrl();
    if (!url.startsWith("file:")) throw new Error("prisma.config.ts is for SQLite; use prisma.pg.config.ts for PostgreSQL");
    return new PrismaBetterSQLite3({ url: sqliteFilePath(url) });
  },
});
