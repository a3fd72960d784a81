import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { countQuarantine, listQuarantine } from "@/lib/spam/quarantine-store";
import { readSpamSettings } from "@/lib/spam/spam-settings";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { EmptySpamButton } from "@/components/spam/empty-spam-button";
import { QuarantineTable } from "@/components/spam/quarantine-table";
import { SpamSearch } from "@/components/spam/spam-search";

export const metadata: Metadata = { title: "Spam · Leads · Lead Intake" };

/** The count stops here ("10,000+"): cheap at any size. */
const COUNT_CAP = 10_000;
/** The newest submissions the page shows. */
const SHOWN = 100;

const submissions = (count: number) =>
  `${count.toLocaleString("en-US")}${count >= COUNT_CAP ? "+" : ""} ${count === 1 ? "submission" : "submissions"}`;

export default async function SpamPage({
  params,
  searchParams,
}: {
  params: Promise<{ slug: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { slug } = await params;
  const q = (await searchParams).q;
  const query = (typeof q === "string" ? q : "").trim().slice(0, 100);
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/leads/spam`);
  const [items, count, total, settings] = await Promise.all([
    listQuarantine({ teamId: team.id, take: SHOWN, query }),
    countQuarantine(team.id, COUNT_CAP, query),
    query ? countQuarantine(team.id, COUNT_CAP) : null,
    readSpamSettings(team.id),
  ]);
  const all = total ?? count;
  return (
    <div>
      <Breadcrumb href={`/t/${team.slug}/leads`}>← Leads</Breadcrumb>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Spam</h1>
        {canManage && all > 0 ? <EmptySpamButton slug={team.slug} count={submissions(all)} /> : null}
      </div>
      <p className="mt-1 mb-6 max-w-3xl text-sm text-slate-600">
        Submissions the spam checks set aside, and leads reported as spam: each was answered as a kept lead is, so its sender learns
        nothing, and none of them is in the lead list, assigned, emailed or sent to webhooks. &ldquo;Not spam&rdquo; (owners and admins)
        moves one into the list as if it had just arrived (the assignment rules, its new-lead emails and webhooks then) and puts its
        sender&rsquo;s address on the team&rsquo;s allow list. They are deleted automatically {settings.retentionDays}{" "}
        {settings.retentionDays === 1 ? "day" : "days"} after they arrive (Settings → Spam).{" "}
        {query
          ? `${submissions(count)} ${count === 1 ? "matches" : "match"} “${query}”${count > items.length ? `; the newest ${items.length} are shown` : ""}.`
          : count > items.length
            ? `${submissions(count)} in all; the newest ${items.length} are shown.`
            : `${submissions(count)}, newest first.`}
      </p>
      <SpamSearch action={`/t/${team.slug}/leads/spam`} query={query} />
      <QuarantineTable
        slug={team.slug}
        items={items}
        canRelease={canManage}
        emptyText={query ? "No submission in the quarantine matches your search." : "The quarantine is empty."}
      />
    </div>
  );
}
