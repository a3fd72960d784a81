import autocannon, { type Options } from "autocannon";

export type LoadRequest = {
  method: "GET" | "POST";
  path: string;
  headers?: Record<string, string>;
  /** A fresh body per request (unique emails), or none. */
  body?: () => string;
  /** Headers computed from each request's body (a builder's signature). */
  sign?: (body: string) => Record<string, string>;
};

export type LoadResult = {
  reqPerSec: number;
  /** null when nothing was answered within the row's duration. */
  p50: number | null;
  p99: number | null;
  requests: number;
  /** Socket errors and timeouts. */
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Server CPU time (user + system) per answered request, in µs; null when unknown. */
  serverCpuMicros: number | null;
  /** PostgreSQL's CPU time per answered request (every postgres process on this machine), in µs; null on SQLite. */
  databaseCpuMicros: number | null;
};

function withBody<R extends { headers?: Record<string, string> }>(r: R, request: LoadRequest): R & { body: string } {
  const body = request.body!();
  return { ...r, body, ...(request.sign ? { headers: { ...r.headers, ...request.sign(body) } } : {}) };
}

function options(baseUrl: string, request: LoadRequest, connections: number, duration: number): Options {
  const base = { method: request.method, path: request.path, headers: request.headers ?? {} };
  return {
    url: baseUrl,
    connections,
    duration,
    timeout: 30,
    requests: [request.body ? { ...base, setupRequest: (r) => withBody(r, request) } : base],
  };
}

/** Unmeasured load, e.g. to JIT-compile and load a route's modules before its first row. */
export async function warmUp(baseUrl: string, request: LoadRequest, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await autocannon(options(baseUrl, request, connections, seconds));
}

/** Runs one row with autocannon in this process: warm-up first (not measured), then the row. */
export async function measure(
  server: { baseUrl: string; cpuSeconds: () => number | null; databaseCpuSeconds?: () => number | null },
  request: LoadRequest,
  run: { connections: number; duration: number; warmup: number },
): Promise<LoadResult> {
  const { baseUrl, cpuSeconds } = server;
  await warmUp(baseUrl, request, run.connections, run.warmup);
  const cpuBefore = cpuSeconds();
  const databaseBefore = server.databaseCpuSeconds?.() ?? null;
  const result = await autocannon(options(baseUrl, request, run.connections, run.duration));
  const cpuAfter = cpuSeconds();
  const databaseAfter = server.databaseCpuSeconds?.() ?? null;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  const ok = Object.entries(statusCodes).reduce((sum, [code, n]) => (code.startsWith("2") ? sum + n : sum), 0);
  return {
    reqPerSec: ok / result.duration,
    // autocannon records latencies of 2xx answers only, in whole milliseconds.
    p50: ok ? result.latency.p50 : null,
    p99: ok ? result.latency.p99 : null,
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    serverCpuMicros:
      cpuBefore === null || cpuAfter === null || result.requests.total === 0
        ? null
        : ((cpuAfter - cpuBefore) * 1e6) / result.requests.total,
    databaseCpuMicros:
      databaseBefore === null || databaseAfter === null || result.requests.total === 0
        ? null
        : ((databaseAfter - databaseBefore) * 1e6) / result.requests.total,
  };
}
