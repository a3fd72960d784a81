// Every knob of `npm run bench`, read from the environment once. Defaults keep a full
// run well under ten minutes on 2 cores; shorten BENCH_DURATION while developing.

function int(name: string, fallback: number, min = 0): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer ≥ ${min}; got "${raw}"`);
  return value;
}

export type BenchOptions = {
  /** Seconds each measured row runs. */
  duration: number;
  /** Seconds of unmeasured load before each row (JIT, module loading, caches). */
  warmup: number;
  /** Connections for the throughput rows. */
  connections: number;
  /** Connections for the latency rows (p50/p99). */
  latencyConnections: number;
  /** Connections for the signed-in page rows: one user's page latency. */
  pageConnections: number;
  /** Leads in the team for the "large" rows (bulk-inserted, not through HTTP). */
  leads: number;
  /** Rows of the CSV file the import rows import. */
  importRows: number;
  /** Port of the `next start` under test. */
  port: number;
  /** Seconds the secret-check microbenchmark runs. */
  secretSeconds: number;
  /** Where latest.json and latest.md go. */
  outDir: string;
  /** When set, the server runs with --cpu-prof and writes its profile here. */
  profileDir: string | null;
  /** Rewrite docs/performance.md's table with this run (BENCH_README=0 for dev runs). */
  readme: boolean;
  /** Comma-separated row groups to run (ping, create, limit, router, repeats, spam, attribution, lead_page, breakdown, webhook, connection, routing, import, preload, create-large, pages, export, dashboard, key_cache, suppression_lookup, secret); all by default. */
  only: Set<string> | null;
};

export function benchOptions(): BenchOptions {
  const only = process.env.BENCH_ONLY?.trim();
  return {
    duration: int("BENCH_DURATION", 10, 1),
    warmup: int("BENCH_WARMUP", 2),
    connections: int("BENCH_CONNECTIONS", 64, 1),
    latencyConnections: int("BENCH_LATENCY_CONNECTIONS", 8, 1),
    pageConnections: int("BENCH_PAGE_CONNECTIONS", 1, 1),
    leads: int("BENCH_LEADS", 1_000_000),
    importRows: int("BENCH_IMPORT_ROWS", 100_000, 1),
    port: int("BENCH_PORT", 6100, 1),
    secretSeconds: int("BENCH_SECRET_SECONDS", 3, 1),
    outDir: process.env.BENCH_OUT?.trim() || "bench/results",
    profileDir: process.env.BENCH_PROFILE?.trim() || null,
    readme: process.env.BENCH_README?.trim() !== "0",
    only: only ? new Set(only.split(",").map((s) => s.trim())) : null,
  };
}

export function wants(options: BenchOptions, group: string): boolean {
  return options.only === null || options.only.has(group);
}
