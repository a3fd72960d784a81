"use client";

import { useActionState, useState, useTransition } from "react";
import { setAssignmentEmailsAction, setNewLeadEmailsAction, updateNewLeadReminderAction } from "@/app/t/[slug]/settings/general/actions";
import type { ActionResult } from "@/lib/auth/require-team-role";
import { delayLabel, REMINDER_DELAYS } from "@/lib/notifications/reminder-delays";
import { Field } from "@/components/ui/field";
import { SelectOptions } from "@/components/ui/select-options";
import { cardClass, inputClass } from "@/components/ui/styles";
import { SaveRow } from "./form-message";

type Message = { tone: "status" | "alert"; text: string };

/** One of the member's email choices: a checkbox saved as soon as it changes, its help and its outcome. */
function EmailChoice(props: {
  id: string;
  label: string;
  help: string;
  initial: boolean;
  /** Whether the checkbox may be ticked (unticking is always allowed). */
  canTurnOn: boolean;
  save: (enabled: boolean) => Promise<ActionResult>;
  saved: (enabled: boolean) => string;
}) {
  const [checked, setChecked] = useState(props.initial);
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, startTransition] = useTransition();

  function toggle(next: boolean) {
    setChecked(next);
    startTransition(async () => {
      const result = await props.save(next);
      if (result.ok) {
        setMessage({ tone: "status", text: props.saved(next) });
      } else {
        setChecked(!next);
        setMessage({ tone: "alert", text: result.error });
      }
    });
  }

  return (
    <div className="space-y-2">
      <label className="flex items-start gap-3 text-sm text-slate-800">
        <input
          type="checkbox"
          checked={checked}
          disabled={pending || (!props.canTurnOn && !checked)}
          onChange={(event) => toggle(event.target.checked)}
          aria-describedby={`${props.id}-help`}
          className="mt-0.5 h-4 w-4 rounded border-slate-300"
        />
        <span className="font-medium">{props.label}</span>
      </label>
      <p id={`${props.id}-help`} className="text-sm text-slate-600">
        {props.help}
      </p>
      <p
        role={message?.tone === "alert" ? "alert" : "status"}
        className={message?.tone === "alert" ? "text-sm text-red-700" : "text-sm text-slate-700"}
      >
        {message?.text}
      </p>
    </div>
  );
}

/** The signed-in member's own email choices for this team: each new lead, and leads assigned to them. */
export function NotificationsForm(props: { slug: string; newLeads: boolean; assignments: boolean; configured: boolean }) {
  const { slug, configured } = props;
  return (
    <div className={`${cardClass} max-w-2xl space-y-4 p-6`}>
      <EmailChoice
        id="new-lead-emails"
        label="Email me about each new lead of this team"
        help={
          configured
            ? "Only you see this choice. Each email names the lead and links to it."
            : "Email is not configured on this server: an operator sets SMTP_URL to turn new-lead emails on."
        }
        initial={props.newLeads}
        canTurnOn={configured}
        save={(enabled) => setNewLeadEmailsAction(slug, enabled)}
        saved={(enabled) => (enabled ? "You will get an email for each new lead." : "New-lead emails are off.")}
      />
      <EmailChoice
        id="assignment-emails"
        label="Email me when a lead is assigned to me"
        help={
          (configured ? "" : "Email is not configured on this server, so none is sent for now. ") +
          "On by default: an email when the rules or someone else give you a lead (taking one yourself sends none), and the team's reminders of leads still New."
        }
        initial={props.assignments}
        canTurnOn
        save={(enabled) => setAssignmentEmailsAction(slug, enabled)}
        saved={(enabled) => (enabled ? "You will get an email when a lead is assigned to you." : "Assignment emails are off.")}
      />
    </div>
  );
}

/** The team's reminder of leads still New (docs/routing.md "Emails"): owners and admins set it. */
export function NewLeadReminderForm(props: { slug: string; minutes: number | null; canEdit: boolean }) {
  const [state, action, pending] = useActionState(updateNewLeadReminderAction, null);
  return (
    <form action={action} aria-labelledby="reminder-heading" className={`${cardClass} mt-6 max-w-2xl space-y-4 p-6`}>
      <h4 id="reminder-heading" className="text-sm font-semibold text-slate-900">
        Reminder for leads still New
      </h4>
      <input type="hidden" name="slug" value={props.slug} />
      <Field id="new-lead-reminder" label="Remind when a lead is still New after">
        <select
          id="new-lead-reminder"
          name="newLeadReminderMinutes"
          defaultValue={props.minutes === null ? "" : String(props.minutes)}
          disabled={!props.canEdit}
          aria-describedby="new-lead-reminder-help"
          className={`${inputClass} mt-1.5 max-w-48`}
        >
          <SelectOptions none="Off" choices={REMINDER_DELAYS.map((minutes) => ({ value: String(minutes), label: delayLabel(minutes) }))} />
        </select>
        <p id="new-lead-reminder-help" className="mt-1.5 text-xs text-slate-500">
          One email per lead, once: to its owner, or to the team&apos;s owners and admins when it has none (each member can turn it off
          above, with assignment emails). Turning the reminder on does not remind of the leads already waiting: it starts with the leads
          that come in after. Imported leads are not reminded of.
        </p>
      </Field>
      {props.canEdit ? (
        <SaveRow pending={pending} label="Save reminder" pendingLabel="Saving…" state={state} success="Reminder saved." />
      ) : (
        <p className="text-sm text-slate-600">Only owners and admins can change the reminder.</p>
      )}
    </form>
  );
}
