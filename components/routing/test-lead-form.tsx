"use client";

import { useState } from "react";
import { testLeadAction } from "@/app/t/[slug]/settings/routing/actions";
import { Field } from "@/components/ui/field";
import { ActionOutcome } from "@/components/ui/form-error";
import type { Choice } from "@/components/ui/select-options";
import { buttonClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";
import { useHydrated } from "@/components/ui/use-hydrated";
import { outcomeText, type OriginField } from "./rule-words";

const EXAMPLE = '{"name": "Ada Lovelace", "email": "ada@example.com", "phone": "+44 7911 123456", "utm_source": "google"}';

/**
 * "Test a lead": a create_lead JSON body and the way it arrives; the answer (which rule, whom)
 * comes from the intake's own rules, and nothing is created, nor a round robin's turn taken.
 */
export function TestLeadForm({
  slug,
  origins,
}: {
  slug: string;
  origins: Pick<Record<OriginField, Choice[]>, "api_key" | "web_form" | "connection">;
}) {
  const [outcome, setOutcome] = useState<string | null>(null);
  // Sent before hydration, the form would go to the page's URL as a plain GET.
  const hydrated = useHydrated();
  const { pending, error, onSubmit } = useFormAction(
    (form) => {
      setOutcome(null);
      return testLeadAction(slug, String(form.get("body") ?? ""), String(form.get("arrives") ?? ""));
    },
    { unreachable: "The server could not be reached. Try again.", onDone: (result) => setOutcome(outcomeText(result)) },
  );
  const groups = [
    { label: "API keys", prefix: "key", choices: origins.api_key },
    { label: "Web forms", prefix: "form", choices: origins.web_form },
    { label: "Connections", prefix: "connection", choices: origins.connection },
  ].filter((group) => group.choices.length);
  return (
    <form onSubmit={onSubmit} className="space-y-4">
      <Field id="test-lead-body" label="The lead, as create_lead's JSON body">
        <textarea
          id="test-lead-body"
          name="body"
          required
          rows={5}
          placeholder={EXAMPLE}
          spellCheck={false}
          aria-describedby="test-lead-hint"
          className={`${inputClass} mt-1.5 font-mono`}
        />
        <p id="test-lead-hint" className="mt-1 text-xs text-slate-600">
          Nothing is created, and no round robin&apos;s turn is taken.
        </p>
      </Field>
      <Field id="test-lead-arrives" label="Arrives through">
        <select id="test-lead-arrives" name="arrives" defaultValue="" className={`${inputClass} mt-1.5`}>
          <option value="">The API with no key</option>
          {groups.map((group) => (
            <optgroup key={group.prefix} label={group.label}>
              {group.choices.map((choice) => (
                <option key={choice.value} value={`${group.prefix}:${choice.value}`}>
                  {choice.label}
                </option>
              ))}
            </optgroup>
          ))}
        </select>
      </Field>
      <SubmitButton pending={pending} disabled={!hydrated} label="Test lead" pendingLabel="Testing…" className={buttonClass("secondary")} />
      {/* Its status line is the live region the answer is announced in. */}
      <ActionOutcome error={error} status={outcome} />
    </form>
  );
}
