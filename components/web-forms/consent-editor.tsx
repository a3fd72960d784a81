"use client";

import { useActionState, useState } from "react";
import { setConnectionConsentAction } from "@/app/t/[slug]/settings/connections/actions";
import { setWebFormConsentAction } from "@/app/t/[slug]/settings/web-forms/actions";
import { SaveRow } from "@/components/settings/form-message";
import { Field } from "@/components/ui/field";
import { cardClass, inputClass } from "@/components/ui/styles";
import type { ConsentVersionView } from "@/lib/consent/consent-version-store";

const hint = "mt-1 text-xs text-slate-600";
const checkboxClass = "mt-0.5 h-4 w-4 rounded border-slate-300 text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-600";

/** What the editor says of each channel: a web form shows the box, a connection records what the builder's form showed. */
const WORDS = {
  form: {
    asked:
      "Ask for consent: the form shows an unticked box with this text, and each lead keeps what the person agreed to, when and from where.",
    text: "Plain text. Every change makes a new version; the old ones are kept with the leads that agreed to them.",
    required: "Required: a submission without the box ticked is refused. Optional: the lead is kept either way.",
  },
  connection: {
    asked:
      "Record consent: map the form builder's consent question to “Consent” in the mapping below; each lead keeps this text, its answer and when.",
    text: "The text the builder's form shows beside its box: keep the two equal. Every change makes a new version; the old ones are kept with the leads that agreed to them.",
    required:
      "Required: a delivery without consent is still kept (the builder already accepted it), its consent marked “not given” with a note. Optional: the lead is kept either way.",
  },
} as const;

