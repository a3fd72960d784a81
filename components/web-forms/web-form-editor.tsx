"use client";

import { useActionState } from "react";
import { createWebFormAction, updateWebFormAction } from "@/app/t/[slug]/settings/web-forms/actions";
import { SaveRow } from "@/components/settings/form-message";
import { RepeatsFieldset } from "@/components/settings/repeats-choice";
import { SpamChecksSwitch } from "@/components/settings/spam-checks-choice";
import { Field } from "@/components/ui/field";
import { namedChoices, SelectOptions } from "@/components/ui/select-options";
import { cardClass, inputClass } from "@/components/ui/styles";
import { CHANNEL_REPEATS_DEFAULT } from "@/lib/leads/repeats";
import { CHANNEL_SPAM_CHECKS_DEFAULT } from "@/lib/spam/spam-checks-setting";
import type { WebFormView } from "@/lib/web-forms/web-form-store";

const hint = "mt-1 text-xs text-slate-600";

/**
 * Creates a web form (no `form`: with its repeat setting, the team's window `windowDays` in its
 * hint, and its spam checks) or changes one (those two settings are then their own forms on the
 * page); owners and admins only (the actions check).
 */
export function WebFormEditor({
  slug,
  form,
  sources,
  windowDays = 0,
}: {
  slug: string;
  form?: WebFormView;
  sources: { id: string; name: string }[];
  windowDays?: number;
}) {
  const [state, action, pending] = useActionState(form ? updateWebFormAction : createWebFormAction, null);
  const id = (name: string) => `web-form-${form?.id ?? "new"}-${name}`;
  return (
    <form action={action} className={`${cardClass} space-y-4 p-5`} aria-label={form ? `Settings of ${form.name}` : "New web form"}>
      <input type="hidden" name="slug" value={slug} />
      {form ? <input type="hidden" name="form_id" value={form.id} /> : null}
      <Field id={id("name")} label="Name">
        <input
          id={id("name")}
          name="name"
          required
          maxLength={100}
          defaultValue={form?.name}
          placeholder="e.g. Contact form on example.com"
          className={`mt-1.5 ${inputClass}`}
        />
      </Field>
      <Field id={id("origins")} label="Allowed origins">
        <textarea
          id={id("origins")}
          name="allowed_origins"
          required
          rows={2}
          defaultValue={form?.allowedOrigins.join("\n")}
          placeholder="https://example.com"
          aria-describedby={id("origins-hint")}
          className={`mt-1.5 font-mono ${inputClass}`}
        />
        <p id={id("origins-hint")} className={hint}>
          The websites whose pages may post to this form: scheme and host (and port), one per line, such as https://example.com and
          https://www.example.com.
        </p>
      </Field>
      <Field id={id("source")} label="Lead source">
        <select id={id("source")} name="source_id" defaultValue={form?.sourceId ?? ""} className={`mt-1.5 ${inputClass}`}>
          <SelectOptions none="From the form's source field (else API)" choices={namedChoices(sources)} />
        </select>
      </Field>
      <Field id={id("success")} label="Success page (optional)">
        <input
          id={id("success")}
          name="success_url"
          type="url"
          maxLength={2000}
          defaultValue={form?.successUrl ?? ""}
          placeholder="https://example.com/thank-you"
          aria-describedby={id("success-hint")}
          className={`mt-1.5 ${inputClass}`}
        />
        <p id={id("success-hint")} className={hint}>
          Where a visitor goes after sending the form. Empty: a thank-you page of this app.
        </p>
      </Field>
      <div className="flex items-start gap-2">
        <input
          id={id("challenge")}
          name="challenge"
          type="checkbox"
          defaultChecked={form?.challenge ?? true}
          className="mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600"
        />
        <label htmlFor={id("challenge")} className="text-sm text-slate-800">
          Proof-of-work spam check (ALTCHA, self-hosted: no third party, no tracking). A honeypot field is always on.
        </label>
      </div>
      {form ? null : (
        <>
          <RepeatsFieldset idPrefix={id("new")} defaultValue={CHANNEL_REPEATS_DEFAULT} windowDays={windowDays} />
          <SpamChecksSwitch idPrefix={id("new")} channel="web_form" checked={CHANNEL_SPAM_CHECKS_DEFAULT} />
        </>
      )}
      <SaveRow
        pending={pending}
        label={form ? "Save changes" : "Create form"}
        state={state}
        success="Saved."
        className="flex flex-wrap items-center gap-3"
      />
    </form>
  );
}
