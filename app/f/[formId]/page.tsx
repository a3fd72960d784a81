import { createElement } from "react";
import type { Metadata } from "next";
import { headers } from "next/headers";
import { notFound } from "next/navigation";
import { env } from "@/lib/env";
import { CONSENT_FIELD, CONSENT_VERSION_FIELD } from "@/lib/consent/consent-evidence";
import { HONEYPOT_FIELD } from "@/lib/web-forms/form-fields";
import { findHostedForm } from "@/lib/web-forms/web-form-store";
import { Field } from "@/components/ui/field";
import { buttonClass, inputClass, linkClass } from "@/components/ui/styles";
import { HostedCard } from "@/components/web-forms/hosted-card";

// The hosted form page: a team without a website links here. It posts to the same
// endpoint as any website's form, from this deployment's origin (always allowed). The
// widget is the build without inline styles or blob workers, so the page's Content
// Security Policy stays the app's (lib/web-forms/widget-files.ts). The attribution script
// (docs/attribution.md) adds where the visitor came from to the form, as on a team's site.

export async function generateMetadata({ params }: { params: Promise<{ formId: string }> }): Promise<Metadata> {
  const form = await findHostedForm((await params).formId);
  // The app sends Referrer-Policy: no-referrer, under which a browser's form post says
  // "Origin: null"; this page's own post must name its origin.
  return { title: form ? `${form.name} · ${form.teamName}` : "Form not found", referrer: "same-origin" };
}

const fields = [
  { name: "name", label: "Name", type: "text", autoComplete: "name", required: true },
  { name: "email", label: "Email", type: "email", autoComplete: "email", required: false },
  { name: "phone", label: "Phone", type: "tel", autoComplete: "tel", required: false },
  { name: "organization", label: "Company", type: "text", autoComplete: "organization", required: false },
];

/** This deployment's host name, as the visitor's address bar shows it. */
async function deploymentHost(): Promise<string> {
  const configured = env().NEXTAUTH_URL;
  if (configured) return new URL(configured).host;
  return (await headers()).get("host") ?? "this site";
}

export default async function HostedFormPage({ params }: { params: Promise<{ formId: string }> }) {
  const form = await findHostedForm((await params).formId);
  if (!form) notFound();
  return (
    <HostedCard
      title={form.name}
      subtitle={`Your message goes to ${form.teamName}.`}
      footer={`A form of ${form.teamName}, hosted for them by ${await deploymentHost()}. Never type a password or payment details into it.`}
    >
      <script src="/api/widget/attribution.js" async />
      {form.challenge ? (
        <>
          {/* React 19 hoists a stylesheet with `precedence` into the head; the widget's CSS
              is needed only on forms with a challenge. */}
          {/* eslint-disable-next-line @next/next/no-css-tags */}
          <link rel="stylesheet" href="/api/widget/altcha.css" precedence="default" />
          <script type="module" src="/api/widget/hosted-form.js" async />
        </>
      ) : null}
      <form method="post" action={`/api/forms/${form.id}`} className="space-y-4">
        {fields.map((field) => (
          <Field
            key={field.name}
            id={`field-${field.name}`}
            label={
              <>
                {field.label}
                {field.required ? <span className="text-red-700"> (required)</span> : null}
              </>
            }
          >
            <input
              id={`field-${field.name}`}
              name={field.name}
              type={field.type}
              autoComplete={field.autoComplete}
              required={field.required}
              className={`mt-1.5 ${inputClass}`}
            />
          </Field>
        ))}
        <Field id="field-message" label="Message">
          <textarea id="field-message" name="message" rows={4} className={`mt-1.5 ${inputClass}`} />
        </Field>
        {form.consent ? (
          <div className="flex items-start gap-2">
            <input type="hidden" name={CONSENT_VERSION_FIELD} value={form.consent.id} />
            <input
              id="field-consent"
              name={CONSENT_FIELD}
              type="checkbox"
              value="yes"
              required={form.consent.required}
              className="mt-0.5 h-4 w-4 shrink-0 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
            />
            <div className="text-sm text-slate-800">
              <label htmlFor="field-consent" className="whitespace-pre-wrap break-words">
                {form.consent.text}
                {form.consent.required ? <span className="text-red-700"> (required)</span> : null}
              </label>
              {form.consent.policyUrl ? (
                <>
                  {" "}
                  <a href={form.consent.policyUrl} target="_blank" rel="noopener noreferrer" className={linkClass}>
                    Privacy policy
                  </a>
                </>
              ) : null}
            </div>
          </div>
        ) : null}
        {/* The honeypot: off-screen and out of the tab order; a person never fills it. */}
        <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
          <label htmlFor="field-honeypot">Leave this field empty</label>
          <input id="field-honeypot" name={HONEYPOT_FIELD} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        {form.challenge ? createElement("altcha-widget", { challenge: `/api/forms/${form.id}/challenge` }) : null}
        <button type="submit" className={buttonClass("primary")}>
          Send
        </button>
      </form>
    </HostedCard>
  );
}
