import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { migrate } from "../../lib/setup/migrate";
import { freePort } from "../../test/support/free-port";
import { DEMO_ADMIN } from "./demo-admin";

// Servers of a test's own, for what the shared Playwright server cannot show: other
// limits, signals, crashes, memory. Each runs `scripts/start.ts` (migrate, seed, serve)
// exactly as `npm start` does, in its own process group, on its own SQLite file unless
// told otherwise, and captures its output. A build must exist (npm test makes it). A new
// server's file is a copy of one migrated once per run (migratedTemplate), so its start.ts
// finds nothing to migrate and seeds and serves; the shared server and `fromScratch` migrate
// an empty file as a first `npm start` does.

const ROOT = path.resolve(import.meta.dirname, "../..");
// Each Playwright worker (TEST_PARALLEL_INDEX) picks from 100 ports of its own, so that two
// workers starting servers at the same moment never pick one port: a port is free when
// picked, and taken when the server listens a few seconds later.
const PORTS_PER_WORKER = 100;
const PORTS_FROM = 5000;
const WORKER_SLICES = 5;

export type ServerOptions = {
  /** Extra environment, e.g. limits; values override the defaults below. */
  env?: Record<string, string>;
  /** Reuse a data folder (and its database) of an earlier server. */
  dataDir?: string;
  databaseUrl?: string;
  /** Migrate a new, empty database file as a first `npm start` does, instead of copying the run's migrated template. */
  fromScratch?: boolean;
};

export type ServerProcess = {
  url: string;
  port: number;
  dataDir: string;
  databaseFile: string;
  /** The start.ts process (the process group leader). */
  pid: number;
  /** The HTTP server process (scripts/serve.mjs) under start.ts. */
  serverPid: () => number;
  /** Everything the server wrote to stdout and stderr so far. */
  output: () => string;
  /** Sends a signal to start.ts, which forwards it to the server. */
  signal: (signal: NodeJS.Signals) => void;
  /** SIGKILL to the whole process group: no handler runs, nothing is flushed. */
  kill: () => void;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM and wait; SIGKILL after `ms`. */
  stop: (ms?: number) => Promise<void>;
};

// Whatever a test file starts is killed, and its folders removed, when the worker exits,
// even when a hook timed out before the test could keep hold of the server.
const cleanups = new Set<() => void>();
process.once("exit", () => {
  for (const cleanup of cleanups) cleanup();
});

/** Registers work for the worker's exit (synchronous only). */
export function atWorkerExit(cleanup: () => void): void {
  cleanups.add(cleanup);
}

/** A free port in this worker's slice of 5000–5499 other than the shared server's, and one fetch() may connect to. */
export function freeServerPort(): Promise<number> {
  const slice = Number(process.env.TEST_PARALLEL_INDEX ?? 0) % WORKER_SLICES;
  const from = PORTS_FROM + slice * PORTS_PER_WORKER;
  return freePort({ from, to: from + PORTS_PER_WORKER - 1 }, [Number(process.env.E2E_PORT)]);
}

/**
 * Whether a server's output says that it listens on `port`: scripts/serve.mjs logs
 * server.listening once the port is its own. Until then an answer on the port may come
 * from another process that took it first (this server then fails with EADDRINUSE).
 */
export function listensOn(output: string, port: number): boolean {
  return new RegExp(`"event":"server\\.listening"[^\\n]*"port":${port}[,}]`).test(output);
}

