import { hoursAgo } from "@/lib/time/clock";
import type { Metadata } from "next";
import Link from "next/link";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { requestActivity } from "@/lib/request-log/request-log-store";
import { listLeadSources } from "@/lib/teams/lead-sources";
import { listWebForms } from "@/lib/web-forms/web-form-store";
import { ApiIntegrationSection } from "@/components/settings/api-integration-section";
import { Badge } from "@/components/ui/badge";
import { cardClass, linkClass } from "@/components/ui/styles";
import { WebFormEditor } from "@/components/web-forms/web-form-editor";

export const metadata: Metadata = { title: "Web Forms · Lead Intake" };

const plural = (count: number, word: string) => `${count.toLocaleString("en-US")} ${word}${count === 1 ? "" : "s"}`;

export default async function WebFormsPage({ params }: { params: Promise<{ slug: string }> }) {
  const { slug } = await params;
  const { team, canManage } = await requireTeamPage(slug, `/t/${slug}/settings/web-forms`);
  const [forms, sources, activity] = await Promise.all([
    listWebForms(team.id),
    canManage ? listLeadSources(team.id) : [],
    requestActivity(team.id, hoursAgo(24), "formId"),
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
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]">
        {forms.length === 0 ? (
          <p className={`${cardClass} px-5 py-8 text-center text-sm text-slate-600`}>No web forms yet.</p>
        ) : (
          <ul className="space-y-4" aria-label="Web forms">
            {forms.map((form) => {
              const counts = activity.get(form.id);
              return (
                <li key={form.id} className={`${cardClass} p-5`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <h3 className="min-w-0 break-words text-base font-semibold text-slate-900">
                      <Link href={`/t/${team.slug}/settings/web-forms/${form.id}`} className={linkClass}>
                        {form.name}
                      </Link>
                    </h3>
                    {form.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="slate">Disabled</Badge>}
                  </div>
                  <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]">
                    <dt className="font-medium text-slate-600">Form id</dt>
                    <dd>
                      <code className="break-all font-mono text-xs text-slate-800">{form.id}</code>
                    </dd>
                    <dt className="font-medium text-slate-600">Allowed origins</dt>
                    <dd className="break-all text-slate-800">{form.allowedOrigins.join(", ")}</dd>
                    <dt className="font-medium text-slate-600">Lead source</dt>
                    <dd className="break-words text-slate-800">{form.sourceName ?? "From the form (else API)"}</dd>
                    <dt className="font-medium text-slate-600">Spam check</dt>
                    <dd className="text-slate-800">{form.challenge ? "Honeypot and proof-of-work" : "Honeypot only"}</dd>
                    <dt className="font-medium text-slate-600">Spam caught</dt>
                    <dd className="text-slate-800">{plural(form.spamCount, "submission")}</dd>
                    <dt className="font-medium text-slate-600">Last 24 hours</dt>
                    <dd className="flex flex-wrap items-center gap-x-3 gap-y-1 text-slate-800">
                      <span>{plural(counts?.requests ?? 0, "request")}</span>
                      {counts?.failures ? <Badge tone="red">{plural(counts.failures, "failure")}</Badge> : null}
                    </dd>
                  </dl>
                </li>
              );
            })}
          </ul>
        )}
        {canManage ? (
          <div>
            <h3 className="mb-3 text-base font-semibold text-slate-900">New web form</h3>
            <WebFormEditor slug={team.slug} sources={sources} />
          </div>
        ) : null}
      </div>
    </ApiIntegrationSection>
  );
}
