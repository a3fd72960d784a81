"use client";

import { useState } from "react";
import { assignLeadAction, setLeadStatusAction, takeLeadAction } from "@/app/t/[slug]/leads/[leadId]/actions";
import { Field } from "@/components/ui/field";
import { ActionOutcome } from "@/components/ui/form-error";
import { SelectOptions, type Choice } from "@/components/ui/select-options";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { LEAD_STATUS_LABELS, LEAD_STATUSES, type LeadStatus } from "@/lib/leads/lead-status";

// The lead page's status and owner controls (docs/routing.md). The server decides who may
// change what; a refusal is shown as it comes. A success revalidates the page, so the card
// above shows the new status or owner.

const STATUS_CHOICES: Choice[] = LEAD_STATUSES.map((status) => ({ value: status, label: LEAD_STATUS_LABELS[status] }));
const UNREACHABLE = "The server could not be reached; nothing was changed. Try again.";
const rowClass = "mt-1.5 flex flex-wrap items-center gap-2";
const selectClass = `${inputClass} min-w-0 flex-1 basis-40`;

/** Any member of the team: the lead's status, one of the six. */
export function LeadStatusForm({ slug, leadId, status }: { slug: string; leadId: string; status: LeadStatus }) {
  const [message, setMessage] = useState<string | null>(null);
  const { pending, error, onSubmit } = useFormAction(
    (form) => {
      setMessage(null);
      return setLeadStatusAction(slug, leadId, String(form.get("status") ?? ""));
    },
    {
      unreachable: UNREACHABLE,
      onDone: (_, form) => {
        const chosen = String(form.get("status"));
        setMessage(`Status set to ${LEAD_STATUS_LABELS[chosen as LeadStatus] ?? chosen}.`);
      },
    },
  );
  return (
    <form onSubmit={onSubmit} className="space-y-2">
      <Field id="lead-status-select" label="Change status">
        <div className={rowClass}>
          <select id="lead-status-select" name="status" defaultValue={status} className={selectClass}>
            <SelectOptions choices={STATUS_CHOICES} />
          </select>
          <SubmitButton pending={pending} label="Save status" pendingLabel="Saving…" className={buttonClass("secondary")} />
        </div>
      </Field>
      <ActionOutcome error={error} status={message} />
    </form>
  );
}

/** Owners and admins: the lead's owner, any member of the team or no one. */
export function LeadOwnerForm({
  slug,
  leadId,
  ownerId,
  members,
}: {
  slug: string;
  leadId: string;
  ownerId: string | null;
  members: Choice[];
}) {
  const [message, setMessage] = useState<string | null>(null);
  const { pending, error, onSubmit } = useFormAction(
    (form) => {
      setMessage(null);
      return assignLeadAction(slug, leadId, String(form.get("owner") ?? ""));
    },
    {
      unreachable: UNREACHABLE,
      onDone: (_, form) => {
        const chosen = members.find((member) => member.value === form.get("owner"));
        setMessage(chosen ? `Assigned to ${chosen.label}.` : "The lead is now unassigned.");
      },
    },
  );
  return (
    <form onSubmit={onSubmit} className="space-y-2">
      <Field id="lead-owner-select" label="Change owner">
        <div className={rowClass}>
          <select id="lead-owner-select" name="owner" defaultValue={ownerId ?? ""} className={selectClass}>
            <SelectOptions none="Unassigned" choices={members} />
          </select>
          <SubmitButton pending={pending} label="Save owner" pendingLabel="Saving…" className={buttonClass("secondary")} />
        </div>
      </Field>
      <ActionOutcome error={error} status={message} />
    </form>
  );
}

/**
 * A member: "Take this lead" while it is unassigned (`canTake`). It stays mounted once the
 * lead is taken, so that its status line is still there to be read out.
 */
export function TakeLeadForm({ slug, leadId, canTake }: { slug: string; leadId: string; canTake: boolean }) {
  const [message, setMessage] = useState<string | null>(null);
  const { pending, error, onSubmit } = useFormAction(
    () => {
      setMessage(null);
      return takeLeadAction(slug, leadId);
    },
    { unreachable: UNREACHABLE, onDone: () => setMessage("You own this lead now.") },
  );
  return (
    <form onSubmit={onSubmit} className="space-y-2">
      {canTake ? <SubmitButton pending={pending} label="Take this lead" pendingLabel="Taking…" /> : null}
      <ActionOutcome error={error} status={message} />
    </form>
  );
}
