import { db } from "../../lib/db/client";
import * as leadStore from "../../lib/leads/lead-store";

// Until the signed-in lead pages exist on this branch (the `ui` branch brings them),
// the benchmark measures the database work those pages do, through the app's own
// Prisma client and SQLite adapter, in this process. When lib/leads/lead-store.ts
// exports listLeads and findPossibleDuplicates (the UI's functions), those are used;
// otherwise the same Prisma queries, copied from the UI branch, stand in for them.

export type LeadQuery = { id: string; label: string; run: () => Promise<unknown> };

type ListOptions = { teamId: string; query?: string; after?: number; take?: number };
type Probe = { id: string; teamId: string; emailKey: string | null; phone: string | null; mobileNo: string | null };

const store = leadStore as unknown as {
  listLeads?: (options: ListOptions) => Promise<unknown>;
  findPossibleDuplicates?: (lead: Probe) => Promise<unknown>;
};

/** True when the UI's list functions are in lib (the rows then measure them, not stand-ins). */
export const usesUiFunctions = typeof store.listLeads === "function" && typeof store.findPossibleDuplicates === "function";

function upperBound(prefix: string): string {
  const points = Array.from(prefix);
  const last = points.pop()!.codePointAt(0)!;
  return points.join("") + String.fromCodePoint(last + 1);
}

// Stand-in for the UI's listLeads: a keyset page newest first, then the duplicate marks.
async function listLeadsStandIn(options: ListOptions): Promise<unknown> {
  const key = options.query?.trim().toLowerCase();
  const rows = await db().lead.findMany({
    where: {
      teamId: options.teamId,
      ...(key ? { emailKey: { startsWith: key, gte: key, lt: upperBound(key) } } : {}),
      ...(options.after !== undefined ? { seq: { lt: options.after } } : {}),
    },
    orderBy: { seq: "desc" },
    take: (options.take ?? 25) + 1,
    select: {
      id: true,
      seq: true,
      firstName: true,
      lastName: true,
      email: true,
      emailKey: true,
      phone: true,
      mobileNo: true,
      organization: true,
      createdAt: true,
      source: { select: { name: true } },
    },
  });
  const emails = [...new Set(rows.flatMap((r) => (r.emailKey ? [r.emailKey] : [])))];
  const numbers = [...new Set(rows.flatMap((r) => [r.phone, r.mobileNo].filter((n): n is string => !!n)))];
  const teamId = options.teamId;
  await Promise.all([
    emails.length ? db().lead.groupBy({ by: ["emailKey"], where: { teamId, emailKey: { in: emails } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["phone"], where: { teamId, phone: { in: numbers } }, _count: { _all: true } }) : [],
    numbers.length ? db().lead.groupBy({ by: ["mobileNo"], where: { teamId, mobileNo: { in: numbers } }, _count: { _all: true } }) : [],
  ]);
  return rows;
}

// Stand-in for the UI's findPossibleDuplicates.
async function duplicatesStandIn(lead: Probe): Promise<unknown> {
  const numbers = [lead.phone, lead.mobileNo].filter((n): n is string => !!n);
  const match = [
    ...(lead.emailKey ? [{ emailKey: lead.emailKey }] : []),
    ...(numbers.length ? [{ phone: { in: numbers } }, { mobileNo: { in: numbers } }] : []),
  ];
  if (!match.length) return [];
  return db().lead.findMany({
    where: { teamId: lead.teamId, id: { not: lead.id }, OR: match },
    orderBy: { seq: "desc" },
    take: 50,
    select: { id: true, firstName: true, lastName: true, email: true, emailKey: true, phone: true, mobileNo: true, createdAt: true },
  });
}

const listLeads = store.listLeads ?? listLeadsStandIn;
const findPossibleDuplicates = store.findPossibleDuplicates ?? duplicatesStandIn;

/** The database work of the list page (first, deep, email-prefix search), its total count, and the detail page. */
export function leadQueries(options: { teamId: string; deepCursor: number; emailPrefix: string; detailId: string }): LeadQuery[] {
  const { teamId } = options;
  return [
    { id: "list-first", label: "Lead list, first page", run: () => listLeads({ teamId }) },
    { id: "list-deep", label: `Lead list, deep cursor page (after seq ${options.deepCursor})`, run: () => listLeads({ teamId, after: options.deepCursor }) },
    { id: "list-search", label: `Lead list, email prefix search "${options.emailPrefix}"`, run: () => listLeads({ teamId, query: options.emailPrefix }) },
    { id: "list-count", label: "Lead list, the team's lead total (countLeads)", run: () => leadStore.countLeads(teamId) },
    {
      id: "detail",
      label: "Lead detail with possible duplicates",
      run: async () => {
        const lead = await leadStore.findLead({ id: options.detailId, teamId });
        if (!lead) throw new Error(`Lead ${options.detailId} not found`);
        return findPossibleDuplicates(lead);
      },
    },
  ];
}

export type QueryResult = { opsPerSec: number; p50: number; p99: number; calls: number; errors: number };

/** Calls `run` back to back (one caller) for `seconds` after a short warm-up; latency percentiles in ms. */
export async function measureQuery(run: () => Promise<unknown>, seconds: number, warmupSeconds: number): Promise<QueryResult> {
  const warmEnd = performance.now() + warmupSeconds * 1000;
  do await run();
  while (performance.now() < warmEnd);
  const times: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  while (performance.now() < end) {
    const t = performance.now();
    try {
      await run();
      times.push(performance.now() - t);
    } catch {
      errors++;
    }
  }
  const elapsed = (performance.now() - start) / 1000;
  times.sort((a, b) => a - b);
  const pct = (p: number) => (times.length ? Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 10) / 10 : NaN);
  return { opsPerSec: times.length / elapsed, p50: pct(50), p99: pct(99), calls: times.length, errors };
}
