import type { Metadata } from "next";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { PHONE_COUNTRIES } from "@/lib/teams/phone-countries";
import { GeneralForm } from "@/components/settings/general-form";
import { RetentionForm } from "@/components/settings/retention-form";
import { SectionHeader } from "@/components/settings/section-header";
import { teamRetention } from "@/lib/teams/team-store";

export const metadata: Metadata = { title: "General · Team Settings · Lead Intake" };

export default async function GeneralPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, role } = await requireTeamPage(slug, `/t/${slug}/settings/general`);
  return (
    <section>
      <SectionHeader title="General" description="The team's name, and the country used for phone numbers sent without a country code." />
      <GeneralForm
        slug={team.slug}
        name={team.name}
        defaultPhoneCountry={team.defaultPhoneCountry ?? ""}
        countries={PHONE_COUNTRIES}
        canEdit={MANAGERS.includes(role)}
      />
      <RetentionForm slug={team.slug} retentionDays={await teamRetention(team.id)} canEdit={MANAGERS.includes(role)} />
    </section>
  );
}
