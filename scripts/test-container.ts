// `npm run test:container` (issue 45; run by .ci/run after `npm test`, not part of it): builds
// the image from the Containerfile with Podman and runs it as self-hosters do. On SQLite with
// a volume: health, a key from the CLI inside, a lead, a restart that keeps both, a stop that
// exits 0, nothing written outside /data and /tmp; `--read-only` with a tmpfs /tmp; two
// containers on one PostgreSQL and one Redis (private servers on the host, as `npm test`
// starts them): leads through both, a session from one valid on the other, and `kill -9` of
// one losing no acknowledged lead. Also the image's user, size and health check, and
// compose.yaml (parsed: services, volumes, health checks, environment).
//
// Needs Debian's podman, runc, mmdebstrap and uidmap (.ci/run installs them): a missing one
// fails the run. Where no registry serves debian:trixie-slim, the base is made from Debian's
// packages with mmdebstrap (the same content) and cached in
// ${XDG_CACHE_HOME:-~/.cache}/lead-intake/; Podman's layer cache keeps later builds short.
// This machine's Podman needs --runtime runc, explicit ulimits and --network=host
// (../shared/STACK.md "Containers"): the test passes them, the Containerfile needs none.
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, test } from "node:test";
import pg from "pg";
import { parse } from "yaml";
import { startRedis, type RedisServer } from "../e2e/support/redis-server";
import { freePort } from "../test/support/free-port";
import { startPostgresCluster, type PostgresCluster } from "../test/support/postgres-cluster";
import { signIn } from "./bench/lead-pages";

const ROOT = path.resolve(import.meta.dirname, "..");
const IMAGE = "localhost/lead-intake:test";
const BASE = "docker.io/library/debian:trixie-slim";
const MAX_IMAGE_BYTES = 450 * 1000 * 1000;
const ADMIN = { email: "admin@example.com", password: `container-test-${randomBytes(6).toString("hex")}` };
const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";
const run = randomBytes(3).toString("hex");
const containers: string[] = [];
const volumes: string[] = [];
const timings: string[] = [];
const started = Date.now();

// This machine's runtime settings (STACK.md): runc, ulimits within the host's hard limits,
// the host's network (no CNI bridge here).
const MACHINE = ["--ulimit", "nofile=20000:20000", "--ulimit", "nproc=4096:4096", "--network=host"];

