import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "./free-port";

// A private, throw-away PostgreSQL cluster for tests (../shared/STACK.md): initdb with
// trust auth into a temp folder, listening on 127.0.0.1 only, on a free port, with its
// socket in that folder, so tests never touch a system cluster or each other.

export const INSTALL_HINT = "apt-get install -y postgresql";

/** POSTGRES_BIN, else the newest Debian server under /usr/lib/postgresql/<version>/bin. */
export function postgresBin(environment: Record<string, string | undefined> = process.env): string {
  if (environment.POSTGRES_BIN) return environment.POSTGRES_BIN;
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((version) => existsSync(path.join(root, version, "bin", "initdb")))
        .sort((x, y) => Number.parseFloat(y) - Number.parseFloat(x))
    : [];
  return path.join(root, versions[0] ?? "*", "bin");
}

const PORT_RANGE = { from: 5500, to: 5999 };
const OS_USER = "postgres";

export class PostgresUnavailableError extends Error {
  override name = "PostgresUnavailableError";
}

/** True when tests may leave PostgreSQL out: only on request, and never in CI. */
export function postgresOptedOut(environment: Record<string, string | undefined> = process.env): boolean {
  return environment.LEAD_INTAKE_SKIP_POSTGRES === "1" && environment.CI !== "true";
}

/** Throws with the exact command to get the server binaries when they are missing. */
export function assertPostgresBinaries(environment: Record<string, string | undefined> = process.env): string {
  const bin = postgresBin(environment);
  if (existsSync(path.join(bin, "initdb")) && existsSync(path.join(bin, "pg_ctl"))) return bin;
  throw new PostgresUnavailableError(
    `PostgreSQL server binaries (initdb, pg_ctl) not found in ${bin}. ` +
      `Install them with: ${INSTALL_HINT} (as root, Debian/Ubuntu; they land in /usr/lib/postgresql/<version>/bin; ` +
      "set POSTGRES_BIN=<folder> for another location). No running server is needed: the tests start " +
      "their own private cluster on 127.0.0.1. " +
      (environment.CI === "true"
        ? "CI=true: the PostgreSQL tests must run, so this is a failure, not a skip (.ci/run installs the package)."
        : "Outside CI only, LEAD_INTAKE_SKIP_POSTGRES=1 runs the SQLite half alone (not a full pass)."),
  );
}

export type PostgresCluster = {
  readonly port: number;
  readonly dir: string;
  /** A connection URL for `database` (default "postgres") as the superuser. */
  url(database?: string): string;
  /** Creates an empty database and returns its URL. */
  createDatabase(name: string): Promise<string>;
  /** Stops the server (mode "fast" disconnects clients; "immediate" is a crash). */
  stop(mode?: "fast" | "immediate"): void;
  /** Starts it again on the same port and data folder. */
  start(): void;
  /** Stops the server and deletes its folder. Safe to call twice. */
  destroy(): void;
};

export async function startPostgresCluster(options: { portRange?: { from: number; to: number } } = {}): Promise<PostgresCluster> {
  const bin = assertPostgresBinaries();
  // initdb and postgres refuse to run as root: run them as the postgres OS user.
  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(os.tmpdir(), "pg-lead-intake-"));
  const dataDir = path.join(dir, "data");
  const socketDir = path.join(dir, "socket");
  mkdirSync(socketDir);
  if (asRoot) {
    const { uid, gid } = osUser(OS_USER);
    chownSync(dir, uid, gid);
    chownSync(socketDir, uid, gid);
  }
  const logFile = path.join(dir, "server.log");
  const port = await freePort(options.portRange ?? PORT_RANGE);

  const run = (binary: string, args: string[]): SpawnSyncReturns<string> => {
    const command = path.join(bin, binary);
    const result = asRoot
      ? spawnSync("runuser", ["-u", OS_USER, "--", command, ...args], { cwd: dir, encoding: "utf8" })
      : spawnSync(command, args, { cwd: dir, encoding: "utf8" });
    if (result.error) throw result.error;
    return result;
  };
  const must = (binary: string, args: string[]) => {
    const result = run(binary, args);
    if (result.status !== 0) {
      const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-2_000) : "";
      throw new PostgresUnavailableError(
        `${binary} ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout}${result.stderr}${log}`,
      );
    }
  };

  must("initdb", ["-D", dataDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"]);
  // A disposable cluster: durability settings off for speed, sockets and TCP kept private.
  const serverOptions = [
    "-c listen_addresses=127.0.0.1",
    `-c port=${port}`,
    `-c unix_socket_directories=${socketDir}`,
    "-c fsync=off",
    "-c synchronous_commit=off",
    "-c full_page_writes=off",
    "-c max_connections=200",
  ].join(" ");

  let running = false;
  let destroyed = false;
  const start = () => {
    must("pg_ctl", ["start", "-w", "-t", "30", "-D", dataDir, "-l", logFile, "-o", serverOptions]);
    running = true;
  };
  const stop = (mode: "fast" | "immediate" = "fast") => {
    if (!running) return;
    must("pg_ctl", ["stop", "-w", "-t", "30", "-D", dataDir, "-m", mode]);
    running = false;
  };
  const destroy = () => {
    if (destroyed) return;
    destroyed = true;
    process.removeListener("exit", destroy);
    try {
      if (running) run("pg_ctl", ["stop", "-w", "-D", dataDir, "-m", "immediate"]);
    } finally {
      running = false;
      rmSync(dir, { recursive: true, force: true });
    }
  };
  // A test run that dies must not leave a server behind.
  process.on("exit", destroy);

  try {
    start();
  } catch (error) {
    destroy();
    throw error;
  }

  const url = (database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    dir,
    url,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Unsafe database name "${name}"`);
      const client = new pg.Client({ connectionString: url() });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } finally {
        await client.end();
      }
      return url(name);
    },
    stop,
    start,
    destroy,
  };
}

function osUser(name: string): { uid: number; gid: number } {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((entry) => entry.startsWith(`${name}:`));
  const [, , uid, gid] = line?.split(":") ?? [];
  if (!uid || !gid) {
    throw new PostgresUnavailableError(`OS user "${name}" not found; it comes with the server: ${INSTALL_HINT}`);
  }
  return { uid: Number(uid), gid: Number(gid) };
}
