"use client";

import Link from "next/link";
import type { ImportChoices } from "@/app/t/[slug]/leads/import/actions";
import type { AssignmentOptions } from "@/lib/imports/import-assignment-choice";
import { SelectOptions } from "@/components/ui/select-options";
import { cardClass, inputClass, labelClass, linkClass } from "@/components/ui/styles";

export type AssignChoice = ImportChoices["assign"];

const radioClass = "mt-1 h-4 w-4";
const optionLabel = "text-sm font-medium text-slate-800";
const help = "text-sm text-slate-600";

/**
 * Part of step 3 of Leads → Import: whom the imported leads go to (docs/routing.md
 * "Imports"): nobody (the default), the team's assignment rules (offered when they can
 * assign anyone), or one member.
 */
export function AssignmentChoice({
  slug,
  value,
  onChange,
  options,
}: {
  slug: string;
  value: AssignChoice;
  onChange: (value: AssignChoice) => void;
  options: AssignmentOptions;
}) {
  const routing = (
    <Link href={`/t/${slug}/settings/routing`} className={linkClass}>
      Settings → Lead Routing
    </Link>
  );
  return (
    <section aria-labelledby="assign-heading" className={`${cardClass} p-5`}>
      <h2 id="assign-heading" className="text-base font-semibold text-slate-900">
        Owners
      </h2>
      <fieldset className="mt-3">
        <legend className={labelClass}>Assign the imported leads</legend>
        <div className="mt-2 space-y-2">
          <div className="flex items-start gap-2">
            <input
              id="assign-none"
              type="radio"
              name="assign"
              checked={value.mode === "none"}
              onChange={() => onChange({ mode: "none", userId: null })}
              aria-describedby="assign-none-help"
              className={radioClass}
            />
            <div>
              <label htmlFor="assign-none" className={optionLabel}>
                Leave them unassigned
              </label>
              <p id="assign-none-help" className={help}>
                Members take them from the lead list, or an admin assigns them there.
              </p>
            </div>
          </div>
          {options.rules ? (
            <div className="flex items-start gap-2">
              <input
                id="assign-rules"
                type="radio"
                name="assign"
                checked={value.mode === "rules"}
                onChange={() => onChange({ mode: "rules", userId: null })}
                aria-describedby="assign-rules-help"
                className={radioClass}
              />
              <div>
                <label htmlFor="assign-rules" className={optionLabel}>
                  By the team&apos;s assignment rules
                </label>
                <p id="assign-rules-help" className={help}>
                  Each lead goes to whom the rules of {routing} give it when it is imported; round robins take turns with the leads that
                  arrive meanwhile.
                </p>
              </div>
            </div>
          ) : null}
          <div className="flex items-start gap-2">
            <input
              id="assign-member"
              type="radio"
              name="assign"
              checked={value.mode === "member"}
              onChange={() => onChange({ mode: "member", userId: value.userId })}
              className={radioClass}
            />
            <div className="flex flex-wrap items-center gap-2">
              <label htmlFor="assign-member" className={optionLabel}>
                All to
              </label>
              <label htmlFor="assign-member-id" className="sr-only">
                Member who gets every imported lead
              </label>
              <select
                id="assign-member-id"
                value={value.userId ?? ""}
                onChange={(event) => onChange({ mode: "member", userId: event.target.value || null })}
                className={`${inputClass} max-w-sm min-w-0 flex-1 basis-48`}
              >
                <SelectOptions none="Choose a member" choices={options.members.map((m) => ({ value: m.id, label: m.label }))} />
              </select>
            </div>
          </div>
        </div>
        {options.rules ? null : <p className={`${help} mt-3`}>To assign them by rules, set up rules in {routing} first.</p>}
      </fieldset>
    </section>
  );
}
