"use client";

import Link from "next/link";
import { useState } from "react";
import { setApiKeySpamChecksAction } from "@/app/t/[slug]/settings/api-keys/actions";
import { setConnectionSpamChecksAction } from "@/app/t/[slug]/settings/connections/actions";
import { setWebFormSpamChecksAction } from "@/app/t/[slug]/settings/web-forms/actions";
import type { SpamChecksChannel } from "@/lib/spam/channel-spam-checks";
import { spamChecksWord } from "@/lib/spam/spam-checks-setting";
import { cardClass, labelClass, linkClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { FormMessage } from "./form-message";

const LABEL = "Run the spam checks";
const help = "text-sm text-slate-600";

/** Why a channel runs the checks or not (docs/spam.md "Per channel"). */
const WHY: Record<SpamChecksChannel, string> = {
  api_key: "Off by default: a server posting our API often filters already.",
  web_form: "On by default: anyone who finds the form can post to it.",
  connection: "On by default: whatever the form builder takes in is posted here.",
};

const WHAT = "A submission they flag goes to Leads → Spam, not the lead list; its sender gets the answer a kept lead gets.";

/**
 * A channel's spam checks as a switch named `spam_checks` (a checkbox: "on" when ticked) in a
 * fieldset: for the forms that create a channel and for SpamChecksForm.
 */
export function SpamChecksSwitch({
  idPrefix,
  channel,
  checked,
  onChange,
  disabled = false,
}: {
  idPrefix: string;
  channel: SpamChecksChannel;
  /** Uncontrolled (a create form): the starting value; controlled: with `onChange`. */
  checked: boolean;
  onChange?: (on: boolean) => void;
  disabled?: boolean;
}) {
  const id = `${idPrefix}-spam-checks`;
  const value = onChange
    ? { checked, onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.target.checked) }
    : { defaultChecked: checked };
  return (
    <fieldset disabled={disabled}>
      <legend className={labelClass}>Spam checks</legend>
      <div className="mt-2 flex items-start gap-2">
        <input
          id={id}
          type="checkbox"
          role="switch"
          name="spam_checks"
          aria-describedby={`${id}-help`}
          className="mt-1 h-4 w-4 shrink-0 rounded border-slate-300"
          {...value}
        />
        <div>
          <label htmlFor={id} className="text-sm font-medium text-slate-800">
            {LABEL}
          </label>
          <p id={`${id}-help`} className={help}>
            {WHAT} {WHY[channel]}
          </p>
        </div>
      </div>
    </fieldset>
  );
}

/** What a create form's switch sends: "on" when ticked, else "off". */
export const spamChecksSent = (form: FormData) => spamChecksWord(form.get("spam_checks") === "on");

const SAVE = {
  api_key: setApiKeySpamChecksAction,
  web_form: setWebFormSpamChecksAction,
  connection: setConnectionSpamChecksAction,
} as const;

/**
 * A channel's spam checks on its page: a switch that takes effect when flipped, for owners and
 * admins (the action checks the role); other members see it, disabled. A refusal flips it back.
 */
export function SpamChecksForm({
  slug,
  channel,
  id,
  value,
  canEdit,
}: {
  slug: string;
  channel: SpamChecksChannel;
  id: string;
  value: boolean;
  canEdit: boolean;
}) {
  const [on, setOn] = useState(value);
  const [saved, setSaved] = useState(false);
  const { error, run } = useActionRunner();
  function flip(next: boolean) {
    setOn(next);
    setSaved(false);
    run(
      () =>
        SAVE[channel](slug, id, spamChecksWord(next)).catch(() => ({
          ok: false as const,
          error: "The server could not be reached; nothing was saved. Try again.",
        })),
      (result) => (result.ok ? setSaved(true) : setOn(!next)),
    );
  }
  return (
    <div className={`${cardClass} mb-6 space-y-3 px-5 py-4`}>
      <SpamChecksSwitch idPrefix={`${channel}-${id}`} channel={channel} checked={on} onChange={flip} disabled={!canEdit} />
      <p className={help}>
        <Link href={`/t/${slug}/leads/spam`} className={linkClass}>
          Leads → Spam
        </Link>{" "}
        lists what the checks set aside.
      </p>
      {canEdit ? (
        <FormMessage
          state={error ? { ok: false, error } : saved ? { ok: true } : null}
          success={on ? "Saved: the spam checks run." : "Saved: the spam checks are off."}
        />
      ) : (
        <p className={help}>Only owners and admins can change this.</p>
      )}
    </div>
  );
}
