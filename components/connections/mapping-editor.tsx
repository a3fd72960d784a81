"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { setConnectionMappingAction } from "@/app/t/[slug]/settings/connections/actions";
import type { AnswerTarget, MappedAnswer } from "@/lib/connections/map-answers";
import { FormError } from "@/components/ui/form-error";
import { cardClass, inputClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { TableHead } from "@/components/ui/table-head";

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
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const labelOf = (target: string) => targets.find((choice) => choice.value === target)?.label ?? target;

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const mapping = Object.fromEntries(answers.map((answer, index) => [answer.key, String(form.get(`target-${index}`) ?? "auto")]));
    startTransition(async () => {
      const result = await setConnectionMappingAction(slug, connectionId, mapping).catch(() => ({
        ok: false as const,
        error: "The server could not be reached; the mapping was not saved. Try again.",
      }));
      setError(result.ok ? null : result.error);
      if (result.ok) {
        setSaved("Mapping saved. It applies to the next deliveries, and to a replay of those kept.");
        router.refresh();
      }
    });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-3">
      <div className={`${cardClass} overflow-x-auto`}>
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">The questions of the latest delivery and the lead field each fills</caption>
          <TableHead columns={["Question", "Goes to"]} />
          <tbody className="divide-y divide-slate-100">
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
                  <select
                    id={`target-${index}`}
                    name={`target-${index}`}
                    defaultValue={overrides[answer.key] ?? "auto"}
                    className={inputClass}
                  >
                    <option value="auto">Automatic ({answer.field ? labelOf(answer.target) : "ignored"})</option>
                    {targets.map((choice) => (
                      <option key={choice.value} value={choice.value}>
                        {choice.label}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormError error={error} className="text-sm text-red-700" />
      <p role="status" className="text-sm text-slate-700">
        {saved}
      </p>
      <SubmitButton pending={pending} label="Save mapping" pendingLabel="Saving…" />
    </form>
  );
}
