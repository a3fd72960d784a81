// `npm run bench`: builds if needed, starts `next start` on a fresh database and measures,
// in one run, the baseline route, create_lead (JSON and multipart) before and after a bulk
// preload of leads, the signed-in lead pages and the secret check. Writes
// bench/results/latest.json and latest.md. Knobs: scripts/bench/options.ts.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { benchOptions, wants, type BenchOptions } from "./bench/options";
import { buildIfNeeded, startServer } from "./bench/server";
import { measure, type LoadRequest, type LoadResult } from "./bench/load";
import { jsonLeadBody, multipartLeadBody, MULTIPART_BOUNDARY } from "./bench/bodies";
import { preloadSqlite } from "./bench/preload";
import { benchLeadPages, leadPages, signIn } from "./bench/lead-pages";
import { secretChecksPerSecond } from "./bench/secret-check";
import { loadAverage, machineInfo, markdown, writeReport, type Row } from "./bench/report";
import { evaluateTargets } from "./bench/targets";
import { db } from "../lib/db/client";
import { createApiKey } from "../lib/api-keys/api-key-store";
import { createTeam } from "../lib/teams/team-store";
import { countLeads } from "../lib/leads/lead-store";
import { formatLeadId } from "../lib/leads/lead-id";
import { resolveLeadSource } from "../lib/teams/lead-sources";
import { workspaceCurrency } from "../lib/workspace/settings";
import { findUserByEmail } from "../lib/users/user-store";
import { DEFAULT_DEMO_ADMIN_EMAIL, DEFAULT_DEMO_ADMIN_PASSWORD } from "../lib/setup/seed";

const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";

