// `npm run bench`: builds if needed, starts `next start` on a fresh database and measures,
// in one run, the baseline route, create_lead (JSON and multipart) before and after a bulk
// preload of leads, the signed-in lead pages and the secret check. Writes
// bench/results/latest.json and latest.md. Knobs: scripts/bench/options.ts.
import { spawnSync } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import pg from "pg";
import path from "node:path";
import { benchOptions, wants, type BenchOptions } from "./bench/options";
import { BENCH_SECRET, buildIfNeeded, startServer } from "./bench/server";
import { measure, warmUp, type LoadRequest, type LoadResult } from "./bench/load";
import {
  attributedLeadBody,
  jsonLeadBody,
  multipartLeadBody,
  MULTIPART_BOUNDARY,
  renamedAttributionBody,
  repeatLeadBody,
  REPEAT_PEOPLE,
  tallyLeadBody,
} from "./bench/bodies";
import { preload } from "./bench/preload";
import { benchLeadPages, leadPages, signIn } from "./bench/lead-pages";
import { leadQueries, measureFullExport, measureQuery, type QueryResult } from "./bench/lead-queries";
import { seedLeadStory } from "./bench/lead-story";
import { secretChecksPerSecond } from "./bench/secret-check";
import { measureKeyCache, measureSuppressionLookup, type AbSide } from "./bench/alternating-ab";
import { webhookBench } from "./bench/webhook";
import { importBench } from "./bench/import";
import { ownersOf, routingBench } from "./bench/routing";
import { loadAverage, machineInfo, markdown, updatePerformanceTable, writeReport, type Row } from "./bench/report";
import { evaluateTargets } from "./bench/targets";
import { measureBreakdown } from "./bench/breakdown-run";
import { dashboardBench } from "./bench/dashboard";
import type { Breakdown } from "./bench/create-breakdown";
import { db } from "../lib/db/client";
import { createApiKey } from "../lib/api-keys/api-key-changes";
import { CLI_ACTOR } from "../lib/audit/audit-log";
import { createConnection } from "../lib/connections/connection-changes";
import { createTeam } from "../lib/teams/team-store";
import { countLeads } from "../lib/leads/lead-store";
import { formatLeadId } from "../lib/leads/lead-id";
import { findLeadTimeline } from "../lib/leads/lead-timeline";
import { resolveLeadSource } from "../lib/teams/lead-sources";
import { workspaceCurrency } from "../lib/workspace/settings";
import { findUserByEmail } from "../lib/users/user-store";
import { DEFAULT_DEMO_ADMIN_EMAIL } from "../lib/setup/seed";

const CREATE_LEAD = "/api/method/crm.api.leads.create_lead";
/** The limit row's route (lib/intake/intake-limit.ts): the same body read and lead transaction, nothing else. */
const INTAKE_LIMIT = "/api/bench/intake-limit";
/** A create's request sent to the limit row's route, with this run's secret. */
const limitRequest = (request: LoadRequest): LoadRequest => ({
  ...request,
  path: INTAKE_LIMIT,
  headers: { ...request.headers, "x-bench-secret": BENCH_SECRET },
});
/**
 * Rows per side of a comparison taken in turn (the limit, router, repeats, spam, attribution,
 * webhook, connection and routing groups): rows minutes apart differ by more than the 10 %
 * these measure (the database grows, the machine's other load comes and goes); rows side by
 * side do not.
 */
const TURNS = 3;
const IN_TURN = `median of ${TURNS} rows taken in turn`;

