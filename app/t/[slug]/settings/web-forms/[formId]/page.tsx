import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireTeamPage } from "@/lib/auth/require-team-role";
import { publicBaseUrl } from "@/lib/http/public-url";
import { listRequests } from "@/lib/request-log/request-log-store";
import { listLeadSources } from "@/lib/teams/lead-sources";
import { teamRepeatWindow } from "@/lib/teams/team-store";
import { findWebForm } from "@/lib/web-forms/web-form-store";
import { findFormConsent, listFormConsentVersions } from "@/lib/consent/consent-version-store";
import { ConsentEditor, ConsentVersions } from "@/components/web-forms/consent-editor";
import { Breadcrumb } from "@/components/layout/breadcrumb";
import { RequestLog, requestLogCursor } from "@/components/request-log/request-log-table";
import { RepeatsForm } from "@/components/settings/repeats-choice";
import { SectionHeader } from "@/components/settings/section-header";
import { SpamChecksForm } from "@/components/settings/spam-checks-choice";
import { Badge } from "@/components/ui/badge";
import { cardClass, linkClass } from "@/components/ui/styles";
import { FormSnippets } from "@/components/web-forms/form-snippets";
import { WebFormActions } from "@/components/web-forms/web-form-actions";
import { WebFormEditor } from "@/components/web-forms/web-form-editor";

export const metadata: Metadata = { title: "Web form · Lead Intake" };

export default async function WebFormPage(props: {
  params: Promise<{ slug: string; formId: string }>;
  searchParams: Promise<{ before?: string | string[] }>;
}) {
  const { slug, formId } = await props.params;
  const base = `/t/${slug}/settings/web-forms/${formId}`;
  const { team, canManage } = await requireTeamPage(slug, base);
  // Tenant ownership is in the query: another team's form is simply not found.
  const form = await findWebForm({ teamId: team.id, formId });
  if (!form) notFound();
  const cursor = requestLogCursor((await props.searchParams).before);
  const [sources, baseUrl, log, windowDays, consent, consentVersions] = await Promise.all([
    canManage ? listLeadSources(team.id) : [],
    publicBaseUrl(),
    listRequests({ teamId: team.id, of: { formId: form.id }, before: cursor }),
    teamRepeatWindow(team.id),
    findFormConsent({ teamId: team.id, formId: form.id }),
    listFormConsentVersions({ teamId: team.id, formId: form.id }),
  ]);

  return (
    <section>
      <Breadcrumb href={`/t/${team.slug}/settings/web-forms`}>← Web Forms</Breadcrumb>
      <SectionHeader
        title={form.name}
        description={
          <span className="flex flex-wrap items-center gap-2">
            {form.enabled ? <Badge tone="green">Enabled</Badge> : <Badge tone="slate">Disabled</Badge>}
            <code className="break-all font-mono text-xs">{form.id}</code>
            <Link href={`/f/${form.id}`} className={linkClass}>
              Hosted form page
            </Link>
            <Link href={`/t/${team.slug}/leads?form=${encodeURIComponent(form.id)}`} className={linkClass}>
              Leads from this form
            </Link>
          </span>
        }
        action={canManage ? <WebFormActions slug={team.slug} formId={form.id} name={form.name} enabled={form.enabled} /> : null}
      />
      <div className="grid grid-cols-1 gap-6 xl:grid-cols-2">
        <div>
          <h3 className="mb-3 text-base font-semibold text-slate-900">Settings</h3>
          {canManage ? (
            <WebFormEditor slug={team.slug} form={form} sources={sources} />
          ) : (
            <dl className={`${cardClass} grid grid-cols-1 gap-x-4 gap-y-1 p-5 text-sm sm:grid-cols-[10rem_minmax(0,1fr)]`}>
              <dt className="font-medium text-slate-600">Allowed origins</dt>
              <dd className="break-all">{form.allowedOrigins.join(", ")}</dd>
              <dt className="font-medium text-slate-600">Lead source</dt>
              <dd className="break-words">{form.sourceName ?? "From the form (else API)"}</dd>
              <dt className="font-medium text-slate-600">Success page</dt>
              <dd className="break-all">{form.successUrl ?? "This app's thank-you page"}</dd>
              <dt className="font-medium text-slate-600">Spam check</dt>
              <dd>{form.challenge ? "Honeypot and proof-of-work" : "Honeypot only"}</dd>
              <dt className="font-medium text-slate-600">Spam caught</dt>
              <dd>{form.spamCount.toLocaleString("en-US")}</dd>
            </dl>
          )}
          <div className="mt-6">
            <RepeatsForm
              slug={team.slug}
              channel="web_form"
              id={form.id}
              value={form.repeats}
              windowDays={windowDays}
              canEdit={canManage}
            />
            <SpamChecksForm slug={team.slug} channel="web_form" id={form.id} value={form.spamChecks} canEdit={canManage} />
          </div>
          {canManage ? (
            <ConsentEditor slug={team.slug} formId={form.id} current={consent} doubleOptIn={form.doubleOptIn} hold={form.doubleOptInHold} />
          ) : (
            <p className="mt-6 text-sm text-slate-700">
              {consent ? `Asks for consent: ${consent.purpose} (${consent.required ? "required" : "optional"}).` : "Asks for no consent."}
            </p>
          )}
          <ConsentVersions versions={consentVersions} currentId={consent?.id ?? null} />
        </div>
        <div>
          <h3 className="mb-3 text-base font-semibold text-slate-900">Add it to your website</h3>
          <FormSnippets form={{ ...form, consent }} baseUrl={baseUrl} />
        </div>
      </div>
      <h3 className="mt-8 mb-3 text-base font-semibold text-slate-900">Request log</h3>
      <p className="mb-3 text-sm text-slate-600">
        Every submission to this form: the lead it created, or the status and error it got. Newest first.
      </p>
      <RequestLog slug={team.slug} base={base} cursor={cursor} log={log} of="form" />
    </section>
  );
}
