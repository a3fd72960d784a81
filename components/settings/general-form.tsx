"use client";

import { useActionState } from "react";
import { updateGeneralAction } from "@/app/t/[slug]/settings/general/actions";
import type { PhoneCountry } from "@/lib/teams/phone-countries";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";
import { FormMessage } from "./form-message";

export function GeneralForm(props: {
  slug: string;
  name: string;
  defaultPhoneCountry: string;
  countries: readonly PhoneCountry[];
  canEdit: boolean;
}) {
  const [state, action, pending] = useActionState(updateGeneralAction, null);
  return (
    <form action={action} className={`${cardClass} max-w-2xl space-y-5 p-6`}>
      <input type="hidden" name="slug" value={props.slug} />
      <div>
        <label htmlFor="team-name" className={labelClass}>
          Team name
        </label>
        <input
          id="team-name"
          name="name"
          required
          maxLength={100}
          defaultValue={props.name}
          disabled={!props.canEdit}
          className={`${inputClass} mt-1.5`}
        />
      </div>
      <div>
        <label htmlFor="default-country" className={labelClass}>
          Default phone country
        </label>
        <select
          id="default-country"
          name="defaultPhoneCountry"
          defaultValue={props.defaultPhoneCountry}
          disabled={!props.canEdit}
          aria-describedby="default-country-help"
          className={`${inputClass} mt-1.5`}
        >
          <option value="">None: plain numbers need country_code</option>
          {props.countries.map((c) => (
            <option key={c.code} value={c.code}>
              {c.label}
            </option>
          ))}
        </select>
        <p id="default-country-help" className="mt-1.5 text-xs text-slate-500">
          Used to read a phone number sent without a leading + or 00 and without country_code.
        </p>
      </div>
      {props.canEdit ? (
        <div className="flex items-center gap-3">
          <button type="submit" disabled={pending} className={buttonClass("primary")}>
            {pending ? "Saving…" : "Save changes"}
          </button>
          <FormMessage state={state} success="Settings saved." />
        </div>
      ) : (
        <p className="text-sm text-slate-600">Only owners and admins can change these settings.</p>
      )}
    </form>
  );
}
