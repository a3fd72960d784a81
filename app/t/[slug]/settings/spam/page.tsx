import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { SPAM_LIST_KINDS, SPAM_LIST_LABELS } from "@/lib/spam/spam-list-entries";
import { listSpamListEntries } from "@/lib/spam/spam-list-store";
import { readSpamSettings } from "@/lib/spam/spam-settings";
import { SectionHeader } from "@/components/settings/section-header";
import { SpamListCard } from "@/components/settings/spam-list-card";
import { SpamSettingsForm } from "@/components/settings/spam-settings-form";

export const metadata: Metadata = { title: "Spam · Team Settings · Lead Intake" };

/** Settings → Spam (docs/spam.md "Settings"): every member sees it; owners and admins change it. */
export default async function SpamSettingsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/spam`);
  const [settings, entries] = await Promise.all([readSpamSettings(team.id), listSpamListEntries(team.id)]);
  return (
    <section>
      <SectionHeader
        title="Spam"
        description="Submissions that reach the threshold go to Leads → Spam and are answered as a kept lead. Web forms and connections run these checks; an API key only when turned on."
      />
      <SpamSettingsForm slug={team.slug} settings={settings} canEdit={canManage} />
      <section aria-labelledby="spam-lists-title" className="mt-10">
        <h3 id="spam-lists-title" className="mb-1 text-base font-semibold text-slate-900">
          Lists
        </h3>
        <p className="mb-4 max-w-2xl text-sm text-slate-600">
          A blocked word, domain, address or IP range scores 10 points. An allowed address or domain is never spam, whatever else it scores.
        </p>
        <div className="grid gap-4 xl:grid-cols-2">
          {SPAM_LIST_KINDS.map((list) => (
            <SpamListCard
              key={list}
              slug={team.slug}
              list={list}
              {...SPAM_LIST_LABELS[list]}
              entries={entries.filter((entry) => entry.list === list).map(({ id, value }) => ({ id, value }))}
              canEdit={canManage}
            />
          ))}
        </div>
      </section>
    </section>
  );
}
