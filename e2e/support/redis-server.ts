import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { Redis } from "ioredis";
import { atWorkerExit, freeServerPort } from "./server-process";

// A private Redis for tests: 127.0.0.1 on a free port in 5000–5499 (the range of the
// test servers, see server-process.ts), nothing persisted. .ci/run installs Debian's
// redis-server; without it the tests fail in CI and are skipped elsewhere, both saying
// how to get it.

export const REDIS_SERVER = "/usr/bin/redis-server";
export const REDIS_MISSING = `redis-server not found at ${REDIS_SERVER}: apt-get install -y redis-server (.ci/run does this)`;

/** Whether to run the Redis tests: always in CI (CI=true), where startRedis fails with the hint; elsewhere when installed. */
export function runRedisTests(): boolean {
  return Boolean(process.env.CI) || existsSync(REDIS_SERVER);
}

export type RedisServer = { url: string; stop: () => Promise<void> };

export async function startRedis(): Promise<RedisServer> {
  if (!existsSync(REDIS_SERVER)) throw new Error(REDIS_MISSING);
  const port = await freeServerPort();

  const child = spawn(
    REDIS_SERVER,
    ["--bind", "127.0.0.1", "--port", String(port), "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
    { stdio: "ignore" },
  );
  atWorkerExit(() => child.kill("SIGKILL"));
  const url = `redis://127.0.0.1:${port}`;
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  // Refused while the server starts: connect() rejects with it, so the event needs no second report.
  client.on("error", () => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await client.connect();
      await client.ping();
      break;
    } catch (error) {
      client.disconnect();
      if (Date.now() > deadline || child.exitCode !== null) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.disconnect();

  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}
