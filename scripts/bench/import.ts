import { createReadStream, createWriteStream } from "node:fs";
import { once } from "node:events";
import path from "node:path";
import { Readable } from "node:stream";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { proposeMapping } from "../../lib/imports/column-mapping";
import { findImport, type ImportRecord } from "../../lib/imports/import-store";
import { startImport } from "../../lib/imports/lead-import";
import { createTeam } from "../../lib/teams/team-store";
import { signIn } from "./lead-pages";
import { measure, type LoadRequest, type LoadResult } from "./load";
import type { Server } from "./server";

// The import rows of `npm run bench` (issue 20, BENCH_ONLY=import): a CSV file of
// BENCH_IMPORT_ROWS rows uploaded through the app's upload route, imported by the server's
// import lane (duplicates "skip", the page's default), timed from the job's start to its
// end, with the server's resident memory sampled meanwhile; and create_lead at the latency
// connections, idle and then while the import runs (its p99 is to stay within 2 ×).

export type ImportBenchResult = {
  rows: number;
  seconds: number;
  rssGrowthMb: number | null;
  idle: LoadResult;
  during: LoadResult;
  /** The import was still running when the "during" measurement ended (else it measured partly idle). */
  overlapped: boolean;
};

async function writeCsv(file: string, rows: number): Promise<void> {
  const out = createWriteStream(file);
  out.write("Name,Email,Mobile,Company,Notes\n");
  for (let i = 0; i < rows; i++) {
    const line = `Person ${i},person${i}@import.example,+44 7900 ${String(i % 1_000_000).padStart(6, "0")},Company ${i % 1000},note ${i}\n`;
    if (!out.write(line)) await once(out, "drain");
  }
  out.end();
  await once(out, "finish");
}

async function waitFor(check: () => Promise<boolean>, timeoutSeconds: number, what: string): Promise<void> {
  const started = performance.now();
  while (!(await check())) {
    if (performance.now() - started > timeoutSeconds * 1000) throw new Error(`${what} not within ${timeoutSeconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function importBench(options: {
  server: Server;
  dataDir: string;
  rows: number;
  owner: { id: string; email: string; password: string };
  createLead: LoadRequest;
  run: { connections: number; duration: number; warmup: number };
}): Promise<ImportBenchResult> {
  const { server } = options;
  const team = await createTeam({ slug: "bench-import", name: "Bench import", ownerUserId: options.owner.id, defaultPhoneCountry: "GB" });
  const file = path.join(options.dataDir, "import.csv");
  await writeCsv(file, options.rows);

  const cookie = await signIn(server.baseUrl, options.owner.email, options.owner.password);
  const upload = await fetch(`${server.baseUrl}/api/teams/${team.slug}/imports`, {
    method: "POST",
    headers: { cookie: cookie ?? "", origin: server.baseUrl, "content-type": "text/csv", "x-file-name": "import.csv" },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const uploaded = (await upload.json()) as { import_id?: string; error?: string };
  if (!uploaded.import_id) throw new Error(`The upload answered ${upload.status}: ${uploaded.error ?? "no import id"}`);
  const record = (await findImport(team.id, uploaded.import_id))!;

  const idle = await measure(server, options.createLead, options.run);

  const baseline = server.rssMb();
  let peak = baseline;
  const sampler = setInterval(() => {
    const now = server.rssMb();
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 200);
  let current: ImportRecord = record;
  try {
    const started = await startImport({ record, mapping: proposeMapping(record.headers), duplicates: "skip", sourceId: null, actor: CLI_ACTOR });
    if (!started.ok) throw new Error(started.error);
    await waitFor(async () => (current = (await findImport(team.id, record.id))!).status !== "queued", 60, "The import's start");
    const during = await measure(server, options.createLead, options.run);
    const overlapped = (await findImport(team.id, record.id))!.status === "running";
    await waitFor(async () => !["queued", "running"].includes((current = (await findImport(team.id, record.id))!).status), 900, "The import's end");
    if (current.status !== "done" || current.createdCount + current.skippedCount + current.refusedCount !== options.rows) {
      throw new Error(`The import ended ${current.status} with ${current.createdCount} created of ${options.rows}`);
    }
    const seconds = (current.finishedAt!.getTime() - current.startedAt!.getTime()) / 1000;
    return { rows: options.rows, seconds, rssGrowthMb: baseline !== null && peak !== null ? peak - baseline : null, idle, during, overlapped };
  } finally {
    clearInterval(sampler);
  }
}
