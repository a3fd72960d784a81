// Prisma CLI config for PostgreSQL (DATABASE_URL=postgresql://…), used with --config.
import path from "node:path";
import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import { databaseUrl } from "./lib/db/database-url";
import { releaseIdleTimers } from "./prisma/cli-timers";

releaseIdleTimers();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "postgres"),
  migrations: { path: path.join("prisma", "postgres", "migrations") },
  async adapter() {
    return new PrismaPg({ connectionString: databaseUrl(), allowExitOnIdle: true });
  },
});
