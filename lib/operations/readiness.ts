import { readdirSync } from "node:fs";
import path from "node:path";
import { db } from "../db/client";
import { env } from "../env";
import { redisReachable } from "../rate-limit/limiter-store";

// GET /api/health: can this instance serve leads now? The database answers and has every
// migration this build ships applied; Redis answers when REDIS_URL is set. Each failing
// part is named, without versions, addresses or error texts (the probe is public).

export type CheckState = "ok" | "failing" | "not configured";
export type Readiness = { ok: boolean; checks: Record<string, { state: CheckState; problem?: string }> };

const CHECK_TIMEOUT_MS = 2_000;

function withTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timed out")), CHECK_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The migration folders this build ships for the configured database. */
function shippedMigrations(): string[] {
  const dir = path.join(process.cwd(), "prisma", env().DATABASE_PROVIDER === "postgres" ? "postgres" : "sqlite", "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

async function database(): Promise<{ state: CheckState; problem?: string }> {
  try {
    const rows = await withTimeout(
      db().$queryRaw<{ migration_name: string }[]>`
        SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
    );
    const applied = new Set(rows.map((row) => row.migration_name));
    const pending = shippedMigrations().filter((name) => !applied.has(name)).length;
    return pending ? { state: "failing", problem: `${pending} migration(s) not applied` } : { state: "ok" };
  } catch {
    return { state: "failing", problem: "unreachable" };
  }
}

async function redis(): Promise<{ state: CheckState; problem?: string }> {
  const reachable = await withTimeout(redisReachable()).catch(() => false);
  if (reachable === null) return { state: "not configured" };
  return reachable ? { state: "ok" } : { state: "failing", problem: "unreachable" };
}

export async function readiness(): Promise<Readiness> {
  const [databaseCheck, redisCheck] = await Promise.all([database(), redis()]);
  const checks = { database: databaseCheck, redis: redisCheck };
  return { ok: Object.values(checks).every((check) => check.state !== "failing"), checks };
}
