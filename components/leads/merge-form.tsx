"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { mergeLeadsAction } from "@/app/t/[slug]/leads/actions";
import { MERGE_FIELDS, type MergeField } from "@/lib/leads/merge-fields";
import { FormError } from "@/components/ui/form-error";
import { cardClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";

export type MergeCandidate = { id: string; name: string; createdAt: string; values: Record<string, string | null> };

const th = "px-3 py-2 text-left text-xs font-semibold text-slate-700";
const td = "px-3 py-2 text-sm text-slate-800 align-top";

/** The merge choices: which duplicates to merge, and per field which lead's value to keep. */
export function MergeForm({
  slug,
  survivorId,
  candidates,
  defaults,
}: {
  slug: string;
  survivorId: string;
  candidates: MergeCandidate[];
  defaults: Record<MergeField, string>;
}) {
  const router = useRouter();
  const [included, setIncluded] = useState<ReadonlySet<string>>(new Set(candidates.map((c) => c.id).filter((id) => id !== survivorId)));
  const [choices, setChoices] = useState<Record<MergeField, string>>(defaults);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const active = (id: string) => id === survivorId || included.has(id);
  // A choice on a lead left out falls back to the survivor's value.
  const chosen = (field: MergeField) => (active(choices[field]) ? choices[field] : survivorId);
  const fields = MERGE_FIELDS.filter(([field]) => candidates.some((c) => c.values[field]));
  const count = included.size;

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setError(null);
    const picked = Object.fromEntries(fields.map(([field]) => [field, chosen(field)]));
    startTransition(async () => {
      const result = await mergeLeadsAction(slug, survivorId, [...included], picked);
      if (result.ok) router.push(`/t/${slug}/leads/${survivorId}`);
      else setError(result.error);
    });
  }

  return (
    <form onSubmit={submit}>
      <div className={`${cardClass} overflow-x-auto`}>
        <table className="min-w-full divide-y divide-slate-200">
          <caption className="sr-only">Values to keep, per field and lead</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>
                Field
              </th>
              {candidates.map((c) => (
                <th key={c.id} scope="col" className={th}>
                  <div className="font-mono">{c.id}</div>
                  {c.id === survivorId ? (
                    <div className="font-normal text-slate-600">Kept</div>
                  ) : (
                    <label className="mt-1 flex items-center gap-1.5 font-normal">
                      <input
                        type="checkbox"
                        checked={included.has(c.id)}
                        onChange={(event) =>
                          setIncluded((current) => {
                            const next = new Set(current);
                            if (event.target.checked) next.add(c.id);
                            else next.delete(c.id);
                            return next;
                          })
                        }
                      />
                      Merge {c.id}
                    </label>
                  )}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {fields.map(([field, label]) => (
              <tr key={field}>
                <th scope="row" className={`${td} font-medium`}>
                  {label}
                </th>
                {candidates.map((c) => (
                  <td key={c.id} className={td}>
                    <label className="flex items-start gap-1.5">
                      <input
                        type="radio"
                        name={field}
                        value={c.id}
                        disabled={!active(c.id)}
                        checked={chosen(field) === c.id}
                        onChange={() => setChoices((current) => ({ ...current, [field]: c.id }))}
                        aria-label={`${label} from ${c.id}: ${c.values[field] ?? "empty"}`}
                      />
                      <span className="break-words">{c.values[field] ?? <span className="text-slate-500">—</span>}</span>
                    </label>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <FormError error={error} className="mt-3 text-sm text-red-700" />
      <div className="mt-4">
        <SubmitButton
          pending={pending}
          disabled={count === 0}
          label={`Merge ${count === 1 ? "1 lead" : `${count} leads`} into ${survivorId}`}
          pendingLabel="Merging…"
        />
      </div>
    </form>
  );
}
