"use client";

import { useState } from "react";
import { setFallbackAction } from "@/app/t/[slug]/settings/routing/actions";
import { ActionOutcome } from "@/components/ui/form-error";
import { SelectOptions } from "@/components/ui/select-options";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { MemberName } from "./rule-words";

/** Who gets the leads no rule matches: a member, or nobody (they stay unassigned). */
export function TeamFallbackForm({
  slug,
  fallbackUserId,
  members,
}: {
  slug: string;
  fallbackUserId: string | null;
  members: MemberName[];
}) {
  const [message, setMessage] = useState<string | null>(null);
  const choices = members.map((member) => ({ value: member.id, label: member.long }));
  // A fallback member who has left the team is no choice: the select shows "Leave unassigned".
  const current = fallbackUserId && members.some((member) => member.id === fallbackUserId) ? fallbackUserId : "";
  // Sent before hydration, the form would go to the page's URL as a plain GET.
  const hydrated = useHydrated();
  const { pending, error, onSubmit } = useFormAction(
    (form) => {
      setMessage(null);
      return setFallbackAction(slug, String(form.get("fallback") ?? ""));
    },
    {
      unreachable: "The server could not be reached; nothing was changed. Try again.",
      onDone: (_, form) => {
        const chosen = members.find((member) => member.id === form.get("fallback"));
        setMessage(chosen ? `Leads no rule matches go to ${chosen.short}.` : "Leads no rule matches stay unassigned.");
      },
    },
  );
  return (
    <form onSubmit={onSubmit} className="space-y-2">
      <label htmlFor="routing-fallback" className={labelClass}>
        Leads no rule matches go to
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <select id="routing-fallback" name="fallback" defaultValue={current} className={`${inputClass} min-w-0 flex-1 basis-48`}>
          <SelectOptions none="Leave unassigned" choices={choices} />
        </select>
        <SubmitButton
          pending={pending}
          disabled={!hydrated}
          label="Save fallback"
          pendingLabel="Saving…"
          className={buttonClass("secondary")}
        />
      </div>
      <ActionOutcome error={error} status={message} />
    </form>
  );
}