/** The row with the median throughput (its latencies and CPU come with it). */
function medianRow(results: LoadResult[]): LoadResult {
  const sorted = [...results].sort((a, b) => a.reqPerSec - b.reqPerSec);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

type Suite = { kind: "sqlite" | "postgres"; databaseUrl: string; dataDir: string };

/**
 * Every HTTP row and the lead queries against one database, on a `next start` of its own.
 * The lib functions used here (team, key, counts) read DATABASE_URL and DATA_DIR on first
 * use, so a process runs one suite: PostgreSQL's runs in a child process.
 */
type Breakdowns = { breakdown: Breakdown; limit: Breakdown } | null;

async function suite(options: BenchOptions, { kind, databaseUrl, dataDir }: Suite): Promise<{ rows: Row[]; breakdowns: Breakdowns }> {
  process.env.DATA_DIR = dataDir;
  process.env.DATABASE_URL = databaseUrl;
  // The seed has no default password: choose one the bench signs in with.
  process.env.DEMO_ADMIN_PASSWORD ||= `bench-admin-${randomBytes(12).toString("hex")}`;
  const server = await startServer({
    port: options.port,
    dataDir,
    databaseUrl,
    logFile: path.join(dataDir, "server.log"),
    profileDir: options.profileDir,
  });
  console.log(`${kind}: server up at ${server.baseUrl} (data in ${dataDir})`);

  const rows: Row[] = [];
  let breakdownRequest: LoadRequest | null = null;
  try {
    const adminEmail = process.env.DEMO_ADMIN_EMAIL?.trim() || DEFAULT_DEMO_ADMIN_EMAIL;
    const adminPassword = process.env.DEMO_ADMIN_PASSWORD;
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
      databaseCpuMicros: result.databaseCpuMicros,
      statusCodes: result.statusCodes,
    });
    /** Each request measured TURNS times in turn, `after` run after each turn: the median row of each. */
    const inTurn = async (requests: LoadRequest[], after?: () => Promise<void>): Promise<LoadResult[]> => {
      const sides: LoadResult[][] = requests.map(() => []);
      for (let turn = 0; turn < TURNS; turn++) {
        for (const [side, request] of requests.entries()) sides[side]!.push(await measure(server, request, run(options.connections)));
        await after?.();
      }
      return sides.map(medianRow);
    };
    const record = (r: Row) => {
      rows.push(r);
      console.log(
        `${r.label} @${r.connections}: ${Math.round(r.reqPerSec ?? 0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}, non-2xx ${r.non2xx}, server CPU ${Math.round(r.serverCpuMicros ?? 0)} µs/req`,
      );
    };

    if (wants(options, "ping")) {
      record(
        row(
          "ping",
          "GET /api/ping (baseline)",
          options.connections,
          await measure(server, { method: "GET", path: "/api/ping" }, run(options.connections)),
          null,
        ),
      );
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
      // The first rows would otherwise pay for a cold route (module loading, JIT):
      // each body gets three warm-ups' worth of load before the first measured row.
      if (size === "small") for (const body of bodies) await warmUp(server.baseUrl, body.request, options.connections, 3 * options.warmup);
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

    if (wants(options, "limit")) {
      // Issue 29: the limit of this design, paired with create_lead as the webhook rows are.
      const json: LoadRequest = { ...bodies[0]!.request };
      const limit = limitRequest(json);
      await warmUp(server.baseUrl, limit, options.connections, 3 * options.warmup);
      const [plain, bare] = await inTurn([json, limit]);
      const c = options.connections;
      record(row(`create-json-beside-limit-${c}`, `create_lead, JSON (${IN_TURN})`, c, plain!, null));
      record(
        row(`limit-${c}`, `The limit: the same body read and lead transaction, no rules, limits or logs (${IN_TURN})`, c, bare!, null),
      );
    }

    if (wants(options, "router")) {
      // Issue 47: create_lead beside Next's router (lib/http/direct-routes.ts) and through it
      // (a query string sends the same request to Next), three times in turn.
      const json: LoadRequest = bodies[0]!.request;
      const throughNext: LoadRequest = { ...json, path: `${CREATE_LEAD}?via=next` };
      await warmUp(server.baseUrl, throughNext, options.connections, 3 * options.warmup);
      const [beside, through] = await inTurn([json, throughNext]);
      const c = options.connections;
      record(row(`create-json-beside-router-${c}`, `create_lead, JSON, beside Next's router (${IN_TURN})`, c, beside!, null));
      record(
        row(
          `create-json-through-router-${c}`,
          `create_lead, JSON, through Next's router as before issue 47's direct route (${IN_TURN})`,
          c,
          through!,
          null,
        ),
      );
    }

    if (wants(options, "repeats")) {
      // Issue 41: a key set to "add". Its new people (every body a new email and number: the
      // match is looked up, nothing found, a new lead made) and its returning people (a pool of
      // REPEAT_PEOPLE, made by the warm-up: every measured request joins one's lead), each
      // beside create_lead on the default key, three times in turn.
      const adding = await createApiKey({ teamId: team.id, description: "npm run bench (add)", repeats: "add" });
      const addAuth = { "X-API-Key": adding.keyId, "X-API-Secret": adding.secret, "content-type": "application/json" };
      const plain: LoadRequest = bodies[0]!.request;
      const newPerson: LoadRequest = { ...plain, headers: addAuth };
      const returning: LoadRequest = { ...plain, headers: addAuth, body: repeatLeadBody };
      for (const request of [newPerson, returning]) await warmUp(server.baseUrl, request, options.connections, 3 * options.warmup);
      const [plainRow, newRow, repeatRow] = await inTurn([plain, newPerson, returning]);
      const c = options.connections;
      record(row(`create-json-beside-repeats-${c}`, `create_lead, JSON (${IN_TURN})`, c, plainRow!, null));
      record(row(`create-json-add-new-${c}`, `create_lead, JSON, new person on an "add" key (${IN_TURN})`, c, newRow!, null));
      record(
        row(
          `create-json-add-repeat-${c}`,
          `create_lead, JSON, repeat of an existing person on an "add" key: 200, joins the lead (${IN_TURN}; ${REPEAT_PEOPLE.toLocaleString("en-US")} people)`,
          c,
          repeatRow!,
          null,
        ),
      );
    }

    if (wants(options, "spam")) {
      // Issue 42: a key with the spam checks on (every body a new person whose lead is kept,
      // so the checks run in full and the lead is written as usual) beside the default key,
      // three times in turn.
      const checked = await createApiKey({ teamId: team.id, description: "npm run bench (spam checks)" });
      await db().apiKey.update({ where: { id: checked.keyId }, data: { spamChecks: true } });
      const plain: LoadRequest = bodies[0]!.request;
      const withChecks: LoadRequest = {
        ...plain,
        headers: { "X-API-Key": checked.keyId, "X-API-Secret": checked.secret, "content-type": "application/json" },
      };
      await warmUp(server.baseUrl, withChecks, options.connections, 3 * options.warmup);
      const [off, on] = await inTurn([plain, withChecks]);
      const c = options.connections;
      record(row(`create-json-spam-off-${c}`, `create_lead, JSON, spam checks off (${IN_TURN})`, c, off!, null));
      record(row(`create-json-spam-on-${c}`, `create_lead, JSON, spam checks on, lead kept (${IN_TURN})`, c, on!, null));
      const quarantined = await db().quarantinedLead.count({ where: { teamId: team.id } });
      if (quarantined) throw new Error(`${quarantined} bench leads were quarantined: the spam row must measure kept leads`);
    }

    if (wants(options, "attribution")) {
      // Issue 43: the same create_lead with every attribution field the script adds (first
      // and last touch: UTM fields, landing pages, referrers, click ids, times), with none,
      // and with the same fields under names the derivation does not read (the same bytes
      // stored, nothing derived), three times in turn: what storing the fields costs, and
      // what deriving the channel groups costs on top.
      const plain: LoadRequest = bodies[0]!.request;
      const attributed: LoadRequest = { ...plain, body: attributedLeadBody };
      const renamed: LoadRequest = { ...plain, body: renamedAttributionBody };
      for (const request of [attributed, renamed]) await warmUp(server.baseUrl, request, options.connections, 3 * options.warmup);
      const [none, full, renamedRow] = await inTurn([plain, attributed, renamed]);
      const c = options.connections;
      record(row(`create-json-attribution-none-${c}`, `create_lead, JSON, no attribution fields (${IN_TURN})`, c, none!, null));
      record(
        row(
          `create-json-attribution-full-${c}`,
          `create_lead, JSON, every attribution field, first and last touch (${IN_TURN})`,
          c,
          full!,
          null,
        ),
      );
      record(
        row(
          `create-json-attribution-renamed-${c}`,
          `create_lead, JSON, the same fields under names not derived from (${IN_TURN})`,
          c,
          renamedRow!,
          null,
        ),
      );
    }

    if (wants(options, "lead_page")) {
      // Issue 41: the page of a lead with 200 submissions and a long timeline, signed in as
      // the team's owner, one connection (sequential requests on one keep-alive socket), then
      // the timeline's reads alone, in-process.
      if (!admin || !adminPassword) throw new Error("The lead page row signs in as the demo admin: it was not seeded");
      const story = await seedLeadStory({ baseUrl: server.baseUrl, ownerUserId: admin.id });
      await story.close();
      const { submissions, notes, events, webhooks, emails } = story.counts;
      const what = `${submissions} submissions, ${notes} notes, ${events} status and owner changes, ${webhooks} webhook deliveries, ${emails} emails`;
      console.log(`Lead story ${story.leadId}: ${what}`);
      const cookie = await signIn(server.baseUrl, adminEmail, adminPassword);
      const pages = [
        { id: "lead-page", leadId: story.leadId, label: `Lead page, one lead with ${what} (the newest 200 shown)` },
        { id: "lead-page-single", leadId: story.singleLeadId, label: "Lead page, a lead of the same team with one submission" },
      ];
      for (const { id, leadId, label } of pages) {
        const path = `/t/${story.slug}/leads/${leadId}`;
        const html = await (await fetch(`${server.baseUrl}${path}`, { headers: { cookie: cookie ?? "" } })).text();
        const page = { id, label: `${label}; ${Math.round(html.length / 1024)} kB of HTML`, path };
        const [result] = await benchLeadPages(server, [page], cookie, run(options.pageConnections));
        if (result?.status !== "ok") throw new Error(`${path} did not answer`);
        record(row(id, page.label, options.pageConnections, result.result, null));
      }
      const q = await measureQuery(
        () => findLeadTimeline({ teamId: story.teamId, leadId: story.leadId }),
        options.duration,
        options.warmup,
      );
      record(libRow("query-lead-timeline", "findLeadTimeline of that lead (lib query, in-process, 1 caller)", q, null));
    }

    if (wants(options, "breakdown")) breakdownRequest = bodies[0]!.request;

    if (wants(options, "webhook")) {
      // Paired rows: the same body for a team without an endpoint, then for one with, three
      // times in turn, each hooked row drained before the next pair, and the median of each
      // side compared. Rows minutes apart differ by more than the 10 % this measures (the
      // database grows, the machine's other load comes and goes); pairs side by side do not.
      const hooks = await webhookBench(admin?.id);
      try {
        const body = (headers: Record<string, string>): LoadRequest => ({
          method: "POST",
          path: CREATE_LEAD,
          headers: { ...headers, "content-type": "application/json" },
          body: jsonLeadBody,
        });
        const hookTeam = await db().team.findUniqueOrThrow({ where: { slug: "bench-hooks" } });
        await warmUp(server.baseUrl, body(hooks.auth), options.connections, options.warmup);
        await hooks.drain(300);
        let drained = 0;
        const [plain, hooked] = await inTurn([body(auth), body(hooks.auth)], async () => {
          drained = Math.max(drained, await hooks.drain(300));
        });
        const created = await countLeads(hookTeam.id);
        const c = options.connections;
        record(row(`create-json-paired-${c}`, `create_lead, JSON, no webhook endpoint (${IN_TURN})`, c, plain!, null));
        record(
          row(
            `create-json-webhook-${c}`,
            `create_lead, JSON, one webhook endpoint (${IN_TURN}; ${created.toLocaleString("en-US")} events, outbox drained ≤ ${drained.toFixed(1)} s after a row)`,
            c,
            hooked!,
            null,
          ),
        );
        const received = await hooks.received();
        if (received < created) throw new Error(`The receiver got ${received} deliveries for ${created} leads`);
      } finally {
        await hooks.close();
      }
    }

    if (wants(options, "connection")) {
      // Issue 30: a form builder's signed delivery against create_lead, paired as the
      // webhook rows are (each side's median of rows taken in turn). The Tally body carries
      // the same lead fields as create_lead's JSON body; its signature is Tally's.
      const tallyTeam = await createTeam({ slug: "bench-tally", name: "Bench Tally", defaultPhoneCountry: "GB" });
      const made = await createConnection({ teamId: tallyTeam.id, builder: "tally", createdById: null, actor: CLI_ACTOR });
      const secret = made.signingSecret!;
      const tally: LoadRequest = {
        method: "POST",
        path: made.path,
        headers: { "content-type": "application/json", "user-agent": "Tally Webhooks" },
        body: tallyLeadBody,
        sign: (body) => ({ "tally-signature": createHmac("sha256", secret).update(body).digest("base64") }),
      };
      const json: LoadRequest = {
        method: "POST",
        path: CREATE_LEAD,
        headers: { ...auth, "content-type": "application/json" },
        body: jsonLeadBody,
      };
      await warmUp(server.baseUrl, tally, options.connections, 3 * options.warmup);
      const [plain, signed] = await inTurn([json, tally]);
      const stored = await countLeads(tallyTeam.id);
      const c = options.connections;
      record(row(`create-json-beside-tally-${c}`, `create_lead, JSON (${IN_TURN})`, c, plain!, null));
      record(
        row(
          `connection-tally-${c}`,
          `Tally delivery to a connection, signed (${IN_TURN}; ${stored.toLocaleString("en-US")} leads made)`,
          c,
          signed!,
          null,
        ),
      );
    }

    if (wants(options, "routing")) {
      // Issue 28: create_lead for a team with five active assignment rules (the last a round
      // robin over four members with working hours) against the team without any, paired.
      const routed = await routingBench();
      const body = (headers: Record<string, string>): LoadRequest => ({
        method: "POST",
        path: CREATE_LEAD,
        headers: { ...headers, "content-type": "application/json" },
        body: jsonLeadBody,
      });
      await warmUp(server.baseUrl, body(routed.auth), options.connections, 3 * options.warmup);
      const [plain, withRules] = await inTurn([body(auth), body(routed.auth)]);
      const owners = await ownersOf(routed.teamId);
      const made = owners.shares.reduce((sum, n) => sum + n, owners.unassigned);
      const c = options.connections;
      record(row(`create-json-beside-routing-${c}`, `create_lead, JSON, no rules (${IN_TURN})`, c, plain!, null));
      record(
        row(
          `create-json-routed-${c}`,
          `create_lead, JSON, five rules, the last a round robin over four members (${IN_TURN}; ${made.toLocaleString("en-US")} leads: ${owners.shares.join(" / ")} each, ${owners.unassigned} unassigned)`,
          c,
          withRules!,
          null,
        ),
      );
      if (owners.unassigned || Math.max(...owners.shares) - Math.min(...owners.shares) > 1)
        throw new Error(`The round robin was not fair: ${JSON.stringify(owners)}`);
    }

    if (wants(options, "import")) {
      if (!admin || !adminPassword) throw new Error("The import rows sign in as the demo admin: it was not seeded");
      const json: LoadRequest = {
        method: "POST",
        path: CREATE_LEAD,
        headers: { ...auth, "content-type": "application/json" },
        body: jsonLeadBody,
      };
      const l = options.latencyConnections;
      const result = await importBench({
        server,
        dataDir,
        rows: options.importRows,
        owner: { id: admin.id, email: adminEmail, password: adminPassword },
        createLead: json,
        run: run(l),
      });
      const rate = result.rows / result.seconds;
      const memory =
        result.rssGrowthMb === null ? "server memory not measured" : `server memory growth at most ${result.rssGrowthMb.toFixed(0)} MB`;
      console.log(`Import of ${result.rows} rows: ${result.seconds.toFixed(1)} s, ${Math.round(rate)} rows/s, ${memory}`);
      record(
        timedRow(
          "import",
          `CSV import of ${result.rows.toLocaleString("en-US")} rows (upload, then the server's import job alone, duplicates skipped): ${result.seconds.toFixed(1)} s, ${memory}; req/s = rows/s`,
          rate,
          result.seconds,
          null,
        ),
      );
      record(row(`import-idle-create-${l}`, "create_lead, JSON, before the import (idle)", l, result.idle, null));
      record(
        row(
          `import-during-create-${l}`,
          `create_lead, JSON, while an import of ${Math.ceil(result.rows / 2).toLocaleString("en-US")} rows runs${result.overlapped ? "" : " (the import ended before the row did)"}`,
          l,
          result.during,
          null,
        ),
      );
    }

    if (wants(options, "preload") && options.leads > 0) {
      const source = await resolveLeadSource(team.id);
      const loaded = await preload(
        databaseUrl,
        { teamId: team.id, sourceId: source.id, apiKeyId: key.keyId, currency: await workspaceCurrency() },
        options.leads,
      );
      console.log(`Preloaded ${loaded.inserted.toLocaleString("en-US")} leads in ${loaded.seconds.toFixed(1)} s`);
    }

    if (wants(options, "create-large")) await createRows("large");

    if (wants(options, "pages")) {
      const total = await countLeads(team.id);
      const cookie = await signIn(server.baseUrl, adminEmail, adminPassword);
      // Lead numbers are shared by every team, and the rows before this one made leads in
      // teams of their own: the detail page's lead is one of this team's, half-way through its
      // numbers (not number total ÷ 2, which another team's lead may hold).
      const numbers = await db().lead.aggregate({ where: { teamId: team.id }, _min: { seq: true }, _max: { seq: true } });
      const middle = Math.floor(((numbers._min.seq ?? 1) + (numbers._max.seq ?? 1)) / 2);
      const detail = await db().lead.findFirst({
        where: { teamId: team.id, seq: { gte: middle } },
        orderBy: { seq: "asc" },
        select: { seq: true },
      });
      const pages = {
        slug: team.slug,
        // Newest first: a small seq is near the end of the list, 99 % of the leads deep.
        deepCursor: Math.max(2, Math.floor(total / 100)),
        emailPrefix: "lead12345",
        detailId: formatLeadId(detail?.seq ?? 1),
      };
      const pageResults = await benchLeadPages(server, leadPages(pages), cookie, run(options.pageConnections));
      for (const result of pageResults) {
        if (result.status === "ok") record(row(`page-${result.page.id}`, result.page.label, options.pageConnections, result.result, total));
      }
      const missing = pageResults.filter((r) => r.status !== "ok");
      if (missing.length) throw new Error(`Lead pages missing: ${missing.map((r) => r.page.path).join(", ")}`);
      // What the pages wait for: each of their queries alone, in-process, one caller.
      // The preload stores +4479 and the seq in eight digits; a GB team reads "07900 012345" as +447900012345.
      const phoneSeq = String(Math.max(1, Math.floor(total / 3))).padStart(8, "0");
      const phoneQuery = `079${phoneSeq.slice(0, 2)} ${phoneSeq.slice(2)}`;
      const queries = leadQueries({ ...pages, teamId: team.id, phoneQuery, campaign: "campaign-7" });
      for (const query of queries) {
        const q = await measureQuery(query.run, options.duration, options.warmup);
        record(libRow(`query-${query.id}`, `${query.label} (lib query, in-process, 1 caller)`, q, total));
      }
    }

    if (wants(options, "export")) {
      const total = await countLeads(team.id);
      const run = await measureFullExport(team.id, total);
      console.log(
        `Export of ${total} leads: ${run.seconds.toFixed(1)} s, ${(run.bytes / 1024 / 1024).toFixed(0)} MB, heap growth ≤ ${run.heapGrowthMb.toFixed(1)} MB`,
      );
      record(
        timedRow(
          "export-all",
          `CSV export of all ${total.toLocaleString("en-US")} leads, streamed: ${run.seconds.toFixed(1)} s, ${(run.bytes / 1024 / 1024).toFixed(0)} MB of CSV, heap growth at most ${run.heapGrowthMb.toFixed(1)} MB (rss ${run.rssMb.toFixed(0)} MB); req/s = leads/s`,
          total / run.seconds,
          run.seconds,
          total,
        ),
      );
    }

    // Leads → Overview's aggregates over a team of their own (docs/attribution.md "Dashboard queries and their speed").
    if (wants(options, "dashboard") && options.leads > 0) {
      const dashboard = await dashboardBench({ databaseUrl, leads: options.leads, duration: options.duration, warmup: options.warmup });
      const leads = options.leads.toLocaleString("en-US");
      for (const { query, cold, result } of dashboard.results) {
        const once = { opsPerSec: cold ? 1000 / cold : 0, p50: cold, p99: cold, calls: 1, errors: Number.isNaN(cold) ? 1 : 0 };
        record(
          libRow(
            `dashboard-${query.id}-cold`,
            `Dashboard, 90 days of ${leads} leads: ${query.label}, cold (first read, every settled day recomputed; lib query, in-process)`,
            once,
            options.leads,
          ),
        );
        record(
          libRow(
            `dashboard-${query.id}`,
            `Dashboard, 90 days of ${leads} leads: ${query.label} (warm: the rollup read; lib query, in-process, 1 caller)`,
            result,
            options.leads,
          ),
        );
      }
      for (const [round, { triggers, none }] of dashboard.create.entries()) {
        const label = (what: string) => `Create a lead through the lead writer, ${what} (in-process, 1 caller, round ${round + 1})`;
        record(libRow(`dashboard-create-triggers-${round + 1}`, label("with the rollup's triggers on Lead"), triggers, options.leads));
        record(libRow(`dashboard-create-no-triggers-${round + 1}`, label("without them"), none, options.leads));
      }
    }

    // Issue 47's in-process A/Bs (scripts/bench/alternating-ab.ts): Server CPU is this process's per call.
    const abRow = (id: string, what: string, side: AbSide): Row => ({
      ...libRow(id, `${what} (in-process, 1 caller, rounds taken in turn; Server CPU = this process's per call)`, side, null),
      serverCpuMicros: side.cpuMicros,
    });
    const cpuRatio = (a: AbSide, b: AbSide) => (a.cpuMicros / b.cpuMicros).toFixed(2);
    if (wants(options, "key_cache")) {
      const { cached, uncached } = await measureKeyCache(key, options.duration, options.warmup);
      record(
        abRow(
          "auth-key-cache",
          `authenticate() of one key, the key cache on: ${cpuRatio(cached, uncached)} × the CPU per call of the cache off`,
          cached,
        ),
      );
      record(abRow("auth-no-key-cache", "authenticate() of one key, the key cache off", uncached));
    }
    if (wants(options, "suppression_lookup")) {
      const { skipped, looked } = await measureSuppressionLookup(team.id, options.duration, options.warmup);
      const what = "the intake's consent step, a submission with an email address";
      record(
        abRow(
          "consent-no-suppression-lookup",
          `${what}, the team's suppression list never used (no lookup): ${cpuRatio(skipped, looked)} × the CPU per call with the lookup`,
          skipped,
        ),
      );
      record(abRow("consent-suppression-lookup", `${what}, with the list's lookup (every such submission before)`, looked));
    }

    if (wants(options, "ping")) {
      record(
        row(
          "ping-end",
          "GET /api/ping again (drift check)",
          options.connections,
          await measure(server, { method: "GET", path: "/api/ping" }, run(options.connections)),
          null,
        ),
      );
    }
    await db().$disconnect();
  } finally {
    await server.stop();
  }

  // Issue 29: one create's CPU by stage, then the limit row's, each on a server of its own under the profiler.
  let breakdowns: Breakdowns = null;
  if (breakdownRequest) {
    const profiled = async (request: LoadRequest, label: string) => {
      const { breakdown } = await measureBreakdown({
        port: options.port,
        dataDir,
        databaseUrl,
        request,
        connections: options.connections,
        duration: options.duration,
        warmup: options.warmup,
      });
      console.log(
        `Breakdown, ${label}: ${breakdown.creates} creates, ${Math.round(breakdown.profiledMicros)} µs profiled vs ${Math.round(breakdown.mainThreadMicros)} µs main thread per create`,
      );
      return breakdown;
    };
    breakdowns = {
      breakdown: await profiled(breakdownRequest, "create_lead"),
      limit: await profiled(limitRequest(breakdownRequest), "the limit row"),
    };
  }

  const ping = rows.find((r) => r.id === "ping");
  const limit = rows.find((r) => r.id === `limit-${options.connections}`);
  for (const r of rows) {
    if (ping?.reqPerSec && r.reqPerSec !== null && r.status === "ok") r.ratio = r.reqPerSec / ping.reqPerSec;
    if (ping?.serverCpuMicros && r.serverCpuMicros) r.cpuRatio = ping.serverCpuMicros / r.serverCpuMicros;
    if (limit?.reqPerSec && r.reqPerSec !== null && r.status === "ok" && r.id.startsWith("create-"))
      r.limitRatio = r.reqPerSec / limit.reqPerSec;
  }
  return { rows, breakdowns };
}

