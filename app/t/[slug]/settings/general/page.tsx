import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { readNewLeadReminder } from "@/lib/notifications/new-lead-reminder-store";
import { emailConfigured } from "@/lib/notifications/new-lead-email";
import { PHONE_COUNTRIES } from "@/lib/teams/phone-countries";
import { GeneralForm } from "@/components/settings/general-form";
import { NewLeadReminderForm, NotificationsForm } from "@/components/settings/notifications-form";
import { RetentionForm } from "@/components/settings/retention-form";
import { SectionHeader } from "@/components/settings/section-header";
import { assignmentEmailsEnabled, newLeadEmailsEnabled, teamRepeatWindow, teamRetention } from "@/lib/teams/team-store";

export const metadata: Metadata = { title: "General · Team Settings · Lead Intake" };

export default async function GeneralPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, user, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/general`);
  const member = { userId: user.id, teamId: team.id };
  const [newLeads, assignments, reminder, repeatWindowDays] = await Promise.all([
    newLeadEmailsEnabled(member),
    assignmentEmailsEnabled(member),
    readNewLeadReminder(team.id),
    teamRepeatWindow(team.id),
  ]);
  return (
    <section>
      <SectionHeader
        title="General"
        description="The team's name, the country used for phone numbers sent without a country code, and how long a lead takes a person's repeat submissions."
      />
      <GeneralForm
        slug={team.slug}
        name={team.name}
        defaultPhoneCountry={team.defaultPhoneCountry ?? ""}
        countries={PHONE_COUNTRIES}
        repeatWindowDays={repeatWindowDays}
        canEdit={canManage}
      />
      <section aria-labelledby="notifications-title" className="mt-10">
        <h3 id="notifications-title" className="mb-1 text-base font-semibold text-slate-900">
          Notifications
        </h3>
        <p className="mb-4 text-sm text-slate-600">Your own choices for this team; other members choose for themselves.</p>
        <NotificationsForm slug={team.slug} newLeads={newLeads} assignments={assignments} configured={emailConfigured()} />
        <NewLeadReminderForm slug={team.slug} minutes={reminder} canEdit={canManage} />
      </section>
      <RetentionForm slug={team.slug} retentionDays={await teamRetention(team.id)} canEdit={canManage} />
    </section>
  );
}
