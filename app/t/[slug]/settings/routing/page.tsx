import type { Metadata } from "next";
import Link from "next/link";
import { listApiKeyLabels } from "@/lib/api-keys/api-key-list";
import { MANAGERS, requireTeamPage } from "@/lib/auth/require-team-role";
import { listConnectionLabels } from "@/lib/connections/connection-store";
import { readTeamRouting } from "@/lib/routing/assignment-rules";
import { listLeadSourceNames } from "@/lib/teams/lead-sources";
import { listMembers } from "@/lib/teams/team-store";
import { listWebFormLabels } from "@/lib/web-forms/web-form-store";
import { RoutingRules } from "@/components/routing/routing-rules";
import type { RoutingChoices } from "@/components/routing/rule-words";
import { TeamFallbackForm } from "@/components/routing/team-fallback-form";
import { TestLeadForm } from "@/components/routing/test-lead-form";
import { SectionHeader } from "@/components/settings/section-header";
import { namedChoices } from "@/components/ui/select-options";
import { cardClass, linkClass } from "@/components/ui/styles";

export const metadata: Metadata = { title: "Lead Routing · Team Settings · Lead Intake" };

const subheading = "mb-1 text-base font-semibold text-slate-900";
const subtext = "mb-4 max-w-2xl text-sm text-slate-600";

// Owners and admins only: for anyone else the page is a 404, checked here on the server.
export default async function RoutingPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team } = await requireTeamPage(slug, `/t/${slug}/settings/routing`, MANAGERS);
  const [routing, members, sources, keys, forms, connections] = await Promise.all([
    readTeamRouting(team.id),
    listMembers(team.id),
    listLeadSourceNames(team.id),
    listApiKeyLabels(team.id),
    listWebFormLabels(team.id),
    listConnectionLabels(team.id),
  ]);
  const choices: RoutingChoices = {
    members: members.map((member) => ({
      id: member.userId,
      short: member.name || member.email,
      long: member.name ? `${member.name} (${member.email})` : member.email,
    })),
    origins: {
      source: namedChoices(sources),
      web_form: namedChoices(forms),
      connection: namedChoices(connections),
      api_key: keys.map((key) => ({ value: key.keyId, label: key.description ? `${key.description} (${key.keyId})` : key.keyId })),
    },
  };
  return (
    <section>
      <SectionHeader
        title="Lead Routing"
        description={
          <>
            Every new lead, whichever way it comes, is checked against the rules below in order: the first rule that matches assigns it.
            Members who are away or outside their working hours (each sets them on their{" "}
            <Link href="/account" className={linkClass}>
              account page
            </Link>
            ) are skipped.
          </>
        }
      />
      <div className="max-w-3xl space-y-10">
        <section aria-labelledby="routing-rules-title">
          <h3 id="routing-rules-title" className={subheading}>
            Assignment rules
          </h3>
          <p className={subtext}>
            A rule matches a lead when all its conditions hold. It assigns the lead to one member, or in turn to each of several (round
            robin); when none of them is on duty, its fallback gets the lead.
          </p>
          <RoutingRules slug={team.slug} rules={routing.rules} choices={choices} />
        </section>
        <section aria-labelledby="routing-fallback-title" className={`${cardClass} p-5`}>
          <h3 id="routing-fallback-title" className={subheading}>
            Leads no rule matches
          </h3>
          <p className={subtext}>They go to this member, whether on duty or not, or stay unassigned.</p>
          <TeamFallbackForm slug={team.slug} fallbackUserId={routing.fallbackUserId} members={choices.members} />
        </section>
        <section aria-labelledby="routing-test-title" className={`${cardClass} p-5`}>
          <h3 id="routing-test-title" className={subheading}>
            Test a lead
          </h3>
          <p className={subtext}>Which rule a lead would match now, and who would get it.</p>
          <TestLeadForm slug={team.slug} origins={choices.origins} />
        </section>
      </div>
    </section>
  );
}