/** A row for a lib query measured in-process by one caller (measureQuery). */
function libRow(id: string, label: string, q: QueryResult, storedLeads: number | null): Row {
  return {
    id,
    label,
    status: "lib query",
    connections: 1,
    storedLeads,
    reqPerSec: q.opsPerSec,
    p50: q.p50,
    p99: q.p99,
    errors: q.errors,
    non2xx: 0,
    ratio: null,
    serverCpuMicros: null,
    cpuRatio: null,
  };
}

/** A row for one timed run of a whole job (an export, an import): items per second, and its time in ms as p50 and p99. */
function timedRow(id: string, label: string, perSecond: number, seconds: number, storedLeads: number | null): Row {
  const ms = Math.round(seconds * 1000);
  return libRow(id, label, { opsPerSec: perSecond, p50: ms, p99: ms, calls: 1, errors: 0 }, storedLeads);
}

const isPostgres = (url: string | undefined) => /^postgres(ql)?:\/\//i.test(url ?? "");

/** A fresh, empty database on the PostgreSQL server of `url`; `drop` removes it. */
async function freshPostgresDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `lead_intake_bench_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const fresh = new URL(url);
  fresh.pathname = `/${name}`;
  return {
    url: fresh.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}

/** Runs the PostgreSQL suite in a child process (see suite()) and returns its rows and breakdown. */
async function postgresRows(url: string): Promise<{ rows: Row[]; breakdowns: Breakdowns }> {
  const database = await freshPostgresDatabase(url);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-pg-"));
  const rowsFile = path.join(dataDir, "rows.json");
  try {
    const child = spawnSync(process.execPath, ["--import", "tsx", import.meta.filename], {
      stdio: "inherit",
      env: { ...process.env, DATABASE_URL: database.url, BENCH_SUITE_DATA_DIR: dataDir, BENCH_SUITE_ROWS: rowsFile },
    });
    if (child.status !== 0) throw new Error(`The PostgreSQL suite failed (exit ${child.status ?? child.signal})`);
    const { rows, breakdowns } = JSON.parse(readFileSync(rowsFile, "utf8")) as { rows: Row[]; breakdowns: Breakdowns };
    return { rows: rows.map((r) => ({ ...r, id: `pg-${r.id}`, label: `PostgreSQL: ${r.label}` })), breakdowns };
  } finally {
    await database.drop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  const options = benchOptions();

  // The PostgreSQL child: one suite, rows to a file for the parent.
  const childRows = process.env.BENCH_SUITE_ROWS;
  if (childRows) {
    const result = await suite(options, {
      kind: "postgres",
      databaseUrl: process.env.DATABASE_URL!,
      dataDir: process.env.BENCH_SUITE_DATA_DIR!,
    });
    writeFileSync(childRows, JSON.stringify(result));
    return;
  }

  const started = performance.now();
  const machine = machineInfo();
  console.log(`Load average before: ${machine.loadAverageBefore.join(" / ")} on ${machine.cores} cores`);
  buildIfNeeded();
  const postgresUrl = isPostgres(process.env.DATABASE_URL) ? process.env.DATABASE_URL! : null;

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "bench-sqlite-"));
  const sqlite = await suite(options, { kind: "sqlite", databaseUrl: `file:${path.join(dataDir, "bench.db")}`, dataDir });
  const rows = sqlite.rows;
  const breakdowns = sqlite.breakdowns ? [{ database: "SQLite", ...sqlite.breakdowns }] : [];
  if (postgresUrl) {
    const postgres = await postgresRows(postgresUrl);
    rows.push(...postgres.rows);
    if (postgres.breakdowns) breakdowns.push({ database: "PostgreSQL", ...postgres.breakdowns });
  }

  if (wants(options, "secret")) {
    const ops = secretChecksPerSecond(options.secretSeconds);
    rows.push({
      id: "secret",
      label: "Secret check (SHA-256 + timingSafeEqual)",
      status: "ok",
      connections: null,
      storedLeads: null,
      reqPerSec: null,
      p50: null,
      p99: null,
      errors: null,
      non2xx: null,
      ratio: null,
      serverCpuMicros: null,
      cpuRatio: null,
      opsPerSec: ops,
    });
    console.log(`Secret check: ${Math.round(ops)} ops/s`);
  }

  const report = {
    machine: { ...machine, loadAverageAfter: loadAverage() },
    database: `SQLite (embedded, WAL, synchronous=NORMAL)${postgresUrl ? " and PostgreSQL (rows marked PostgreSQL; default pool)" : ""}`,
    config: configOf(options),
    rows,
    breakdowns,
    targets: evaluateTargets(rows, options),
    totalSeconds: (performance.now() - started) / 1000,
  };
  const files = writeReport(options.outDir, report);
  console.log(`\n${markdown(report)}\nWrote ${files.json} and ${files.md}`);
  if (options.readme) {
    updatePerformanceTable(path.join(import.meta.dirname, "..", "docs", "performance.md"), report, reproduceCommand(postgresUrl !== null));
    console.log("Updated docs/performance.md's table");
  }
  if (!options.profileDir) rmSync(dataDir, { recursive: true, force: true });
  else console.log(`Server profile (.cpuprofile) in ${options.profileDir}; data kept in ${dataDir}`);
}

/** The command that reproduces this run: npm run bench with the knobs that were set. */
function reproduceCommand(postgres: boolean): string {
  const knobs = Object.keys(process.env)
    .filter((name) => name.startsWith("BENCH_") && name !== "BENCH_README" && name !== "BENCH_OUT")
    .sort()
    .map((name) => `${name}=${process.env[name]}`);
  const database = postgres ? ["DATABASE_URL=postgresql://…"] : [];
  return [...database, ...knobs, "npm run bench"].join(" ");
}

function configOf(options: BenchOptions): Record<string, unknown> {
  return { ...options, only: options.only ? [...options.only] : null };
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
