// What the outbox dispatcher asks of PostgreSQL per delivery (docs/performance.md "The
// dispatcher's commits"): queues N webhook deliveries to a local receiver that answers 204,
// runs one dispatcher as the app does (batches of 10) until they are all delivered, and reports
// the database's commits and WAL flushes (pg_stat_database, pg_stat_wal) per delivery. Commits,
// not time: on a durable cluster each commit is a WAL flush the intake's own commits queue
// behind, and counting them does not depend on the machine's load.
//
//   DATABASE_URL=postgresql://postgres@127.0.0.1:5434/postgres npx tsx scripts/bench/dispatcher-commits.ts [deliveries]
//
// It works on a fresh database created on that server and dropped after. Other activity on
// the same server is counted too (pg_stat_wal is the cluster's): run it on a quiet one.
import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";

const deliveries = Number(process.argv[2] ?? 2000);
const serverUrl = process.env.DATABASE_URL;
if (!serverUrl?.startsWith("postgres")) throw new Error("Set DATABASE_URL to a PostgreSQL server (postgresql://…)");

const name = `dispatcher_commits_${process.pid}`;
const admin = new pg.Client({ connectionString: serverUrl });
await admin.connect();
await admin.query(`CREATE DATABASE "${name}"`);
const url = new URL(serverUrl);
url.pathname = `/${name}`;
process.env.DATABASE_URL = url.toString();
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
const root = path.join(import.meta.dirname, "..", "..");
execFileSync(path.join(root, "node_modules", ".bin", "prisma"), ["migrate", "deploy", "--config", "prisma.pg.config.ts"], {
  cwd: root,
  env: process.env,
  stdio: "ignore",
});

const { db } = await import("../../lib/db/client");
const { Dispatcher } = await import("../../lib/jobs/dispatcher");
const { insertJobs } = await import("../../lib/jobs/job-store");
const { createTeam } = await import("../../lib/teams/team-store");
const { webhookHandler } = await import("../../lib/webhooks/webhook-delivery");
const { createEndpoint } = await import("../../lib/webhooks/webhook-endpoint-changes");
const { drainJobs, startReceiver } = await import("./webhook");

const counters = async () => {
  const { rows } = await admin.query<{ commits: string; syncs: string; writes: string }>(
    `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = $1) AS commits, wal_sync AS syncs, wal_write AS writes FROM pg_stat_wal`,
    [name],
  );
  return { commits: Number(rows[0]!.commits), syncs: Number(rows[0]!.syncs), writes: Number(rows[0]!.writes) };
};
/** An idle backend reports its counters within 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): wait that out. */
const settled = async () => {
  await new Promise((resolve) => setTimeout(resolve, 11_000));
  return counters();
};

const receiver = await startReceiver();
try {
  const team = await createTeam({ slug: "dispatcher-commits", name: "Dispatcher commits" });
  const endpoint = await createEndpoint({
    teamId: team.id,
    url: receiver.url,
    description: null,
    events: ["lead.created"],
    actor: { userId: null, ip: null, via: "cli" },
  });
  const payload = JSON.stringify({ type: "lead.created", data: { id: "CRM-LEAD-1", name: "Ada Lovelace", email: "ada@example.com" } });
  const runAt = new Date(Date.now() - 1_000);
  for (let i = 0; i < deliveries; i += 500) {
    await insertJobs(
      Array.from({ length: Math.min(500, deliveries - i) }, (_, j) => ({
        teamId: team.id,
        kind: "webhook" as const,
        endpointId: endpoint.id,
        eventId: `evt_${i + j}`,
        eventType: "lead.created",
        payload,
        maxAttempts: 3,
        runAt,
      })),
    );
  }
  const dispatcher = new Dispatcher({
    handlers: { webhook: webhookHandler({ allowPrivate: true }) },
    leaseMs: 60_000,
    retryBaseMs: 30_000,
  });
  const before = await settled();
  const started = performance.now();
  while ((await dispatcher.runOnce()) > 0);
  const seconds = (performance.now() - started) / 1000;
  await drainJobs(10);
  const after = await settled();
  const delivered = await db().job.count({ where: { state: "delivered" } });
  const per = (n: number) => (n / delivered).toFixed(2);
  console.log(
    `${delivered} deliveries in ${seconds.toFixed(1)} s (${Math.round(delivered / seconds)}/s); per delivery: ` +
      `${per(after.commits - before.commits)} commits, ${per(after.syncs - before.syncs)} WAL syncs, ${per(after.writes - before.writes)} WAL writes`,
  );
  if ((await receiver.received()) < delivered) throw new Error("The receiver got fewer deliveries than were recorded");
} finally {
  await receiver.close();
  await db().$disconnect();
  await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await admin.end();
}