/** Waits until the server `child` says it listens on `url`'s port and answers its /api/ping there; throws once it exits or the time is up. */
export async function waitUntilServing(url: string, child: ChildProcess, output: () => string, timeoutMs = 150_000): Promise<void> {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const port = Number(new URL(url).port);
  let lastFailure = "no probe yet";
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Server exited before serving (${child.exitCode ?? child.signalCode}):\n${output()}`);
    }
    if (!listensOn(output(), port)) {
      lastFailure = "not listening yet";
      await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      // A probe that hangs must not hold the loop past its deadline.
      const res = await fetch(`${url}/api/ping`, { signal: AbortSignal.timeout(5_000) });
      if (res.ok) return;
      lastFailure = `HTTP ${res.status}`;
    } catch (error) {
      // not listening yet
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      lastFailure = cause;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `Server did not serve ${url} within ${Math.round((Date.now() - started) / 1000)} s (last probe at ${new Date().toISOString()}: ${lastFailure}):\n${output()}`,
  );
}

/**
 * A SQLite file with every migration applied, made once per run in the run's data folder
 * (E2E_DATA_DIR, playwright.config.ts) by the first worker that needs it (two may race: each
 * migrates a file of its own and renames it into place). `prisma migrate deploy` on an empty
 * file cost each server start about 2.4 s of CPU (fifteen of them per run), and up to 19 s of
 * wall time on a loaded machine.
 */
function migratedTemplate(): string {
  const template = path.join(process.env.E2E_DATA_DIR ?? os.tmpdir(), "own-server-template.db");
  if (existsSync(template)) return template;
  const scratch = `${template}.${process.pid}.tmp`;
  migrate({ ...process.env, DATABASE_URL: `file:${scratch}` });
  renameSync(scratch, template);
  return template;
}

export async function startServer(options: ServerOptions = {}): Promise<ServerProcess> {
  const port = await freeServerPort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(os.tmpdir(), "lead-intake-server-"));
  if (!options.dataDir) atWorkerExit(() => rmSync(dataDir, { recursive: true, force: true }));
  const databaseUrl = options.databaseUrl ?? `file:${path.join(dataDir, "app.db")}`;
  if (!options.dataDir && !options.databaseUrl && !options.fromScratch) copyFileSync(migratedTemplate(), path.join(dataDir, "app.db"));
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/start.ts"], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: String(port),
      HOSTNAME: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      NEXTAUTH_URL: url,
      DEMO_ADMIN_PASSWORD: DEMO_ADMIN.password,
      ...options.env,
    },
  });
  let captured = "";
  child.stdout!.on("data", (chunk: Buffer) => (captured += chunk.toString("utf8")));
  child.stderr!.on("data", (chunk: Buffer) => (captured += chunk.toString("utf8")));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const pid = child.pid!;
  const killGroup = () => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  atWorkerExit(killGroup);

  try {
    await waitUntilServing(url, child, () => captured);
  } catch (error) {
    killGroup();
    throw error;
  }

  return {
    url,
    port,
    dataDir,
    databaseFile: databaseUrl.replace(/^file:/, ""),
    pid,
    serverPid: () => {
      const children = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/).map(Number);
      const server = children.find((child) => readFileSync(`/proc/${child}/cmdline`, "utf8").includes("serve.mjs"));
      if (!server) throw new Error(`No server process under ${pid}`);
      return server;
    },
    output: () => captured,
    signal: (signal) => process.kill(pid, signal),
    kill: killGroup,
    exited,
    stop: async (ms = 15_000) => {
      if (child.exitCode !== null || child.signalCode !== null) return killGroup();
      process.kill(pid, "SIGTERM");
      const timer = setTimeout(killGroup, ms);
      await exited;
      clearTimeout(timer);
      killGroup();
    },
  };
}

/** Resident memory of a process in MiB (Linux). */
export function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`No VmRSS for ${pid}`);
  return Number(match[1]) / 1024;
}

/** Runs the operator CLI against a server's database; returns stdout. */
export function keysCli(server: Pick<ServerProcess, "dataDir" | "databaseFile">, ...args: string[]): string {
  return execFileSync(process.execPath, ["--import", "tsx", "scripts/keys.ts", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: `file:${server.databaseFile}` },
    encoding: "utf8",
  });
}

/** A key of the seeded team "demo" on a server's database. */
export function demoKey(server: Pick<ServerProcess, "dataDir" | "databaseFile">): { keyId: string; secret: string } {
  const created = JSON.parse(keysCli(server, "create", "--team", "demo", "--json")) as { key_id: string; secret: string };
  return { keyId: created.key_id, secret: created.secret };
}

/** Read-only access to a server's SQLite file, for checking what was stored. */
export function readDatabase<T>(file: string, read: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}
