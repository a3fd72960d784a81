import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import net from "node:net";
import { createWriteStream, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { encryptionKey } from "../../lib/api-keys/secret-box";
import { migrate } from "../../lib/setup/migrate";
import { persistentSecret } from "../../lib/setup/runtime-secrets";
import { seed } from "../../lib/setup/seed";
import { buildIsStale } from "../start";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** `next build` when there is no build or a source file is newer than it (as npm start decides). */
export function buildIfNeeded(): void {
  if (!buildIsStale()) return;
  console.log("Building the app (next build)…");
  const build = spawnSync(path.join(ROOT, "node_modules/.bin/next"), ["build"], { cwd: ROOT, stdio: "inherit" });
  if (build.status !== 0) throw new Error(`next build failed (exit ${build.status ?? build.signal})`);
}

/** This run's secret of the limit row's route (X-Bench-Secret), new for every bench process. */
export const BENCH_SECRET = randomBytes(32).toString("hex");

export type Server = {
  baseUrl: string;
  /** The server's process (scripts/serve.mjs): its main thread is the one a CPU profile samples. */
  pid: number;
  /** CPU seconds (user + system) used so far by the server's processes; null where /proc is missing. */
  cpuSeconds: () => number | null;
  /** CPU seconds used so far by every PostgreSQL server process on this machine; null on SQLite or where /proc is missing. */
  databaseCpuSeconds: () => number | null;
  /** Resident memory (MB) of the server's process now; null where /proc is missing. */
  rssMb: () => number | null;
  stop: () => Promise<void>;
};

/**
 * Prepares the database the way `npm start` does (migrate, seed, key files), then runs
 * the production server (scripts/serve.mjs, as npm start) and waits until /api/ping answers. Its output goes to `logFile`. The
 * server is started here rather than through scripts/start.ts so that it can run under
 * `node --cpu-prof` (not allowed in NODE_OPTIONS).
 */
export async function startServer(options: {
  port: number;
  dataDir: string;
  databaseUrl: string;
  logFile: string;
  profileDir: string | null;
  /** The profile's sampling interval in µs (node's default: 1000). */
  profileIntervalMicros?: number;
}): Promise<Server> {
  const baseUrl = `http://127.0.0.1:${options.port}`;
  // Another server on the port (a second bench run) would answer the load instead of ours.
  if (await portAnswers(options.port)) {
    throw new Error(`Port ${options.port} is already in use (another npm run bench?): stop it or set BENCH_PORT to a free port`);
  }
  const log = createWriteStream(options.logFile);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(options.port),
    HOSTNAME: "127.0.0.1",
    DATA_DIR: options.dataDir,
    DATABASE_URL: options.databaseUrl,
    NEXTAUTH_URL: baseUrl,
    NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || persistentSecret(options.dataDir, "auth.secret"),
    NEXT_TELEMETRY_DISABLED: "1",
    NODE_ENV: "production",
    // One key sends every create: the per-key abuse limit (600 a minute by default) would
    // answer 429 within a second. Raised, not removed: the limiter still runs per request.
    RATE_LIMIT_PER_KEY: process.env.RATE_LIMIT_PER_KEY || "1000000000",
    // The same for the connection row's one Tally connection (1,000 per 10 minutes by default).
    CONNECTION_DELIVERIES_PER_CONNECTION: process.env.CONNECTION_DELIVERIES_PER_CONNECTION || "1000000000",
    // The webhook row delivers to a receiver in the bench process, on 127.0.0.1.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: "true",
    // The limit row's route (lib/intake/intake-limit.ts) writes to the bench's team.
    BENCH_INTAKE_LIMIT_TEAM: "bench",
    BENCH_INTAKE_LIMIT_SECRET: BENCH_SECRET,
  };
  migrate(env);
  encryptionKey();
  await seed(env);

  const interval = options.profileIntervalMicros ? [`--cpu-prof-interval=${options.profileIntervalMicros}`] : [];
  const profile = options.profileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.profileDir}`, ...interval] : [];
  // scripts/serve.mjs is what npm start runs: `next start`'s request handler plus the client
  // address and draining. Its own process group, so stopping it reaches every process it forks.
  const serve = path.join(ROOT, "scripts/serve.mjs");
  const child = spawn(process.execPath, [...profile, serve, "--port", String(options.port), "--hostname", "127.0.0.1"], {
    cwd: ROOT,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  await waitForPing(baseUrl, child, options.logFile);
  const group = child.pid!;
  return {
    baseUrl,
    pid: group,
    cpuSeconds: () => groupCpuSeconds(group),
    databaseCpuSeconds: () => (/^postgres(ql)?:/i.test(options.databaseUrl) ? postgresCpuSeconds() : null),
    rssMb: () => processRssMb(group),
    stop: () => stop(child, exited),
  };
}

async function waitForPing(baseUrl: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}); see ${logFile}`);
    try {
      const response = await fetch(`${baseUrl}/api/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`The server did not answer /api/ping within 180 s; see ${logFile}`);
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || !child.pid) return;
  // SIGTERM lets next start exit normally, which is when --cpu-prof writes its profile.
  process.kill(-child.pid, "SIGTERM");
  const timedOut = await Promise.race([exited.then(() => false), sleep(15_000).then(() => true)]);
  if (timedOut) process.kill(-child.pid, "SIGKILL");
}

// Linux's clock ticks per second for /proc/<pid>/stat (USER_HZ, 100 on every common build).
const TICKS_PER_SECOND = 100;

/**
 * CPU time of every live process in a process group, from /proc. Throughput on a shared
 * machine swings with other people's work; the server's CPU time per request does much less.
 */
function groupCpuSeconds(group: number): number | null {
  const processes = procStats();
  if (!processes) return null;
  let ticks = 0;
  for (const { fields } of processes.values()) if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]);
  return ticks / TICKS_PER_SECOND;
}

/**
 * CPU time of the PostgreSQL servers on this machine (every process named "postgres"), from
 * /proc: what the database itself spends per request. Backends come and go (a pool's
 * connections, autovacuum workers): a live process's own time, plus what each postmaster has
 * collected from its exited children (cutime, cstime), so a backend that exits during a row
 * still counts. A cluster on another machine counts as 0 (the report says the figure is local).
 */
export function postgresCpuSeconds(): number | null {
  const all = procStats();
  if (!all) return null;
  const postgres = new Map([...all].filter(([, process]) => process.comm === "postgres"));
  let ticks = 0;
  for (const { fields } of postgres.values()) {
    ticks += Number(fields[11]) + Number(fields[12]);
    if (!postgres.has(Number(fields[1]))) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / TICKS_PER_SECOND;
}

/**
 * The fields of /proc/<pid>/stat after "(comm)": state ppid pgrp … utime (12th) stime (13th)
 * cutime (14th) cstime (15th), 0-based from state.
 */
function statFields(stat: string): { comm: string; fields: string[] } {
  const close = stat.lastIndexOf(")");
  return { comm: stat.slice(stat.indexOf("(") + 1, close), fields: stat.slice(close + 2).split(" ") };
}

/** Every live process's stat fields by pid; null where /proc is missing. */
function procStats(): Map<number, { comm: string; fields: string[] }> | null {
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return null;
  }
  const processes = new Map<number, { comm: string; fields: string[] }>();
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      processes.set(Number(entry), statFields(readFileSync(`/proc/${entry}/stat`, "utf8")));
    } catch {
      // exited meanwhile
    }
  }
  return processes;
}

/** CPU seconds of one process's main thread and of the whole process (every thread), from /proc. */
export function threadCpuSeconds(pid: number): { mainThread: number; process: number } {
  const seconds = (file: string) => {
    const { fields } = statFields(readFileSync(file, "utf8"));
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  };
  return { mainThread: seconds(`/proc/${pid}/task/${pid}/stat`), process: seconds(`/proc/${pid}/stat`) };
}

/** VmRSS of one process in MB, from /proc; null where it cannot be read. */
function processRssMb(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Whether something accepts connections on 127.0.0.1:port. */
function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
