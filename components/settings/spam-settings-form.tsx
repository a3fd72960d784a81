"use client";

import { useActionState } from "react";
import { saveSpamSettingsAction } from "@/app/t/[slug]/settings/spam/actions";
import { SPAM_SETTINGS_BOUNDS, type SpamSettingsValues } from "@/lib/spam/spam-settings-values";
import { Field } from "@/components/ui/field";
import { cardClass, inputClass, labelClass } from "@/components/ui/styles";
import { SaveRow } from "./form-message";

type NumberSetting = Exclude<keyof SpamSettingsValues, "businessOnly">;

const NUMBER_FIELDS: Record<NumberSetting, { label: string; hint: string }> = {
  threshold: {
    label: "Spam threshold (points)",
    hint: "A submission scoring this many points or more goes to Leads → Spam. Each strong sign scores 10, a weak one 5. From 1 to 100; 10 by default.",
  },
  burstLimit: { label: "N, leads", hint: "0 turns the burst check off. 5 by default." },
  burstMinutes: { label: "M, minutes", hint: "From 1 to 1,440 (a day). 10 by default." },
  retentionDays: { label: "Keep spam for (days)", hint: "How long Leads → Spam keeps a submission. From 1 to 365; 30 by default." },
};

/** A whole-number setting within its bounds, with its hint below. */
function NumberField(props: { name: NumberSetting; settings: SpamSettingsValues; disabled: boolean }) {
  const id = `spam-${props.name}`;
  const { min, max } = SPAM_SETTINGS_BOUNDS[props.name];
  const { label, hint } = NUMBER_FIELDS[props.name];
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        name={props.name}
        type="number"
        required
        min={min}
        max={max}
        step={1}
        defaultValue={props.settings[props.name]}
        disabled={props.disabled}
        aria-describedby={`${id}-help`}
        className={`${inputClass} mt-1.5 max-w-40`}
      />
      <p id={`${id}-help`} className="mt-1.5 text-xs text-slate-500">
        {hint}
      </p>
    </Field>
  );
}

/** Settings → Spam's threshold, business addresses only, burst and retention (docs/spam.md "Settings"). */
export function SpamSettingsForm({ slug, settings, canEdit }: { slug: string; settings: SpamSettingsValues; canEdit: boolean }) {
  const [state, action, pending] = useActionState(saveSpamSettingsAction, null);
  const disabled = !canEdit;
  return (
    <form action={action} aria-labelledby="spam-checks-heading" className={`${cardClass} max-w-2xl space-y-5 p-6`}>
      <h3 id="spam-checks-heading" className="text-sm font-semibold text-slate-900">
        Checks
      </h3>
      <input type="hidden" name="slug" value={slug} />
      <NumberField name="threshold" settings={settings} disabled={disabled} />
      <div className="flex items-start gap-2">
        <input
          id="spam-businessOnly"
          name="businessOnly"
          type="checkbox"
          defaultChecked={settings.businessOnly}
          disabled={disabled}
          aria-describedby="spam-businessOnly-help"
          className="mt-0.5 h-4 w-4 rounded border-slate-300"
        />
        <div>
          <label htmlFor="spam-businessOnly" className={labelClass}>
            Business addresses only
          </label>
          <p id="spam-businessOnly-help" className="mt-0.5 text-xs text-slate-500">
            An address at a free-mail provider (Gmail, Outlook, …) scores 10 points, so it goes to Leads → Spam unless allowed below.
          </p>
        </div>
      </div>
      <fieldset className="space-y-3">
        <legend className={labelClass}>Burst: more than N leads in M minutes from one address or sender</legend>
        <div className="flex flex-wrap gap-4">
          <NumberField name="burstLimit" settings={settings} disabled={disabled} />
          <NumberField name="burstMinutes" settings={settings} disabled={disabled} />
        </div>
      </fieldset>
      <NumberField name="retentionDays" settings={settings} disabled={disabled} />
      {canEdit ? (
        <SaveRow pending={pending} label="Save spam settings" pendingLabel="Saving…" state={state} success="Spam settings saved." />
      ) : (
        <p className="text-sm text-slate-600">Only owners and admins can change these settings.</p>
      )}
    </form>
  );
}
