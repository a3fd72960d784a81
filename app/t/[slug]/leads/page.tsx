import type { Metadata } from "next";
import Link from "next/link";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { countLeadsUpTo, listLeads } from "@/lib/leads/lead-store";
import { LeadSearch } from "@/components/leads/lead-search";
import { LeadTable } from "@/components/leads/lead-table";
import { Pagination } from "@/components/leads/pagination";
import { linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Leads · Lead Intake" };

// The header's total stops counting here ("10,000+ leads"): cheap at any team size.
const TOTAL_CAP = 10_000;

type Search = { q?: string; after?: string; before?: string };

function cursor(value: string | undefined): number | undefined {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export default async function LeadsPage({ params, searchParams }: { params: Promise<{ slug: string }>; searchParams: Promise<Search> }) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/leads`);
  const search = await searchParams;
  const query = typeof search.q === "string" ? search.q.trim().slice(0, 100) : "";
  const [page, total] = await Promise.all([
    listLeads({ teamId: team.id, query, after: cursor(search.after), before: cursor(search.before) }),
    countLeadsUpTo(team.id, TOTAL_CAP),
  ]);
  const base = `/t/${team.slug}/leads`;
  const withQuery = (extra: Record<string, string>) => `${base}?${new URLSearchParams({ ...(query ? { q: query } : {}), ...extra })}`;

  return (
    <div>
      <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Leads</h1>
          <p className="mt-1 text-sm text-slate-600">
            {total.count === 1 && !total.capped ? "1 lead" : `${total.count.toLocaleString("en-US")}${total.capped ? "+" : ""} leads`} in{" "}
            {team.name}, newest first.
          </p>
        </div>
        <LeadSearch action={base} query={query} />
      </div>
      {page.leads.length ? (
        <>
          <LeadTable slug={team.slug} leads={page.leads} />
          <Pagination
            newer={page.newerCursor !== null ? withQuery({ before: String(page.newerCursor) }) : null}
            older={page.olderCursor !== null ? withQuery({ after: String(page.olderCursor) }) : null}
          />
        </>
      ) : (
        <div className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
          <h2 className="text-sm font-semibold text-slate-900">{query ? "No leads match your search" : "No leads yet"}</h2>
          <p className="mt-1 text-sm text-slate-600">
            {query ? (
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
