"use client";

import { useActionState } from "react";
import { createTeamAction } from "@/app/teams/new/actions";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";

export function NewTeamForm({ maxLength }: { maxLength: number }) {
  const [state, action, pending] = useActionState(createTeamAction, null);
  return (
    <form action={action} className="space-y-4">
      <Field id="team-name" label="Team name">
        <input
          id="team-name"
          name="name"
          required
          maxLength={maxLength}
          autoComplete="organization"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <FormError error={state && !state.ok ? state.error : null} />
      <SubmitButton pending={pending} label="Create team" pendingLabel="Creating…" className={`${buttonClass("primary")} w-full`} />
    </form>
  );
}
