"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { setConnectionMappingAction } from "@/app/t/[slug]/settings/connections/actions";
import type { AnswerTarget, MappedAnswer } from "@/lib/connections/map-answers";
import { DataTable } from "@/components/ui/data-table";
import { ActionOutcome } from "@/components/ui/form-error";
import { SelectOptions } from "@/components/ui/select-options";
import { inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useFormAction } from "@/components/ui/use-form-action";

export type TargetChoice = { value: AnswerTarget; label: string };

/**
 * The answers of the latest delivery (their keys and labels, never their values), where each
 * went, and a choice per answer: automatic, a lead field, an extra field, or ignored.
 */
export function MappingEditor({
  slug,
  connectionId,
  answers,
  overrides,
  targets,
}: {
  slug: string;
  connectionId: string;
  answers: MappedAnswer[];
  overrides: Record<string, string>;
  targets: TargetChoice[];
}) {
  const router = useRouter();
  const [saved, setSaved] = useState<string | null>(null);
  const labelOf = (target: string) => targets.find((choice) => choice.value === target)?.label ?? target;
  const { pending, error, onSubmit } = useFormAction(
    (form) =>
      setConnectionMappingAction(
        slug,
        connectionId,
        Object.fromEntries(answers.map((answer, index) => [answer.key, String(form.get(`target-${index}`) ?? "auto")])),
      ),
    {
      unreachable: "The server could not be reached; the mapping was not saved. Try again.",
      onDone: () => {
        setSaved("Mapping saved. It applies to the next deliveries, and to a replay of those kept.");
        router.refresh();
      },
    },
  );

  return (
    <form onSubmit={onSubmit} className="space-y-3">
      <DataTable
        caption="The questions of the latest delivery and the lead field each fills"
        columns={["Question", "Goes to"]}
        className="text-sm"
      >
        {answers.map((answer, index) => (
          <tr key={answer.key}>
            <td className="px-4 py-3 align-top">
              <label htmlFor={`target-${index}`} className="font-medium text-slate-900 [overflow-wrap:anywhere]">
                {answer.label}
              </label>
              {answer.key !== answer.label ? (
                <p className="font-mono text-xs text-slate-500 [overflow-wrap:anywhere]">{answer.key}</p>
              ) : null}
            </td>
            <td className="px-4 py-3">
              <select id={`target-${index}`} name={`target-${index}`} defaultValue={overrides[answer.key] ?? "auto"} className={inputClass}>
                <SelectOptions
                  none={{ value: "auto", label: `Automatic (${answer.field ? labelOf(answer.target) : "ignored"})` }}
                  choices={targets}
                />
              </select>
            </td>
          </tr>
        ))}
      </DataTable>
      <ActionOutcome error={error} status={saved} />
      <SubmitButton pending={pending} label="Save mapping" pendingLabel="Saving…" />
    </form>
  );
}
