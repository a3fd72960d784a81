"use client";

import { useState } from "react";
import { setApiKeyRepeatsAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { setConnectionRepeatsAction } from "@/app/t/[slug]/settings/connections/actions";
import { setWebFormRepeatsAction } from "@/app/t/[slug]/settings/web-forms/actions";
import { REPEATS, REPEATS_LABELS, type Repeats } from "@/lib/leads/repeats";
import { cardClass, labelClass } from "@/components/ui/styles";
import { useFormAction } from "@/components/ui/use-form-action";
import { SaveRow } from "./form-message";

const LEGEND = "When this person already has a lead";
const radioClass = "mt-1 h-4 w-4";
const optionLabel = "text-sm font-medium text-slate-800";
const help = "text-sm text-slate-600";

/** What each choice does, with the team's repeat window (docs/leads.md "Repeat submissions"). */
function Hint({ repeats, windowDays }: { repeats: Repeats; windowDays: number }) {
  if (repeats === "new") return <>Every submission creates a lead (201 &quot;Lead created successfully&quot;).</>;
  // Plain words, not a link: the radio group stays the one tab stop of the choice in the create dialogs.
  const general = "Settings → General";
  const joins = `its empty fields are filled, nothing is replaced, and the answer is 200 "Lead updated successfully" with that lead's id.`;
  return windowDays === 0 ? (
    <>
      A submission whose email or phone matches a lead of this team joins that lead: {joins} At the moment never, the team&apos;s window is
      0 ({general}).
    </>
  ) : (
    <>
      A submission whose email or phone matches a lead of this team from the last {windowDays.toLocaleString("en-US")}{" "}
      {windowDays === 1 ? "day" : "days"} ({general}) joins that lead: {joins}
    </>
  );
}

/**
 * The two choices of a channel's repeat setting as radios named `repeats` in a fieldset:
 * for the forms that create a channel and for RepeatsForm.
 */
export function RepeatsFieldset({
  idPrefix,
  defaultValue,
  windowDays,
  disabled = false,
}: {
  idPrefix: string;
  defaultValue: Repeats;
  windowDays: number;
  disabled?: boolean;
}) {
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>{LEGEND}</legend>
      <div className="mt-2 space-y-2">
        {REPEATS.map((repeats) => {
          const id = `${idPrefix}-repeats-${repeats}`;
          return (
            <div key={repeats} className="flex items-start gap-2">
              <input
                id={id}
                type="radio"
                name="repeats"
                value={repeats}
                defaultChecked={repeats === defaultValue}
                aria-describedby={`${id}-help`}
                className={radioClass}
              />
              <div>
                <label htmlFor={id} className={optionLabel}>
                  {REPEATS_LABELS[repeats]}
                </label>
                <p id={`${id}-help`} className={help}>
                  <Hint repeats={repeats} windowDays={windowDays} />
                </p>
              </div>
            </div>
          );
        })}
      </div>
    </fieldset>
  );
}

const SAVE = {
  api_key: setApiKeyRepeatsAction,
  web_form: setWebFormRepeatsAction,
  connection: setConnectionRepeatsAction,
} as const;

/**
 * A channel's repeat setting on its page: owners and admins change it (the action checks the
 * role); other members see it, disabled.
 */
export function RepeatsForm({
  slug,
  channel,
  id,
  value,
  windowDays,
  canEdit,
}: {
  slug: string;
  channel: keyof typeof SAVE;
  id: string;
  value: Repeats;
  windowDays: number;
  canEdit: boolean;
}) {
  const [saved, setSaved] = useState(false);
  const { pending, error, onSubmit } = useFormAction((form) => SAVE[channel](slug, id, String(form.get("repeats") ?? "")), {
    unreachable: "The server could not be reached; nothing was saved. Try again.",
    onDone: () => setSaved(true),
  });
  return (
    <form onSubmit={onSubmit} className={`${cardClass} mb-6 space-y-4 px-5 py-4`}>
      <RepeatsFieldset idPrefix={`${channel}-${id}`} defaultValue={value} windowDays={windowDays} disabled={!canEdit} />
      {canEdit ? (
        <SaveRow
          pending={pending}
          label="Save"
          pendingLabel="Saving…"
          state={error ? { ok: false, error } : saved ? { ok: true } : null}
          success="Saved."
        />
      ) : (
        <p className={help}>Only owners and admins can change this.</p>
      )}
    </form>
  );
}
