import { EMPTY_FILTER } from "../../lib/leads/lead-filter";
import { CLI_ACTOR } from "../../lib/audit/audit-log";
import { exportLeadsCsv } from "../../lib/leads/export-leads";
import { findPossibleDuplicates } from "../../lib/leads/duplicate-store";
import { countMatchingLeads, listLeads } from "../../lib/leads/lead-list-store";
import { countLeadsUpTo, findLead } from "../../lib/leads/lead-store";

// The database work behind the signed-in lead pages, measured apart from the HTTP page
// rows: the app's own lib functions through its Prisma client and SQLite adapter, one
// caller, in this process. It shows which query a slow page is waiting for.

export type LeadQuery = { id: string; label: string; run: () => Promise<unknown> };

/** The database work of the list page (first, deep, email-prefix search), its total count, and the detail page. */
export function leadQueries(options: {
  teamId: string;
  deepCursor: number;
  emailPrefix: string;
  detailId: string;
  /** A stored lead's phone as a person types it in the team's country ("07900 012345"). */
  phoneQuery: string;
  campaign: string;
}): LeadQuery[] {
  const { teamId } = options;
  const team = { id: teamId, defaultPhoneCountry: "GB" };
  const search = (query: string) => ({ ...EMPTY_FILTER, query });
  return [
    { id: "list-first", label: "Lead list, first page", run: () => listLeads({ team }) },
    {
      id: "list-deep",
      label: `Lead list, deep cursor page (after seq ${options.deepCursor})`,
      run: () => listLeads({ team, after: options.deepCursor }),
    },
    {
      id: "list-search",
      label: `Lead list, email prefix search "${options.emailPrefix}"`,
      run: () => listLeads({ team, filter: search(options.emailPrefix) }),
    },
    {
      id: "list-filter",
      label: `Lead list, first page filtered by UTM campaign "${options.campaign}" (index-backed)`,
      run: () => listLeads({ team, filter: { ...EMPTY_FILTER, utmCampaign: options.campaign } }),
    },
    {
      id: "list-filter-count",
      label: `Lead list, matches of UTM campaign "${options.campaign}" up to 10,000 (the heading)`,
      run: () => countMatchingLeads(team, { ...EMPTY_FILTER, utmCampaign: options.campaign }, 10_000),
    },
    {
      id: "list-phone",
      label: `Lead list, phone search "${options.phoneQuery}" (normalised like the intake)`,
      run: () => listLeads({ team, filter: search(options.phoneQuery) }),
    },
    {
      id: "export-campaign",
      label: `CSV export of UTM campaign "${options.campaign}" (every matching lead, streamed)`,
      run: () => drain(exportLeadsCsv({ team, filter: { ...EMPTY_FILTER, utmCampaign: options.campaign }, actor: CLI_ACTOR })),
    },
    {
      id: "list-count",
      label: "Lead list, the team's lead total up to 10,000 (countLeadsUpTo)",
      run: () => countLeadsUpTo(teamId, 10_000),
    },
    {
      id: "detail",
      label: "Lead detail with possible duplicates",
      run: async () => {
        const lead = await findLead({ id: options.detailId, teamId });
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
  const pct = (p: number) =>
    times.length ? Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 10) / 10 : NaN;
  return { opsPerSec: times.length / elapsed, p50: pct(50), p99: pct(99), calls: times.length, errors };
}

/** Reads a stream to its end; returns its size in bytes and the largest heap growth seen while reading. */
export async function drain(stream: Promise<ReadableStream<Uint8Array>>): Promise<{ bytes: number; heapGrowth: number }> {
  const reader = (await stream).getReader();
  const baseline = process.memoryUsage().heapUsed;
  let bytes = 0;
  let heapGrowth = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { bytes, heapGrowth };
    bytes += value.byteLength;
    heapGrowth = Math.max(heapGrowth, process.memoryUsage().heapUsed - baseline);
  }
}

/** The whole team's CSV export once: leads per second and the heap growth while streaming (constant memory check). */
export async function measureFullExport(
  teamId: string,
  leads: number,
): Promise<{ seconds: number; bytes: number; heapGrowthMb: number; rssMb: number }> {
  const started = performance.now();
  const team = { id: teamId, defaultPhoneCountry: "GB" };
  const { bytes, heapGrowth } = await drain(exportLeadsCsv({ team, filter: EMPTY_FILTER, actor: CLI_ACTOR }));
  const seconds = (performance.now() - started) / 1000;
  void leads;
  return { seconds, bytes, heapGrowthMb: heapGrowth / 1024 / 1024, rssMb: process.memoryUsage().rss / 1024 / 1024 };
}
