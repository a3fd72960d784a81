import { db, type Tx } from "../db/client";
import { findJsonRowsNaming, type PersonContacts } from "./person-match";
import { firstSubmissionId, type SubmissionChannel } from "./lead-write";

// A lead's submissions as its page lists them (docs/leads.md "Submissions"). They are written
// by the lead writer (lead-writer.ts) with the lead or an import's fill, moved by a merge
// (lead-merge-store.ts) and deleted with their lead (the foreign key cascades).

/** The most submissions a lead's page lists (the newest); it says how many there are in all. */
export const SUBMISSIONS_SHOWN = 50;

export type LeadSubmissionItem = {
  id: string;
  channel: SubmissionChannel;
  apiKeyId: string | null;
  formId: string | null;
  connectionId: string | null;
  importId: string | null;
  createdAt: Date;
};

const CHANNELS: readonly string[] = ["api", "form", "connection", "import"] satisfies SubmissionChannel[];

/**
 * The lead's submissions, newest first (the (leadId, createdAt) index), at most `take`, and
 * how many it has. Of submissions at the same instant (an import's batch) the lead's own
 * first one is listed last, as it came first. The team is in the query: another team's lead
 * has none here.
 */
export async function findLeadSubmissions(options: {
  teamId: string;
  leadId: string;
  take?: number;
}): Promise<{ count: number; newest: LeadSubmissionItem[] }> {
  const where = { leadId: options.leadId, teamId: options.teamId };
  const [count, rows] = await Promise.all([
    db().leadSubmission.count({ where }),
    db().leadSubmission.findMany({
      where,
      orderBy: { createdAt: "desc" },
      take: options.take ?? SUBMISSIONS_SHOWN,
      select: { id: true, channel: true, apiKeyId: true, formId: true, connectionId: true, importId: true, createdAt: true },
    }),
  ]);
  const first = firstSubmissionId(options.leadId);
  const newest = rows
    .map((row) => ({ ...row, channel: (CHANNELS.includes(row.channel) ? row.channel : "api") as SubmissionChannel }))
    .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || Number(a.id === first) - Number(b.id === first));
  return { count, newest };
}

/**
 * The submissions of each of these leads (the export's batch, the list's page), one grouped
 * read of the (leadId, teamId, createdAt) index: a relation count in the walk's own select would be a
 * subquery per lead. A lead with none (or not found) is absent from the map.
 */
export async function submissionCounts(leadIds: readonly string[]): Promise<Map<string, number>> {
  const groups = await db().leadSubmission.groupBy({ by: ["leadId"], where: { leadId: { in: [...leadIds] } }, _count: { _all: true } });
  return new Map(groups.map((group) => [group.leadId, group._count._all]));
}

/** Ids per DELETE. */
const IDS_PER_STATEMENT = 500;

/**
 * The ids of the team's submissions whose fields name the person (an email or a number of
 * theirs, as a person types it), other than those of `exceptLeadIds` (the leads being erased:
 * theirs go with them). A person's repeat joined by a number to a lead under another email,
 * or a merge, leaves their submission on a lead an erasure keeps. A scan of the team's
 * submissions' text (findJsonRowsNaming: LIKE, no index), confirmed value by value: an erasure is rare.
 */
export async function findSubmissionsNaming(
  client: Tx,
  options: { teamId: string; contacts: PersonContacts; exceptLeadIds?: readonly string[] },
): Promise<string[]> {
  const except = new Set(options.exceptLeadIds ?? []);
  const rows = await findJsonRowsNaming(client, { table: "LeadSubmission", json: "fields", owner: "leadId", ...options });
  return rows.filter((row) => !except.has(row.owner!)).map((row) => row.id);
}

/** Deletes the team's submissions naming the person (findSubmissionsNaming) inside `tx`; answers how many. */
export async function eraseSubmissionsNaming(
  tx: Tx,
  options: { teamId: string; contacts: PersonContacts; exceptLeadIds?: readonly string[] },
): Promise<number> {
  const ids = await findSubmissionsNaming(tx, options);
  let erased = 0;
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) {
    erased += (await tx.leadSubmission.deleteMany({ where: { id: { in: ids.slice(i, i + IDS_PER_STATEMENT) } } })).count;
  }
  return erased;
}