/** "Ask for consent" of a web form or a connection (docs/consent.md); owners and admins only (the action checks). */
export function ConsentEditor({
  slug,
  channel = "form",
  formId,
  current,
  doubleOptIn,
  hold = false,
}: {
  slug: string;
  /** Whose consent: a web form's (form_id) or a connection's (connection_id). */
  channel?: "form" | "connection";
  /** The form's or the connection's id. */
  formId: string;
  current: ConsentVersionView | null;
  doubleOptIn: boolean;
  /** With double opt-in: "Create the lead only once confirmed" (else now, pending); a web form's only. */
  hold?: boolean;
}) {
  const [state, action, pending] = useActionState(channel === "form" ? setWebFormConsentAction : setConnectionConsentAction, null);
  const words = WORDS[channel];
  const [asked, setAsked] = useState(current !== null);
  const [confirming, setConfirming] = useState(doubleOptIn);
  const id = (name: string) => `consent-${formId}-${name}`;
  return (
    <form action={action} className={`${cardClass} mt-6 space-y-4 p-5`} aria-label="Consent">
      <h4 className="text-sm font-semibold text-slate-900">Consent</h4>
      <input type="hidden" name="slug" value={slug} />
      <input type="hidden" name={channel === "form" ? "form_id" : "connection_id"} value={formId} />
      <div className="flex items-start gap-2">
        <input
          id={id("asked")}
          name="consent_asked"
          type="checkbox"
          checked={asked}
          onChange={(event) => setAsked(event.target.checked)}
          className={checkboxClass}
        />
        <label htmlFor={id("asked")} className="text-sm text-slate-800">
          {words.asked}
        </label>
      </div>
      {asked ? (
        <>
          <Field id={id("text")} label="Consent text">
            <textarea
              id={id("text")}
              name="consent_text"
              required
              rows={3}
              maxLength={2000}
              defaultValue={current?.text}
              placeholder="I agree to receive marketing emails from Example Ltd. I can withdraw at any time."
              aria-describedby={id("text-hint")}
              className={`mt-1.5 ${inputClass}`}
            />
            <p id={id("text-hint")} className={hint}>
              {words.text}
            </p>
          </Field>
          <Field id={id("purpose")} label="Purpose">
            <input
              id={id("purpose")}
              name="consent_purpose"
              required
              maxLength={100}
              defaultValue={current?.purpose}
              placeholder="Marketing emails"
              className={`mt-1.5 ${inputClass}`}
            />
          </Field>
          <Field id={id("policy")} label="Privacy policy (optional)">
            <input
              id={id("policy")}
              name="consent_policy_url"
              type="url"
              maxLength={2000}
              defaultValue={current?.policyUrl ?? ""}
              placeholder="https://example.com/privacy"
              aria-describedby={id("policy-hint")}
              className={`mt-1.5 ${inputClass}`}
            />
            <p id={id("policy-hint")} className={hint}>
              An https:// address, linked after the text.
            </p>
          </Field>
          <div className="flex items-start gap-2">
            <input
              id={id("required")}
              name="consent_required"
              type="checkbox"
              defaultChecked={current?.required ?? false}
              className={checkboxClass}
            />
            <label htmlFor={id("required")} className="text-sm text-slate-800">
              {words.required}
            </label>
          </div>
          <div className="flex items-start gap-2">
            <input
              id={id("double-opt-in")}
              name="consent_double_opt_in"
              type="checkbox"
              checked={confirming}
              onChange={(event) => setConfirming(event.target.checked)}
              aria-describedby={id("double-opt-in-hint")}
              className={checkboxClass}
            />
            <div>
              <label htmlFor={id("double-opt-in")} className="text-sm text-slate-800">
                Double opt-in: email the person a link to confirm their consent
              </label>
              <p id={id("double-opt-in-hint")} className={hint}>
                The link is valid for 100 hours (CONSENT_CONFIRMATION_HOURS); a person gets at most one confirmation email a day, none once
                confirmed.
              </p>
            </div>
          </div>
          {confirming && channel === "form" ? (
            <fieldset className="ml-6 space-y-2">
              <legend className="text-sm font-medium text-slate-800">When to create the lead</legend>
              <div className="flex items-start gap-2">
                <input
                  id={id("create-now")}
                  name="consent_create_lead"
                  type="radio"
                  value="now"
                  defaultChecked={!hold}
                  className={checkboxClass}
                />
                <label htmlFor={id("create-now")} className="text-sm text-slate-800">
                  Create the lead now and mark it pending until the person confirms
                </label>
              </div>
              <div className="flex items-start gap-2">
                <input
                  id={id("create-confirmed")}
                  name="consent_create_lead"
                  type="radio"
                  value="once_confirmed"
                  defaultChecked={hold}
                  aria-describedby={id("create-confirmed-hint")}
                  className={checkboxClass}
                />
                <div>
                  <label htmlFor={id("create-confirmed")} className="text-sm text-slate-800">
                    Create the lead only once confirmed
                  </label>
                  <p id={id("create-confirmed-hint")} className={hint}>
                    The submission is held, sealed, until the person confirms; if the link expires first it is dropped and the request log
                    says so. A person who confirmed before, or whose address is on the suppression list, gets a lead at once.
                  </p>
                </div>
              </div>
            </fieldset>
          ) : null}
        </>
      ) : null}
      <SaveRow pending={pending} label="Save consent" state={state} success="Saved." className="flex flex-wrap items-center gap-3" />
    </form>
  );
}

/** The channel's consent versions, newest first: what each lead's evidence refers to. */
export function ConsentVersions({ versions, currentId }: { versions: ConsentVersionView[]; currentId: string | null }) {
  if (!versions.length) return null;
  return (
    <div className="mt-4">
      <h4 className="mb-2 text-sm font-semibold text-slate-900">Consent versions</h4>
      <ol className="space-y-2 text-sm" aria-label="Consent versions">
        {versions.map((version) => (
          <li key={version.id} className={`${cardClass} p-3`}>
            <p className="font-medium text-slate-800">
              Version {version.number}
              {version.id === currentId ? " (current)" : ""} · {version.purpose} · {version.required ? "required" : "optional"} ·{" "}
              <time dateTime={version.createdAt.toISOString()}>{version.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC</time>
            </p>
            <p className="mt-1 whitespace-pre-wrap break-words text-slate-700">{version.text}</p>
            {version.policyUrl ? <p className="mt-1 break-all text-xs text-slate-600">Privacy policy: {version.policyUrl}</p> : null}
          </li>
        ))}
      </ol>
    </div>
  );
}
