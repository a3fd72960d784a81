import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { breakdownTable, type Breakdown } from "./create-breakdown";

export type Row = {
  id: string;
  label: string;
  /** "ok": HTTP load through next start; "lib query": the pages' database work, in-process, one caller. */
  status: "ok" | "lib query";
  connections: number | null;
  storedLeads: number | null;
  reqPerSec: number | null;
  p50: number | null;
  p99: number | null;
  errors: number | null;
  non2xx: number | null;
  /** reqPerSec / the baseline's, same run. */
  ratio: number | null;
  /** Server CPU time per answered request (µs): steadier than req/s on a shared machine. */
  serverCpuMicros: number | null;
  /** The baseline's server CPU per request / this row's: the ratio an idle machine would approach. */
  cpuRatio: number | null;
  /** PostgreSQL's own CPU per answered request (its processes on this machine), µs; absent on SQLite. */
  databaseCpuMicros?: number | null;
  /** A create row's reqPerSec / the limit row's (issue 29), same run. */
  limitRatio?: number | null;
  /** Operations per second, for the microbenchmark row. */
  opsPerSec?: number;
  statusCodes?: Record<string, number>;
};

export type Target = { target: string; value: string; met: boolean | null };

export type Machine = {
  cores: number;
  cpuModel: string;
  node: string;
  platform: string;
  memoryGiB: number;
  date: string;
  loadAverageBefore: number[];
  loadAverageAfter: number[];
};

export type Report = {
  machine: Machine;
  database: string;
  config: Record<string, unknown>;
  rows: Row[];
  /** One create's CPU by stage, per database (scripts/bench/create-breakdown.ts). */
  breakdowns: { database: string; breakdown: Breakdown; limit: Breakdown | null }[];
  targets: Target[];
  totalSeconds: number;
};

export function machineInfo(): Omit<Machine, "loadAverageAfter"> {
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    node: process.version,
    platform: `${os.type()} ${os.release()} ${os.arch()}`,
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    date: new Date().toISOString(),
    loadAverageBefore: loadAverage(),
  };
}

export function loadAverage(): number[] {
  return os.loadavg().map((n) => Math.round(n * 100) / 100);
}

const fmt = (n: number | null | undefined, digits = 0) =>
  n === null || n === undefined ? "—" : n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

export function markdown(report: Report): string {
  const m = report.machine;
  const lines = [
    `Machine: ${m.cores} cores (${m.cpuModel}), ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}; ` +
      `${report.database}; ${m.date}; load average (1/5/15 min) ${m.loadAverageBefore.join(" / ")} before, ` +
      `${m.loadAverageAfter.join(" / ")} after. Server and load generator share the cores.` +
      (Math.max(m.loadAverageBefore[0] ?? 0, m.loadAverageAfter[0] ?? 0) > m.cores
        ? ` **Other work was loading the machine during this run (load average above the ${m.cores} cores): absolute figures are low and noisy; the CPU-per-request columns are steadier. Re-run on a quiet machine for the reference table.**`
        : ""),
    "",
    "| Row | Conns | Stored leads | req/s | p50 ms | p99 ms | Errors / non-2xx | × baseline | × limit | Server CPU µs/req | × baseline (CPU) | PostgreSQL CPU µs/req |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...report.rows.map((r) =>
      r.status === "lib query"
        ? `| ${r.label} | 1 | ${fmt(r.storedLeads)} | ${fmt(r.reqPerSec, r.reqPerSec !== null && r.reqPerSec < 10 ? 1 : 0)} calls/s | ${fmt(r.p50, 1)} | ${fmt(r.p99, 1)} | ${r.errors} | | | ${r.serverCpuMicros == null ? "" : fmt(r.serverCpuMicros)} | | |`
        : r.opsPerSec !== undefined
          ? `| ${r.label} | 1 core | | ${fmt(r.opsPerSec)} ops/s | | | | | | | | |`
          : `| ${r.label} | ${r.connections} | ${fmt(r.storedLeads)} | ${fmt(r.reqPerSec)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${r.errors} / ${r.non2xx} | ${fmt(r.ratio, 2)} | ${r.limitRatio == null ? "" : fmt(r.limitRatio, 2)} | ${fmt(r.serverCpuMicros)} | ${fmt(r.cpuRatio, 2)} | ${r.databaseCpuMicros == null ? "" : fmt(r.databaseCpuMicros)} |`,
    ),
    ...report.breakdowns.flatMap(({ database, breakdown, limit }) => [
      "",
      `Where one create's CPU goes, ${database} (create_lead JSON at ${String(report.config.connections)} connections, a server of its own under \`node --cpu-prof\`${limit ? "; beside it the limit row's route, measured the same way" : ""}):`,
      "",
      breakdownTable(breakdown, limit),
    ]),
    "",
    "| Target | Measured | Met |",
    "|---|---|---|",
    ...report.targets.map((t) => `| ${t.target} | ${t.value} | ${t.met === null ? "pending" : t.met ? "met" : "not met"} |`),
    "",
    `Durations: ${String(report.config.duration)} s per row after ${String(report.config.warmup)} s warm-up; whole run ${fmt(report.totalSeconds)} s.`,
    "",
  ];
  return lines.join("\n");
}

export function writeReport(outDir: string, report: Report): { json: string; md: string } {
  mkdirSync(outDir, { recursive: true });
  const json = path.join(outDir, "latest.json");
  const md = path.join(outDir, "latest.md");
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  writeFileSync(md, markdown(report));
  return { json, md };
}

export const TABLE_START = "<!-- bench:start (written by npm run bench) -->";
export const TABLE_END = "<!-- bench:end -->";

/** Replaces the generated part of docs/performance.md (between the markers) with this run. */
export function updatePerformanceTable(docPath: string, report: Report, command: string): void {
  const text = readFileSync(docPath, "utf8");
  const start = text.indexOf(TABLE_START);
  const end = text.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${docPath} has no ${TABLE_START} … ${TABLE_END} markers`);
  const block = [TABLE_START, "", `Reproduce: \`${command}\``, "", markdown(report).trimEnd(), "", TABLE_END].join("\n");
  writeFileSync(docPath, text.slice(0, start) + block + text.slice(end + TABLE_END.length));
}
