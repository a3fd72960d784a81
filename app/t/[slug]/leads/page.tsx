import type { Metadata } from "next";
import Link from "next/link";
import { listApiKeyLabels } from "@/lib/api-keys/api-key-list";
import { listLeadSourceNames } from "@/lib/teams/lead-sources";
import { listMembers } from "@/lib/teams/team-store";
import { listWebFormLabels } from "@/lib/web-forms/web-form-store";
import { listConnectionLabels } from "@/lib/connections/connection-store";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { filterParams, listQueryString, narrows, parseListPosition, resolveOwner } from "@/lib/leads/lead-filter";
import { countMatchingLeads, listLeads } from "@/lib/leads/lead-list-store";
import { countLeadsByStatus } from "@/lib/leads/lead-status-counts";
import { speedToLead } from "@/lib/leads/speed-to-lead";
import { countQuarantine } from "@/lib/spam/quarantine-store";
import { now } from "@/lib/time/clock";
import { LeadSearch } from "@/components/leads/lead-search";
import { LeadViews } from "@/components/leads/lead-views";
import { StatusViews } from "@/components/leads/status-views";
import { SpeedToLeadCard } from "@/components/leads/speed-to-lead";
import { LeadTable } from "@/components/leads/lead-table";
import { Pagination } from "@/components/leads/pagination";
import { buttonClass, linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Leads · Lead Intake" };

// The heading's and the status views' counts stop here ("10,000+ leads"): cheap at any team size.
const COUNT_CAP = 10_000;

type Search = Record<string, string | string[] | undefined>;

const leadCount = (n: { count: number; capped: boolean }) =>
  n.count === 1 && !n.capped ? "1 lead" : `${n.count.toLocaleString("en-US")}${n.capped ? "+" : ""} leads`;

export default async function LeadsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Search> }) {
  const { slug } = await params;
  const { team, user, canManage } = await requireTeamPage(slug, `/t/${slug}/leads`);
  const position = parseListPosition(await searchParams);
  const { filter } = position;
  // Owner "me" is the signed-in user, read from the session; the URL keeps "me".
  const query = resolveOwner(filter, user.id);
  const at = now();
  const [page, total, byStatus, speed, sources, keys, forms, connections, members, spam] = await Promise.all([
    listLeads({ team, filter: query, after: position.after, before: position.before }),
    countMatchingLeads(team, query, COUNT_CAP),
    countLeadsByStatus(team, query, COUNT_CAP),
    speedToLead(team.id, at),
    listLeadSourceNames(team.id),
    listApiKeyLabels(team.id),
    listWebFormLabels(team.id),
    listConnectionLabels(team.id),
    listMembers(team.id),
    countQuarantine(team.id, COUNT_CAP),
  ]);
  const base = `/t/${team.slug}/leads`;
  const withFilter = (extra: Record<string, string>) => `${base}?${new URLSearchParams({ ...filterParams(filter), ...extra })}`;
  const narrowed = narrows(filter);
  const oldestFirst = filter.sort === "oldest";
  const sortLabel = oldestFirst ? "oldest first" : "newest first";
  const exportQuery = new URLSearchParams(filterParams(filter)).toString();

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Leads</h1>
          <p className="mt-1 text-sm text-slate-600">
            {narrowed
              ? `${leadCount(total)} ${total.count === 1 && !total.capped ? "matches" : "match"}`
              : `${leadCount(total)} in ${team.name}`}
            , {sortLabel}.
            {narrowed ? (
              <>
                {" "}
                <Link href={base} className={linkClass}>
                  Clear search and filters
                </Link>
              </>
            ) : null}
          </p>
        </div>
        <LeadSearch action={base} filter={filter} choices={{ sources, keys, forms, connections, members }} />
      </div>
      <div className="mb-4">
        <SpeedToLeadCard figures={speed} members={members} />
      </div>
      <div className="mb-4 space-y-2">
        <LeadViews base={base} filter={filter} />
        <StatusViews base={base} filter={filter} counts={byStatus} />
      </div>
      <div className="mb-4 flex flex-wrap gap-2">
        <Link href={`${base}/overview`} className={buttonClass("secondary", "sm")}>
          Overview
        </Link>
        <Link href={`${base}/spam`} className={buttonClass("secondary", "sm")}>
          Spam ({spam.toLocaleString("en-US")}
          {spam >= COUNT_CAP ? "+" : ""})
        </Link>
        {canManage ? (
          <>
            {/* A plain link: the browser downloads the streamed file itself. */}
            <a href={`${base}/export${exportQuery ? `?${exportQuery}` : ""}`} download className={buttonClass("secondary", "sm")}>
              Export CSV
            </a>
            <Link href={`${base}/import`} className={buttonClass("secondary", "sm")}>
              Import CSV
            </Link>
            <Link href={`${base}/erase`} className={buttonClass("secondary", "sm")}>
              Erase a person
            </Link>
          </>
        ) : null}
      </div>
      {page.leads.length ? (
        <>
          <LeadTable
            // A new page or filter starts with nothing selected.
            key={listQueryString(position)}
            slug={team.slug}
            leads={page.leads}
            listQuery={listQueryString(position)}
            sortLabel={sortLabel}
            manage={canManage ? { ...total, narrowed, members: members.map((m) => ({ value: m.userId, label: m.name || m.email })) } : null}
            now={at}
          />
          <Pagination
            previous={page.newerCursor !== null ? withFilter({ before: String(page.newerCursor) }) : null}
            next={page.olderCursor !== null ? withFilter({ after: String(page.olderCursor) }) : null}
            oldestFirst={oldestFirst}
          />
        </>
      ) : (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <h2 className="text-sm font-semibold text-slate-900">{narrowed ? "No leads match your search" : "No leads yet"}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {narrowed ? (
              <Link href={base} className={linkClass}>
                Show all leads
              </Link>
            ) : (
              <>
                Leads arrive through the API.{" "}
                <Link href={`/t/${team.slug}/settings/api-keys`} className={linkClass}>
                  Set up an API key
                </Link>
              </>
            )}
          </p>
        </div>
      )}
    </div>
  );
}
