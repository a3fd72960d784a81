"use client";

import { useActionState } from "react";
import { createTeamAction } from "@/app/teams/new/actions";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";

export function NewTeamForm({ maxLength }: { maxLength: number }) {
  const [state, action, pending] = useActionState(createTeamAction, null);
  return (
    <form action={action} className="space-y-4">
      <div>
        <label htmlFor="team-name" className={labelClass}>
          Team name
        </label>
        <input
          id="team-name"
          name="name"
          required
          maxLength={maxLength}
          autoComplete="organization"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </div>
      <FormError error={state && !state.ok ? state.error : null} />
      <button type="submit" disabled={pending} className={`${buttonClass("primary")} w-full`}>
        {pending ? "Creating…" : "Create team"}
      </button>
    </form>
  );
}
