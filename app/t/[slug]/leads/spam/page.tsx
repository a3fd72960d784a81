import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { countQuarantine, listQuarantine } from "@/lib/spam/quarantine-store";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { QuarantineTable } from "@/components/spam/quarantine-table";

export const metadata: Metadata = { title: "Spam · Leads · Lead Intake" };

/** The count stops here ("10,000+"): cheap at any size. */
const COUNT_CAP = 10_000;
/** The newest submissions the page shows. */
const SHOWN = 100;

export default async function SpamPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/leads/spam`);
  const [items, count] = await Promise.all([listQuarantine({ teamId: team.id, take: SHOWN }), countQuarantine(team.id, COUNT_CAP)]);
  return (
    <div>
      <Breadcrumb href={`/t/${team.slug}/leads`}>← Leads</Breadcrumb>
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Spam</h1>
      <p className="mt-1 mb-6 max-w-3xl text-sm text-slate-600">
        Submissions the spam checks set aside: each was answered as a kept lead is, so its sender learns nothing, and none of them is in the
        lead list, assigned, emailed or sent to webhooks. &ldquo;Not spam&rdquo; (owners and admins) moves one into the list as if it had
        just arrived: the assignment rules, its new-lead emails and webhooks then.{" "}
        {count > items.length
          ? `${count.toLocaleString("en-US")}${count >= COUNT_CAP ? "+" : ""} in all; the newest ${items.length} are shown.`
          : `${count === 1 ? "1 submission" : `${count.toLocaleString("en-US")} submissions`}, newest first.`}
      </p>
      <QuarantineTable slug={team.slug} items={items} canRelease={canManage} />
    </div>
  );
}
