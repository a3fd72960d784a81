"use client";

import { useActionState } from "react";
import { updateGeneralAction } from "@/app/t/[slug]/settings/general/actions";
import { REPEAT_WINDOW_MAX_DAYS } from "@/lib/leads/repeats";
import type { PhoneCountry } from "@/lib/teams/phone-countries";
import { Field } from "@/components/ui/field";
import { SelectOptions } from "@/components/ui/select-options";
import { cardClass, inputClass } from "@/components/ui/styles";
import { SaveRow } from "./form-message";

export function GeneralForm(props: {
  slug: string;
  name: string;
  defaultPhoneCountry: string;
  countries: readonly PhoneCountry[];
  /** How many days after a lead's last submission a repeat submission still joins it (0: never). */
  repeatWindowDays: number;
  canEdit: boolean;
}) {
  const [state, action, pending] = useActionState(updateGeneralAction, null);
  return (
    <form action={action} className={`${cardClass} max-w-2xl space-y-5 p-6`}>
      <input type="hidden" name="slug" value={props.slug} />
      <Field id="team-name" label="Team name">
        <input
          id="team-name"
          name="name"
          required
          maxLength={100}
          defaultValue={props.name}
          disabled={!props.canEdit}
          className={`${inputClass} mt-1.5`}
        />
      </Field>
      <Field id="default-country" label="Default phone country">
        <select
          id="default-country"
          name="defaultPhoneCountry"
          defaultValue={props.defaultPhoneCountry}
          disabled={!props.canEdit}
          aria-describedby="default-country-help"
          className={`${inputClass} mt-1.5`}
        >
          <SelectOptions
            none="None: plain numbers need country_code"
            choices={props.countries.map((c) => ({ value: c.code, label: c.label }))}
          />
        </select>
        <p id="default-country-help" className="mt-1.5 text-xs text-slate-500">
          Used to read a phone number sent without a leading + or 00 and without country_code.
        </p>
      </Field>
      <Field id="repeat-window" label="Repeat submissions join a lead for (days)">
        <input
          id="repeat-window"
          name="repeatWindowDays"
          type="number"
          required
          min={0}
          max={REPEAT_WINDOW_MAX_DAYS}
          step={1}
          defaultValue={props.repeatWindowDays}
          disabled={!props.canEdit}
          aria-describedby="repeat-window-help"
          className={`${inputClass} mt-1.5 max-w-40`}
        />
        <p id="repeat-window-help" className="mt-1.5 text-xs text-slate-500">
          A submission through an API key, web form or connection set to &quot;Add to their lead&quot; joins the lead of the same email or
          phone when that lead had a submission within this many days. 0: never, every submission creates a lead. At most{" "}
          {REPEAT_WINDOW_MAX_DAYS.toLocaleString("en-US")}.
        </p>
      </Field>
      {props.canEdit ? (
        <SaveRow pending={pending} label="Save changes" pendingLabel="Saving…" state={state} success="Settings saved." />
      ) : (
        <p className="text-sm text-slate-600">Only owners and admins can change these settings.</p>
      )}
    </form>
  );
}