async function main() {
  const started = performance.now();
  const options = benchOptions();
  const machine = machineInfo();
  console.log(`Load average before: ${machine.loadAverageBefore.join(" / ")} on ${machine.cores} cores`);
  buildIfNeeded();

  if (/^postgres(ql)?:\/\//i.test(process.env.DATABASE_URL ?? "")) {
    throw new Error("The PostgreSQL rows are not implemented yet; unset DATABASE_URL to bench the embedded SQLite");
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "lead-intake-bench-"));
  const databaseUrl = `file:${path.join(dataDir, "bench.db")}`;
  // The lib functions used below (team, key, counts) read these on first use, so they
  // reach the same database and key files as the server.
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = databaseUrl;

  const server = await startServer({
    port: options.port,
    dataDir,
    databaseUrl,
    logFile: path.join(dataDir, "server.log"),
    profileDir: options.profileDir,
  });
  console.log(`Server up at ${server.baseUrl} (data in ${dataDir})`);

  const rows: Row[] = [];
  try {
    const adminEmail = process.env.DEMO_ADMIN_EMAIL?.trim() || DEFAULT_DEMO_ADMIN_EMAIL;
    const adminPassword = process.env.DEMO_ADMIN_PASSWORD || DEFAULT_DEMO_ADMIN_PASSWORD;
    const admin = await findUserByEmail(adminEmail);
    const team = await createTeam({ slug: "bench", name: "Bench", ownerUserId: admin?.id, defaultPhoneCountry: "GB" });
    const key = await createApiKey({ teamId: team.id, description: "npm run bench" });
    const auth = { "X-API-Key": key.keyId, "X-API-Secret": key.secret };

    const run = (connections: number) => ({ connections, duration: options.duration, warmup: options.warmup });
    const row = (id: string, label: string, connections: number, result: LoadResult, storedLeads: number | null): Row => ({
      id,
      label,
      status: "ok",
      connections,
      storedLeads,
      reqPerSec: result.reqPerSec,
      p50: result.p50,
      p99: result.p99,
      errors: result.errors,
      non2xx: result.non2xx,
      ratio: null,
      serverCpuMicros: result.serverCpuMicros,
      cpuRatio: null,
      statusCodes: result.statusCodes,
    });
    const record = (r: Row) => {
      rows.push(r);
      console.log(`${r.label} @${r.connections}: ${Math.round(r.reqPerSec ?? 0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}, server CPU ${Math.round(r.serverCpuMicros ?? 0)} µs/req`);
    };

    if (wants(options, "ping")) {
      record(row("ping", "GET /api/ping (baseline)", options.connections, await measure(server, { method: "GET", path: "/api/ping" }, run(options.connections)), null));
    }

    const bodies: { id: string; label: string; request: LoadRequest }[] = [
      {
        id: "json",
        label: "create_lead, JSON",
        request: { method: "POST", path: CREATE_LEAD, headers: { ...auth, "content-type": "application/json" }, body: jsonLeadBody },
      },
      {
        id: "multipart",
        label: "create_lead, multipart",
        request: {
          method: "POST",
          path: CREATE_LEAD,
          headers: { ...auth, "content-type": `multipart/form-data; boundary=${MULTIPART_BOUNDARY}` },
          body: multipartLeadBody,
        },
      },
    ];
    const createRows = async (size: "small" | "large") => {
      for (const connections of [options.connections, options.latencyConnections]) {
        for (const body of bodies) {
          const stored = await countLeads(team.id);
          const result = await measure(server, body.request, run(connections));
          const where = size === "small" ? "fresh database" : `${options.leads.toLocaleString("en-US")} leads`;
          record(row(`create-${body.id}-${size}-${connections}`, `${body.label}, ${where}`, connections, result, stored));
        }
      }
    };

    if (wants(options, "create")) await createRows("small");

    if (wants(options, "preload") && options.leads > 0) {
      const source = await resolveLeadSource(team.id);
      const loaded = preloadSqlite(databaseUrl, { teamId: team.id, sourceId: source.id, apiKeyId: key.keyId, currency: await workspaceCurrency() }, options.leads);
      console.log(`Preloaded ${loaded.inserted.toLocaleString("en-US")} leads in ${loaded.seconds.toFixed(1)} s`);
    }

    if (wants(options, "create-large")) await createRows("large");

    if (wants(options, "pages")) {
      const total = await countLeads(team.id);
      const cookie = await signIn(server.baseUrl, adminEmail, adminPassword);
      const pages = leadPages({
        slug: team.slug,
        deepCursor: Math.max(2, Math.floor(total / 100)),
        emailPrefix: "lead12345",
        detailId: formatLeadId(Math.max(1, Math.floor(total / 2))),
      });
      for (const result of await benchLeadPages(server, pages, cookie, run(options.latencyConnections))) {
        if (result.status === "ok") record(row(`page-${result.page.id}`, result.page.label, options.latencyConnections, result.result, total));
        else {
          console.log(`${result.page.label}: pending UI (${result.httpStatus})`);
          rows.push({ id: `page-${result.page.id}`, label: result.page.label, status: "pending UI", connections: null, storedLeads: total, reqPerSec: null, p50: null, p99: null, errors: null, non2xx: null, ratio: null, serverCpuMicros: null, cpuRatio: null });
        }
      }
    }

    if (wants(options, "ping")) {
      record(row("ping-end", "GET /api/ping again (drift check)", options.connections, await measure(server, { method: "GET", path: "/api/ping" }, run(options.connections)), null));
    }
    await db().$disconnect();
  } finally {
    await server.stop();
  }

  if (wants(options, "secret")) {
    const ops = secretChecksPerSecond(options.secretSeconds);
    rows.push({ id: "secret", label: "Secret check (SHA-256 + timingSafeEqual)", status: "ok", connections: null, storedLeads: null, reqPerSec: null, p50: null, p99: null, errors: null, non2xx: null, ratio: null, serverCpuMicros: null, cpuRatio: null, opsPerSec: ops });
    console.log(`Secret check: ${Math.round(ops)} ops/s`);
  }

  const ping = rows.find((r) => r.id === "ping");
  for (const r of rows) {
    if (ping?.reqPerSec && r.reqPerSec !== null) r.ratio = r.reqPerSec / ping.reqPerSec;
    if (ping?.serverCpuMicros && r.serverCpuMicros) r.cpuRatio = ping.serverCpuMicros / r.serverCpuMicros;
  }

  const report = {
    machine: { ...machine, loadAverageAfter: loadAverage() },
    database: "SQLite (embedded, WAL, synchronous=NORMAL)",
    config: configOf(options),
    rows,
    targets: evaluateTargets(rows, options),
    totalSeconds: (performance.now() - started) / 1000,
  };
  const files = writeReport(options.outDir, report);
  console.log(`\n${markdown(report)}\nWrote ${files.json} and ${files.md}`);
  if (!options.profileDir) rmSync(dataDir, { recursive: true, force: true });
  else console.log(`Server profile (.cpuprofile) in ${options.profileDir}; data kept in ${dataDir}`);
}

function configOf(options: BenchOptions): Record<string, unknown> {
  return { ...options, only: options.only ? [...options.only] : null };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
