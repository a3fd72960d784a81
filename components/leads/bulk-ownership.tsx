"use client";

import { assignSelectedAction, setSelectedStatusAction } from "@/app/t/[slug]/leads/actions";
import { FormError } from "@/components/ui/form-error";
import { SelectOptions, type Choice } from "@/components/ui/select-options";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { LEAD_STATUS_LABELS, LEAD_STATUSES, type LeadStatus } from "@/lib/leads/lead-status";

// The lead list's "Assign to" and "Set status" for the selected leads, owners and admins only
// (docs/routing.md). The server decides who may change what; a refusal is shown as it comes.
// A success revalidates the list, so the rows and the status views show the change.

const STATUS_CHOICES: Choice[] = LEAD_STATUSES.map((status) => ({ value: status, label: LEAD_STATUS_LABELS[status] }));
const NO_ONE: Choice = { value: "", label: "No one" };
const UNREACHABLE = "The server could not be reached; nothing was changed. Try again.";
const formClass = "flex flex-wrap items-center gap-2";
const leads = (n: number) => (n === 1 ? "1 lead" : `${n.toLocaleString("en-US")} leads`);

/**
 * A change's outcome in words: "3 leads assigned to Ada", with how many already were as
 * asked; "Nothing changed" when all of them were. `done`: what happened to the changed
 * leads ("assigned to Ada"); `already`: what the others already were ("assigned to Ada").
 */
export function changeMessage(changed: number, selected: number, done: string, already: string): string {
  if (changed === 0)
    return selected === 1
      ? `Nothing changed: the lead was already ${already}.`
      : `Nothing changed: the ${selected} leads were already ${already}.`;
  const others = selected - changed;
  return `${leads(changed)} ${done}.${others > 0 ? ` ${others === 1 ? "1 was" : `${others} were`} already.` : ""}`;
}

/**
 * The two forms, for the `ids` selected. `onDone` gets the outcome's words after a success
 * (the list then clears the selection and announces them).
 */
export function BulkOwnership({
  slug,
  ids,
  members,
  onDone,
}: {
  slug: string;
  ids: readonly string[];
  members: readonly Choice[];
  onDone: (message: string) => void;
}) {
  const assign = useFormAction((form) => assignSelectedAction(slug, [...ids], String(form.get("owner") ?? "")), {
    unreachable: UNREACHABLE,
    onDone: (result, form) => {
      const owner = members.find((member) => member.value === form.get("owner"));
      const words = owner ? `assigned to ${owner.label}` : "unassigned";
      onDone(changeMessage(result.changed, ids.length, words, words));
    },
  });
  const status = useFormAction((form) => setSelectedStatusAction(slug, [...ids], String(form.get("status") ?? "")), {
    unreachable: UNREACHABLE,
    onDone: (result, form) => {
      const chosen = String(form.get("status"));
      const label = LEAD_STATUS_LABELS[chosen as LeadStatus] ?? chosen;
      onDone(changeMessage(result.changed, ids.length, `set to ${label}`, label));
    },
  });
  return (
    <>
      <form aria-label="Assign to" onSubmit={assign.onSubmit} className={formClass}>
        <label htmlFor="bulk-owner" className="font-medium text-slate-800">
          Assign to
        </label>
        <div className="w-40">
          <select id="bulk-owner" name="owner" className={inputClass}>
            <SelectOptions choices={[...members, NO_ONE]} />
          </select>
        </div>
        <SubmitButton pending={assign.pending} label="Apply" pendingLabel="Applying…" className={buttonClass("secondary", "sm")} />
        <FormError error={assign.error} className="basis-full text-sm text-red-700" />
      </form>
      <form aria-label="Set status" onSubmit={status.onSubmit} className={formClass}>
        <label htmlFor="bulk-status" className="font-medium text-slate-800">
          Set status
        </label>
        <div className="w-36">
          <select id="bulk-status" name="status" className={inputClass}>
            <SelectOptions choices={STATUS_CHOICES} />
          </select>
        </div>
        <SubmitButton pending={status.pending} label="Apply" pendingLabel="Applying…" className={buttonClass("secondary", "sm")} />
        <FormError error={status.error} className="basis-full text-sm text-red-700" />
      </form>
    </>
  );
}
