import { EMPTY_FILTER } from "../../lib/leads/lead-filter";
import { countLeadsUpTo, findLead, findPossibleDuplicates, listLeads } from "../../lib/leads/lead-store";

// The database work behind the signed-in lead pages, measured apart from the HTTP page
// rows: the app's own lib functions through its Prisma client and SQLite adapter, one
// caller, in this process. It shows which query a slow page is waiting for.

export type LeadQuery = { id: string; label: string; run: () => Promise<unknown> };

/** The database work of the list page (first, deep, email-prefix search), its total count, and the detail page. */
export function leadQueries(options: { teamId: string; deepCursor: number; emailPrefix: string; detailId: string }): LeadQuery[] {
  const { teamId } = options;
  const team = { id: teamId, defaultPhoneCountry: null };
  const search = (query: string) => ({ ...EMPTY_FILTER, query });
  return [
    { id: "list-first", label: "Lead list, first page", run: () => listLeads({ team }) },
    { id: "list-deep", label: `Lead list, deep cursor page (after seq ${options.deepCursor})`, run: () => listLeads({ team, after: options.deepCursor }) },
    { id: "list-search", label: `Lead list, email prefix search "${options.emailPrefix}"`, run: () => listLeads({ team, filter: search(options.emailPrefix) }) },
    { id: "list-count", label: "Lead list, the team's lead total up to 10,000 (countLeadsUpTo)", run: () => countLeadsUpTo(teamId, 10_000) },
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
  const pct = (p: number) => (times.length ? Math.round(times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! * 10) / 10 : NaN);
  return { opsPerSec: times.length / elapsed, p50: pct(50), p99: pct(99), calls: times.length, errors };
}
