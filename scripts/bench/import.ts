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
// end with nothing else running, the server's resident memory sampled meanwhile; then
// create_lead at the latency connections, idle and while a second file of half as many
// rows is imported (its p99 is to stay within 2 ×). Two imports, because an import gives
// way to intake by design: timed under load, its rate would measure the giving way.

export type ImportBenchResult = {
  rows: number;
  seconds: number;
  rssGrowthMb: number | null;
  idle: LoadResult;
  during: LoadResult;
  /** The import was still running when the "during" measurement ended (else it measured partly idle). */
  overlapped: boolean;
};

async function writeCsv(file: string, rows: number, tag: string): Promise<void> {
  const out = createWriteStream(file);
  out.write("Name,Email,Mobile,Company,Notes\n");
  for (let i = 0; i < rows; i++) {
    const line = `Person ${i},person${i}@${tag}.example,+44 7${tag === "import" ? 9 : 8}00 ${String(i % 1_000_000).padStart(6, "0")},Company ${i % 1000},note ${i}\n`;
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

/** Uploads `rows` generated rows as the owner, through the app's upload route; returns the draft import. */
async function upload(
  server: Server,
  team: { id: string; slug: string },
  cookie: string | null,
  file: string,
  rows: number,
  tag: string,
): Promise<ImportRecord> {
  await writeCsv(file, rows, tag);
  const answer = await fetch(`${server.baseUrl}/api/teams/${team.slug}/imports`, {
    method: "POST",
    headers: { cookie: cookie ?? "", origin: server.baseUrl, "content-type": "text/csv", "x-file-name": path.basename(file) },
    body: Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>,
    duplex: "half",
  } as RequestInit);
  const uploaded = (await answer.json()) as { import_id?: string; error?: string };
  if (!uploaded.import_id) throw new Error(`The upload answered ${answer.status}: ${uploaded.error ?? "no import id"}`);
  return (await findImport(team.id, uploaded.import_id))!;
}

/** Starts a draft import with the proposed mapping; `whileRunning` runs once it has started; returns it when it has ended. */
async function runToEnd(
  team: { id: string },
  record: ImportRecord,
  rows: number,
  whileRunning?: () => Promise<void>,
): Promise<ImportRecord> {
  const started = await startImport({
    record,
    mapping: proposeMapping(record.headers),
    duplicates: "skip",
    sourceId: null,
    actor: CLI_ACTOR,
  });
  if (!started.ok) throw new Error(started.error);
  let current = record;
  await waitFor(async () => (current = (await findImport(team.id, record.id))!).status !== "queued", 60, "The import's start");
  await whileRunning?.();
  await waitFor(
    async () => !["queued", "running"].includes((current = (await findImport(team.id, record.id))!).status),
    900,
    "The import's end",
  );
  if (current.status !== "done" || current.createdCount + current.skippedCount + current.refusedCount !== rows) {
    throw new Error(`The import ended ${current.status} with ${current.createdCount} created of ${rows}`);
  }
  return current;
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
  const cookie = await signIn(server.baseUrl, options.owner.email, options.owner.password);

  // 1. The rate and memory: the import alone.
  const alone = await upload(server, team, cookie, path.join(options.dataDir, "import.csv"), options.rows, "import");
  const baseline = server.rssMb();
  let peak = baseline;
  const sampler = setInterval(() => {
    const now = server.rssMb();
    if (now !== null && (peak === null || now > peak)) peak = now;
  }, 200);
  let done: ImportRecord;
  try {
    done = await runToEnd(team, alone, options.rows);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (done.finishedAt!.getTime() - done.startedAt!.getTime()) / 1000;

  // 2. create_lead's latency, idle and while another import runs.
  const secondRows = Math.ceil(options.rows / 2);
  const second = await upload(server, team, cookie, path.join(options.dataDir, "import-2.csv"), secondRows, "second");
  const idle = await measure(server, options.createLead, options.run);
  let during: LoadResult | null = null;
  let overlapped = false;
  await runToEnd(team, second, secondRows, async () => {
    during = await measure(server, options.createLead, options.run);
    overlapped = (await findImport(team.id, second.id))!.status === "running";
  });
  return {
    rows: options.rows,
    seconds,
    rssGrowthMb: baseline !== null && peak !== null ? peak - baseline : null,
    idle,
    during: during!,
    overlapped,
  };
}
