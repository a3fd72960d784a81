import { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { env, type Env } from "../env";
import { log } from "../log/logger";

// The counters behind every limit: in process memory by default, in Redis when
// REDIS_URL is set so that every instance shares one budget. A Redis outage does not
// fail requests: each limiter then falls back to its own in-memory twin (per instance)
// until Redis answers again.

export type Limiter = RateLimiterAbstract;

const PREFIX = "lead-intake";

let redisClient: Redis | undefined;
// Settles once the first connection attempt has ended either way (or after the connect
// timeout). Until then a request waits instead of counting in this instance's memory:
// every first request of a fresh instance would otherwise escape the shared budget.
let firstConnection: Promise<void> | undefined;

function redis(url: string): Redis {
  if (redisClient) return redisClient;
  let lastComplaint = 0;
  redisClient = new Redis(url, {
    // Fail fast while disconnected, so the in-memory fallback answers at once instead
    // of requests queueing behind a reconnect.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    commandTimeout: 1_000,
  });
  const client = redisClient;
  firstConnection = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 2_000);
    const settle = () => {
      clearTimeout(timer);
      client.off("ready", settle).off("error", settle);
      resolve();
    };
    client.once("ready", settle).once("error", settle);
  });
  redisClient.on("error", (error: Error) => {
    if (Date.now() - lastComplaint < 10_000) return;
    lastComplaint = Date.now();
    log("warn", "rate_limit.store_unavailable", { store: "redis", error: error.name });
  });
  return redisClient;
}

/**
 * The limiters of one concern, made from the environment on first use and kept on
 * globalThis under `key`: one set per process, also across the dev server's module reloads.
 */
export function limiterSet<Limiters>(key: string, make: (config: Env) => Limiters): () => Limiters {
  const kept = globalThis as unknown as Record<string, Limiters | undefined>;
  return () => (kept[key] ??= make(env()));
}

/** A limiter of `points` per `seconds` (fixed window), named `name` in the store. */
export function createLimiter(name: string, points: number, seconds: number): Limiter {
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration: seconds });
  const url = env().REDIS_URL;
  if (!url) return memory;
  return new RateLimiterRedis({
    storeClient: redis(url),
    keyPrefix: `${PREFIX}:${name}`,
    points,
    duration: seconds,
    rejectIfRedisNotReady: true,
    insuranceLimiter: memory,
  });
}

/** Consumes points; returns null when allowed, or the limiter's verdict when over the limit. */
export async function consume(limiter: Limiter, key: string, points = 1): Promise<RateLimiterRes | null> {
  await firstConnection;
  try {
    await limiter.consume(key, points);
    return null;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection;
    throw rejection;
  }
}

/** Counts one more in the current window and returns the window's count, this one included. */
export async function countOne(limiter: Limiter, key: string): Promise<number> {
  await firstConnection;
  try {
    return (await limiter.consume(key, 1)).consumedPoints;
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return rejection.consumedPoints;
    throw rejection;
  }
}

/** Points used so far in the current window (0 when none). */
export async function used(limiter: Limiter, key: string): Promise<{ points: number; msBeforeNext: number }> {
  await firstConnection;
  const state = await limiter.get(key);
  return { points: state?.consumedPoints ?? 0, msBeforeNext: state?.msBeforeNext ?? 0 };
}

/** The shared store's state for the readiness check: null when no Redis is configured. */
export async function redisReachable(): Promise<boolean | null> {
  const url = env().REDIS_URL;
  if (!url) return null;
  const client = redis(url);
  await firstConnection;
  try {
    return (await client.ping()) === "PONG";
  } catch {
    return false;
  }
}
