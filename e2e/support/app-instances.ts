import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { freePort } from "../../test/support/free-port";
import { startPostgresCluster, type PostgresCluster } from "../../test/support/postgres-cluster";
import { buildIsStale } from "../../scripts/start";
import { migrate } from "../../lib/setup/migrate";
import { databaseProvider } from "../../lib/db/database-url";
import { waitUntilServing } from "./server-process";

// Several app instances against one database (PostgreSQL, as in production, or one SQLite
// file on one machine): each is `npm start` (scripts/start.ts: migrate, seed, `next start`)
// in its own process with its own DATA_DIR, sharing DATABASE_URL, SECRET_ENCRYPTION_KEY and
// NEXTAUTH_SECRET.
// Needs a production build (`npm test` builds before running these files).

const ROOT = path.resolve(import.meta.dirname, "../..");
// SQLite and PostgreSQL deployments pick from ranges of their own: npm test runs the two
// multi-instance stages side by side, and a port free when picked is taken only when the
// instance listens, seconds later.
const INSTANCE_PORTS = { sqlite: { from: 4500, to: 4749 }, postgres: { from: 4750, to: 4999 } };

export type AppInstance = {
  readonly name: string;
  readonly baseUrl: string;
  readonly pid: number;
  /** The last lines the instance printed, for failure messages. */
  output(): string;
  /** Closes this side of the instance's stdout and stderr pipes, as a log reader that went away does: its writes then fail with EPIPE. */
  closeOutput(): void;
  stop(): Promise<void>;
};

export async function startInstance(options: { name: string; env: Record<string, string>; port: number }): Promise<AppInstance> {
  const { port } = options;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `lead-intake-${options.name}-`));
  // Its own process group, so stop() ends the wrapper and its `next start` child together.
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      ...options.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
    },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const baseUrl = `http://127.0.0.1:${port}`;
  const instance: AppInstance = {
    name: options.name,
    baseUrl,
    pid: child.pid!,
    output: () => log,
    closeOutput() {
      child.stdout?.destroy();
      child.stderr?.destroy();
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        process.kill(-child.pid!, "SIGTERM");
        const killed = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 10_000);
        await exited;
        clearTimeout(killed);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };

  try {
    await waitUntilServing(baseUrl, child, () => log, 180_000);
    return instance;
  } catch (error) {
    await instance.stop();
    if (child.exitCode !== null) throw new Error(`${options.name} exited (${child.exitCode}) while starting:\n${log}`);
    throw new Error(`${options.name}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Instances sharing one database, and the environment they share. */
export type Instances = {
  databaseUrl: string;
  /** Environment shared by every instance (and by this test process). */
  sharedEnv: Record<string, string>;
  instances: AppInstance[];
  stop(): Promise<void>;
};

export type Deployment = Instances & { cluster: PostgresCluster };

/**
 * Starts `count` instances (A, B, …) at the same time on `databaseUrl`, sharing its
 * encryption key and session secret. The shared environment is also applied to this
 * process, so fixtures made through lib/ land in the same database with the same key.
 */
async function startInstances(options: { count: number; databaseUrl: string; env?: Record<string, string> }): Promise<Instances> {
  // scripts/start.ts builds when the build is stale; several instances must not build
  // into one .next folder at once.
  if (buildIsStale()) throw new Error("No up-to-date production build: run `npx next build` first (npm test does).");
  const sharedEnv: Record<string, string> = {
    DATABASE_URL: options.databaseUrl,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
    ...options.env,
  };
  Object.assign(process.env, sharedEnv);
  const names = Array.from({ length: options.count }, (_, i) => String.fromCharCode(65 + i));
  // One after the other, so that no two instances are given one port.
  const ports: number[] = [];
  const range = INSTANCE_PORTS[databaseProvider(options.databaseUrl)];
  while (ports.length < names.length) ports.push(await freePort(range, ports));
  const settled = await Promise.allSettled(names.map((name, i) => startInstance({ name, env: sharedEnv, port: ports[i]! })));
  const instances = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
  const stop = async () => {
    await Promise.all(instances.map((instance) => instance.stop()));
  };
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed) {
    await stop();
    throw failed.reason;
  }
  return { databaseUrl: options.databaseUrl, sharedEnv, instances, stop };
}

/**
 * A private PostgreSQL cluster, one fresh database, and `count` instances started at
 * the same time (so migrations and seeding race as they would in a rolling deploy).
 */
export async function startDeployment(options: { count: number; env?: Record<string, string> }): Promise<Deployment> {
  const cluster = await startPostgresCluster();
  try {
    const databaseUrl = await cluster.createDatabase("lead_intake_multi");
    const started = await startInstances({ ...options, databaseUrl });
    return {
      ...started,
      cluster,
      async stop() {
        await started.stop();
        cluster.destroy();
      },
    };
  } catch (error) {
    cluster.destroy();
    throw error;
  }
}

/**
 * One SQLite file in a temp folder and `count` instances on it, started at the same time,
 * as on one machine with two `npm start`. The file is migrated first, as a release step
 * would: Prisma's schema engine cannot migrate a SQLite file another process has open
 * (lib/setup/migrate.ts), so instances started together on an empty file would race there.
 */
export async function startSqliteDeployment(options: { count: number; env?: Record<string, string> }): Promise<Instances> {
  const dir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-sqlite-multi-"));
  try {
    const databaseUrl = `file:${path.join(dir, "app.db")}`;
    migrate({ ...process.env, DATABASE_URL: databaseUrl });
    const started = await startInstances({ ...options, databaseUrl });
    return {
      ...started,
      async stop() {
        await started.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export type CreateResult = {
  instance: string;
  status: number;
  ms: number;
  body: { success?: boolean; lead_id?: string; error?: string; message?: string } | null;
  retryAfter: string | null;
  /** Set when the request failed without an HTTP answer (timeout, refused). */
  failure?: string;
};

export const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";

/** One create_lead call; never waits longer than `timeoutMs` (a hang is reported, not awaited). */
export async function createLeadVia(
  instance: AppInstance,
  key: { keyId: string; secret: string },
  body: Record<string, unknown>,
  timeoutMs = 15_000,
): Promise<CreateResult> {
  const t0 = performance.now();
  try {
    const res = await fetch(instance.baseUrl + CREATE_LEAD, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-API-Key": key.keyId, "X-API-Secret": key.secret },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    let parsed: CreateResult["body"] = null;
    try {
      parsed = JSON.parse(text) as CreateResult["body"];
    } catch {
      parsed = null;
    }
    return {
      instance: instance.name,
      status: res.status,
      ms: performance.now() - t0,
      body: parsed,
      retryAfter: res.headers.get("retry-after"),
    };
  } catch (error) {
    return {
      instance: instance.name,
      status: 0,
      ms: performance.now() - t0,
      body: null,
      retryAfter: null,
      failure: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    };
  }
}

/** Runs `total` jobs with at most `concurrency` in flight. */
export async function pooled<T>(total: number, concurrency: number, job: (index: number) => Promise<T>): Promise<T[]> {
  const results = new Array<T>(total);
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const index = next++;
      results[index] = await job(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return results;
}
