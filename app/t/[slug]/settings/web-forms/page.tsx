import { hoursAgo } from "@/lib/time/clock";
import type { Metadata } from "next";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { requestActivity, type RequestActivity } from "@/lib/request-log/request-log-store";
import { recentSpamCounts } from "@/lib/spam/quarantine-store";
import { listLeadSources } from "@/lib/teams/lead-sources";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { listWebForms, type WebFormView } from "@/lib/web-forms/web-form-store";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";
import { IntegrationCards, type IntegrationCard } from "@/components/settings/integration-cards";
import { WebFormEditor } from "@/components/web-forms/web-form-editor";

export const metadata: Metadata = { title: "Web Forms · Lead Intake" };

const plural = (count: number, word: string) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

/** A form's card: its id, origins, source and spam check, the spam it caught, its requests and quarantined submissions of the last 24 hours. */
const formCard = (slug: string, form: WebFormView, counts: RequestActivity | undefined, spam: number | undefined): IntegrationCard => ({
  id: form.id,
  href: `/t/${slug}/settings/web-forms/${form.id}`,
  name: form.name,
  enabled: form.enabled,
  facts: [
    { term: "Form id", code: form.id },
    { term: "Allowed origins", text: form.allowedOrigins.join(", "), wrap: "break-all" },
    { term: "Lead source", text: form.sourceName ?? "From the form (else API)", wrap: "break-words" },
    { term: "Spam check", text: form.challenge ? "Honeypot and proof-of-work" : "Honeypot only" },
    { term: "Spam caught", text: plural(form.spamCount, "submission") },
  ],
  activity: {
    total: plural(counts?.requests ?? 0, "request"),
    alert: counts?.failures ? { tone: "red", text: plural(counts.failures, "failure") } : null,
  },
  spam: { slug, count: spam },
});

export default async function WebFormsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/web-forms`);
  const [forms, sources, activity, windowDays, spam] = await Promise.all([
    listWebForms(team.id),
    canManage ? listLeadSources(team.id) : [],
    requestActivity(team.id, hoursAgo(24), "formId"),
    teamRepeatWindow(team.id),
    recentSpamCounts(team.id, "formId"),
  ]);

  return (
    <ApiIntegrationSection
      slug={team.slug}
      title="Web Forms"
      description={
        canManage
          ? "A web form lets a static website's HTML form send leads straight to this team, without a secret: only its allowed origins may post, and a honeypot and a proof-of-work check stop spam."
          : "A web form lets a static website's HTML form send leads straight to this team. Only owners and admins can create or change forms."
      }
    >
      <IntegrationCards
        label="Web forms"
        empty="No web forms yet."
        states={["Enabled", "Disabled"]}
        cards={forms.map((form) => formCard(team.slug, form, activity.get(form.id), spam.get(form.id)))}
        aside={
          canManage
            ? { title: "New web form", content: <WebFormEditor slug={team.slug} sources={sources} windowDays={windowDays} /> }
            : null
        }
      />
    </ApiIntegrationSection>
  );
}