function podman(args: string[], options: { input?: string; allowFailure?: boolean } = {}): SpawnSyncReturns<string> {
  const result = spawnSync("podman", ["--runtime", "runc", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    input: options.input,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  if (result.status !== 0 && !options.allowFailure) {
    throw new Error(
      `podman ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout.slice(-4_000)}\n${result.stderr.slice(-4_000)}`,
    );
  }
  return result;
}

async function timed<T>(label: string, body: () => T | Promise<T>): Promise<T> {
  const t0 = Date.now();
  try {
    return await body();
  } finally {
    timings.push(`${label}: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

/** The tools .ci/run installs; a missing one fails the run with the command that fixes it. */
function assertTools(): void {
  const missing = [
    ["podman", "/usr/bin/podman"],
    ["runc", "/usr/sbin/runc"],
    ["mmdebstrap", "/usr/bin/mmdebstrap"],
    ["uidmap", "/usr/bin/newuidmap"],
  ].filter(([, file]) => !existsSync(file!));
  if (missing.length) {
    throw new Error(
      `Missing ${missing.map(([name]) => name).join(", ")}: apt-get install -y podman runc mmdebstrap uidmap (as root; .ci/run does this).`,
    );
  }
}

function cacheDir(): string {
  const dir = path.join(process.env.XDG_CACHE_HOME || path.join(os.homedir(), ".cache"), "lead-intake");
  mkdirSync(dir, { recursive: true });
  return dir;
}

/**
 * debian:trixie-slim: the local image if there is one, else a Debian minbase made by
 * mmdebstrap with the docs, man pages and locales left out as the registry's -slim image
 * does (debuerreotype's slimify list), kept as a tarball in the cache for the next run.
 */
function ensureBase(): string {
  if (podman(["image", "exists", BASE], { allowFailure: true }).status === 0) return "local image";
  const tarball = path.join(cacheDir(), "debian-trixie-slim.tar");
  let how = "cached tarball";
  if (!existsSync(tarball)) {
    how = "mmdebstrap";
    const excludes = ["doc", "man", "info", "locale", "lintian"].map((dir) => `--dpkgopt=path-exclude=/usr/share/${dir}/*`);
    // The output format is named, else mmdebstrap picks it from the file name (".partial": a folder).
    const partial = `${tarball}.partial`;
    const result = spawnSync(
      "mmdebstrap",
      [
        "--variant=minbase",
        "--format=tar",
        "--include=ca-certificates",
        ...excludes,
        "--dpkgopt=path-include=/usr/share/doc/*/copyright",
        "trixie",
        partial,
      ],
      { encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`mmdebstrap failed (exit ${result.status}):\n${result.stderr.slice(-4_000)}`);
    renameSync(partial, tarball);
  }
  podman(["import", "--quiet", tarball, BASE]);
  return how;
}

function buildImage(): void {
  const ca = process.env.NODE_EXTRA_CA_CERTS;
  const secret = ca && existsSync(ca) ? ["--secret", `id=npm_ca,src=${ca}`] : [];
  // --format docker keeps HEALTHCHECK (the OCI format has no such field).
  podman(["build", ...MACHINE, "--pull=never", "--format", "docker", ...secret, "-f", "Containerfile", "-t", IMAGE, "."]);
}

type Container = { name: string; port: number; baseUrl: string };

async function runContainer(options: {
  name: string;
  env?: Record<string, string>;
  volume?: string;
  extra?: string[];
}): Promise<Container> {
  const port = await freePort({ from: 6100, to: 6999 });
  const name = `li-test-${run}-${options.name}`;
  const env = { PORT: String(port), DEMO_ADMIN_PASSWORD: ADMIN.password, NEXTAUTH_URL: `http://127.0.0.1:${port}`, ...options.env };
  containers.push(name);
  podman([
    "run",
    "--detach",
    "--name",
    name,
    ...MACHINE,
    ...(options.volume ? ["--volume", `${options.volume}:/data`] : []),
    ...(options.extra ?? []),
    ...Object.entries(env).flatMap(([key, value]) => ["--env", `${key}=${value}`]),
    IMAGE,
  ]);
  return { name, port, baseUrl: `http://127.0.0.1:${port}` };
}

function logs(container: Container): string {
  return (
    podman(["logs", container.name], { allowFailure: true }).stderr.slice(-3_000) +
    podman(["logs", container.name], { allowFailure: true }).stdout.slice(-3_000)
  );
}

/** Waits until /api/health answers 200; returns the seconds it took. */
async function healthy(container: Container): Promise<number> {
  const t0 = Date.now();
  const deadline = t0 + 180_000;
  let lastProbe = "none yet";
  while (Date.now() < deadline) {
    const state = podman(["inspect", "--format", "{{.State.Status}}", container.name]).stdout.trim();
    if (state !== "running") throw new Error(`${container.name} is ${state} while starting:\n${logs(container)}`);
    try {
      const res = await fetch(`${container.baseUrl}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return (Date.now() - t0) / 1000;
      lastProbe = `HTTP ${res.status}: ${(await res.text()).slice(0, 500)}`;
    } catch (error) {
      // not listening yet, or a probe that cannot connect at all (say so: a CI run once waited 180 s on a "bad port")
      lastProbe = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${container.name} was not healthy within 180 s (last probe: ${lastProbe}):\n${logs(container)}`);
}

type Key = { key_id: string; secret: string };

/** `npm run keys -- create --team demo --json` inside the container, as the README shows it. */
function createKey(container: Container): Key {
  const result = podman(["exec", container.name, "npm", "run", "--silent", "keys", "--", "create", "--team", "demo", "--json"]);
  return JSON.parse(result.stdout.trim().split("\n").at(-1)!) as Key;
}

async function createLead(container: Container, key: Key, name: string): Promise<{ status: number; leadId?: string }> {
  const res = await fetch(container.baseUrl + CREATE_LEAD, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-API-Key": key.key_id, "X-API-Secret": key.secret },
    body: JSON.stringify({ name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com` }),
    signal: AbortSignal.timeout(15_000),
  });
  const body = (await res.json()) as { lead_id?: string };
  return { status: res.status, leadId: body.lead_id };
}

const seq = (leadId: string | undefined) => Number(/(\d+)$/.exec(leadId ?? "")?.[1]);

/** `podman stop` (SIGTERM, then the 10 s default before SIGKILL): the exit code and seconds. */
function stop(container: Container): { exitCode: number; seconds: number } {
  const t0 = Date.now();
  podman(["stop", container.name]);
  const seconds = (Date.now() - t0) / 1000;
  return { exitCode: Number(podman(["inspect", "--format", "{{.State.ExitCode}}", container.name]).stdout.trim()), seconds };
}

/** Paths a container changed in its own file system (podman diff; volumes are not in it). */
function changedPaths(name: string): string[] {
  const parsed = JSON.parse(podman(["diff", "--format", "json", name]).stdout || "{}") as Record<string, string[] | undefined>;
  return [...(parsed.changed ?? []), ...(parsed.added ?? []), ...(parsed.deleted ?? [])];
}

/**
 * What the container wrote outside /data and the temp folders: its changes less those of a
 * container that runs nothing (Podman's own mount points, such as /etc for /etc/hosts).
 */
function writtenOutside(container: Container): string[] {
  const idle = `li-test-${run}-idle`;
  containers.push(idle);
  podman(["run", "--name", idle, ...MACHINE, "--entrypoint", "/bin/true", IMAGE]);
  const podmans = new Set(changedPaths(idle));
  const temp = ["/tmp", "/var/tmp"];
  return changedPaths(container.name).filter(
    (file) => !podmans.has(file) && !temp.some((dir) => file === dir || file.startsWith(`${dir}/`)),
  );
}

let postgres: PostgresCluster | undefined;
let redis: RedisServer | undefined;

before(async () => {
  assertTools();
  const how = await timed("Base image (debian:trixie-slim)", ensureBase);
  console.log(`Base image from ${how}.`);
  await timed("Image build (podman build)", buildImage);
});

after(async () => {
  for (const name of containers) podman(["rm", "--force", "--time", "0", name], { allowFailure: true });
  for (const name of volumes) podman(["volume", "rm", "--force", name], { allowFailure: true });
  await redis?.stop();
  postgres?.destroy();
  console.log(`\n=== Timings (total ${((Date.now() - started) / 1000).toFixed(0)} s)\n${timings.map((line) => `  ${line}`).join("\n")}`);
});

test("the image: non-root user, /data volume, health check on /api/health, tini as PID 1, at most 450 MB", () => {
  type HealthCheck = { Test: string[] };
  const [config] = JSON.parse(podman(["image", "inspect", IMAGE]).stdout) as {
    Size: number;
    // Podman reports the health check beside Config, Docker inside it.
    Healthcheck?: HealthCheck;
    Config: { User: string; Volumes?: Record<string, object>; Healthcheck?: HealthCheck; Entrypoint: string[]; Env: string[] };
  }[];
  assert.ok(config);
  assert.equal(config.Config.User, "app");
  assert.deepEqual(Object.keys(config.Config.Volumes ?? {}), ["/data"]);
  assert.match((config.Healthcheck ?? config.Config.Healthcheck)?.Test.join(" ") ?? "", /\/api\/health/);
  assert.deepEqual(config.Config.Entrypoint, ["/usr/bin/tini", "--"]);
  assert.ok(config.Config.Env.includes("DATA_DIR=/data") && config.Config.Env.includes("DATABASE_URL=file:/data/app.db"));
  console.log(`Image size: ${(config.Size / 1e6).toFixed(0)} MB`);
  assert.ok(config.Size <= MAX_IMAGE_BYTES, `image is ${(config.Size / 1e6).toFixed(0)} MB, more than 450 MB`);
  // No build tool and no CA bundle handed in at build time is left in the image.
  const probe = podman([
    "run",
    "--rm",
    ...MACHINE,
    "--entrypoint",
    "sh",
    IMAGE,
    "-c",
    "id -un; command -v g++ make npm-cli python3 || true; ls /run/secrets 2>/dev/null || true",
  ]);
  assert.equal(probe.stdout.trim(), "app");
});

test("SQLite with a volume: health, a key from the CLI inside, a lead, a restart keeps both, podman stop exits 0", async () => {
  const volume = `li-test-${run}-sqlite`;
  volumes.push(volume);
  podman(["volume", "create", volume]);
  const app = await runContainer({ name: "sqlite", volume });
  const startSeconds = await timed("SQLite container: first start to healthy (migrations, seed)", () => healthy(app));
  console.log(`First start (empty volume) to healthy: ${startSeconds.toFixed(1)} s`);
  assert.equal(podman(["healthcheck", "run", app.name], { allowFailure: true }).status, 0, "the image's HEALTHCHECK passes");

  const key = createKey(app);
  const first = await createLead(app, key, "Ada Lovelace");
  assert.equal(first.status, 201);

  const stopped = stop(app);
  assert.equal(stopped.exitCode, 0, `exit code after podman stop:\n${logs(app)}`);
  assert.ok(stopped.seconds < 10, `stopped in ${stopped.seconds} s`);
  assert.deepEqual(writtenOutside(app), [], "the container wrote only to /data and the temp folders");

  podman(["start", app.name]);
  const restartSeconds = await timed("SQLite container: restart to healthy", () => healthy(app));
  console.log(`Restart to healthy: ${restartSeconds.toFixed(1)} s`);
  const second = await createLead(app, key, "Grace Hopper");
  assert.equal(second.status, 201, "the key made before the restart still works");
  assert.equal(seq(second.leadId), seq(first.leadId) + 1, `${first.leadId} then ${second.leadId}`);

  // The other operator CLIs run inside too, as the README shows them.
  const listed = podman(["exec", app.name, "npm", "run", "--silent", "keys", "--", "list", "--team", "demo", "--json"]);
  assert.match(listed.stdout, new RegExp(key.key_id));
  const team = podman([
    "exec",
    app.name,
    "npm",
    "run",
    "--silent",
    "teams",
    "--",
    "create",
    "--name",
    "Ops",
    "--owner",
    ADMIN.email,
    "--json",
  ]);
  assert.match(team.stdout, /ops/i);
  const backup = podman(["exec", app.name, "npm", "run", "--silent", "backup", "--", "/data/backups/test.db"], { allowFailure: true });
  assert.equal(backup.status, 0, backup.stderr);
  assert.equal(stop(app).exitCode, 0);
});

// Docker's --read-only: only the tmpfs asked for (Podman's --read-only would also mount /run and /var/tmp).
test("--read-only with a tmpfs /tmp: serves, takes a key and a lead, stops with 0", async () => {
  const volume = `li-test-${run}-readonly`;
  volumes.push(volume);
  podman(["volume", "create", volume]);
  const app = await runContainer({ name: "readonly", volume, extra: ["--read-only", "--read-only-tmpfs=false", "--tmpfs", "/tmp"] });
  await timed("Read-only container: start to healthy", () => healthy(app));
  const key = createKey(app);
  assert.equal((await createLead(app, key, "Read Only")).status, 201);
  const page = await fetch(`${app.baseUrl}/signin`);
  assert.equal(page.status, 200, "a page renders");
  assert.equal(stop(app).exitCode, 0, logs(app));
  assert.doesNotMatch(logs(app), /EROFS|read-only file system/i);
});

test("two containers on one PostgreSQL and one Redis: leads through both, one session, kill -9 loses no acknowledged lead", async () => {
  [postgres, redis] = await timed(
    "PostgreSQL and Redis on the host",
    async () => [await startPostgresCluster(), await startRedis()] as const,
  );
  const databaseUrl = await postgres.createDatabase("lead_intake_container");
  const env = {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redis.url,
    SECRET_ENCRYPTION_KEY: randomBytes(32).toString("hex"),
    NEXTAUTH_SECRET: randomBytes(32).toString("base64"),
  };
  // Started together, as in a rolling deploy: migrations and seed race on one database.
  const a = await runContainer({ name: "pg-a", env });
  const b = await runContainer({ name: "pg-b", env });
  await timed("Two PostgreSQL containers: start to healthy", () => Promise.all([healthy(a), healthy(b)]));

  const key = createKey(a);
  const results = await Promise.all(Array.from({ length: 20 }, (_, i) => createLead(i % 2 ? b : a, key, `Lead ${i}`)));
  assert.deepEqual(
    results.map((r) => r.status),
    Array(20).fill(201),
  );
  assert.equal(new Set(results.map((r) => r.leadId)).size, 20, "20 distinct lead ids");

  const cookie = await signIn(a.baseUrl, ADMIN.email, ADMIN.password);
  assert.ok(cookie);
  const session = (await (await fetch(`${b.baseUrl}/api/auth/session`, { headers: { cookie } })).json()) as { user?: { email?: string } };
  assert.equal(session.user?.email, ADMIN.email, "a session from A is valid on B");

  // A steady stream of creates through A; A is killed (SIGKILL) while it runs.
  const acknowledged: string[] = [];
  let failures = 0;
  let stopWriting = false;
  const writers = Array.from({ length: 4 }, async (_, w) => {
    for (let i = 0; !stopWriting; i++) {
      try {
        const result = await createLead(a, key, `Kill ${w} ${i}`);
        if (result.status === 201) acknowledged.push(result.leadId!);
        else failures++;
      } catch {
        failures++;
      }
    }
  });
  while (acknowledged.length < 40) await new Promise((resolve) => setTimeout(resolve, 20));
  // Killed while requests are in flight (the kill must not block this process's event loop);
  // the writers go on until each has seen A gone.
  await new Promise((resolve, reject) =>
    spawn("podman", ["--runtime", "runc", "kill", "--signal", "KILL", a.name], { stdio: "ignore" }).on("exit", resolve).on("error", reject),
  );
  while (failures < 4) await new Promise((resolve) => setTimeout(resolve, 20));
  stopWriting = true;
  await Promise.all(writers);
  assert.equal(podman(["wait", a.name]).stdout.trim(), "137", "A died of SIGKILL");
  console.log(`kill -9 under load: ${acknowledged.length} creates acknowledged by A, ${failures} cut off`);

  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ id: string }>('SELECT "id" FROM "Lead" WHERE "id" = ANY($1)', [acknowledged]);
    assert.equal(found.rowCount, acknowledged.length, `${acknowledged.length} acknowledged, ${found.rowCount} stored`);
  } finally {
    await client.end();
  }
  // B kept serving throughout.
  assert.equal((await createLead(b, key, "After the kill")).status, 201);
  assert.equal(stop(b).exitCode, 0, logs(b));
});

test("compose.yaml: app from the Containerfile, postgres:17 and redis:7 with health checks and named volumes, the secrets from .env", () => {
  const compose = parse(readFileSync(path.join(ROOT, "compose.yaml"), "utf8"), { merge: true }) as {
    services: Record<
      string,
      {
        build?: { context: string; dockerfile: string };
        image?: string;
        profiles?: string[];
        environment?: Record<string, string>;
        env_file?: string;
        depends_on?: Record<string, { condition: string }>;
        healthcheck?: { test: string[] };
        volumes?: string[];
      }
    >;
    volumes: Record<string, unknown>;
  };
  const { app, "app-2": second, postgres: db, redis: cache } = compose.services;
  assert.ok(app && second && db && cache);
  assert.equal(db.image, "postgres:17");
  assert.equal(cache.image, "redis:7");
  for (const service of [db, cache]) assert.ok(service.healthcheck?.test.length, "a health check");
  for (const instance of [app, second]) {
    assert.deepEqual(instance.build, { context: ".", dockerfile: "Containerfile" });
    assert.deepEqual(instance.depends_on, { postgres: { condition: "service_healthy" }, redis: { condition: "service_healthy" } });
    assert.match(instance.environment?.DATABASE_URL ?? "", /^postgresql:\/\/.+@postgres:5432\//);
    assert.equal(instance.environment?.REDIS_URL, "redis://redis:6379");
    assert.match(instance.environment?.SECRET_ENCRYPTION_KEY ?? "", /^\$\{SECRET_ENCRYPTION_KEY:\?/);
    assert.match(instance.environment?.NEXTAUTH_SECRET ?? "", /^\$\{NEXTAUTH_SECRET:\?/);
    assert.equal(instance.env_file, ".env");
  }
  assert.equal(app.profiles, undefined);
  assert.deepEqual(second.profiles, ["scale"]);
  // Every volume a service mounts is a named volume declared at the top level.
  const mounted = Object.values(compose.services).flatMap((service) => (service.volumes ?? []).map((v) => v.split(":")[0]!));
  assert.deepEqual([...new Set(mounted)].sort(), Object.keys(compose.volumes).sort());
  assert.deepEqual(mounted.sort(), ["app-2-data", "app-data", "postgres-data", "redis-data"]);
  // .env.example names every secret compose.yaml requires, with how to generate it.
  const example = readFileSync(path.join(ROOT, ".env.example"), "utf8");
  for (const name of ["SECRET_ENCRYPTION_KEY", "NEXTAUTH_SECRET", "POSTGRES_PASSWORD"]) assert.match(example, new RegExp(`^${name}=`, "m"));
  assert.match(example, /openssl rand -hex 32/);
});
