"use client";

import { useActionState, useState } from "react";
import { addSpamListValuesAction, removeSpamListEntryAction, type AddValuesState } from "@/app/t/[slug]/settings/spam/actions";
import { RowActionButton } from "@/components/ui/row-action-button";
import { SubmitButton } from "@/components/ui/submit-button";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

function addedText(state: AddValuesState): string | null {
  if (!state?.ok) return null;
  const added = state.added ? `${plural(state.added, "entry", "entries")} added.` : "Nothing new added.";
  return state.existing ? `${added} ${plural(state.existing, "was", "were")} already on the list.` : added;
}

/**
 * One of the team's spam lists (Settings → Spam): its entries, and for owners and admins a
 * Remove button on each and a box taking several values, one per line. A refused line keeps
 * the text as typed and is named under the box with its reason.
 */
export function SpamListCard(props: {
  slug: string;
  list: string;
  title: string;
  hint: string;
  example: string;
  entries: { id: string; value: string }[];
  canEdit: boolean;
}) {
  const [text, setText] = useState("");
  const [state, action, pending] = useActionState(async (previous: AddValuesState, form: FormData) => {
    const next = await addSpamListValuesAction(previous, form);
    if (next?.ok) setText("");
    return next;
  }, null);
  const id = `spam-list-${props.list}`;
  const problems = state && !state.ok ? state.problems : [];
  return (
    <section aria-labelledby={`${id}-title`} className={`${cardClass} space-y-4 p-5`}>
      <div>
        <h4 id={`${id}-title`} className="text-sm font-semibold text-slate-900">
          {props.title} <span className="font-normal text-slate-500">({props.entries.length})</span>
        </h4>
        <p className="mt-0.5 text-xs text-slate-500">{props.hint}</p>
      </div>
      {props.entries.length ? (
        <ul aria-label={props.title} className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200">
          {props.entries.map((entry) => (
            <li key={entry.id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-1.5">
              <span className="font-mono text-xs [overflow-wrap:anywhere] text-slate-900">{entry.value}</span>
              {props.canEdit ? (
                <span className="flex items-center gap-2">
                  <RowActionButton
                    text="Remove"
                    pendingText="Removing…"
                    label={`Remove ${entry.value} from ${props.title}`}
                    action={() => removeSpamListEntryAction(props.slug, entry.id)}
                  />
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">No entries.</p>
      )}
      {props.canEdit ? (
        <form action={action} className="space-y-2">
          <input type="hidden" name="slug" value={props.slug} />
          <input type="hidden" name="list" value={props.list} />
          <label htmlFor={`${id}-values`} className={labelClass}>
            Add to {props.title}, one per line
          </label>
          <textarea
            id={`${id}-values`}
            name="values"
            rows={2}
            value={text}
            onChange={(event) => setText(event.target.value)}
            placeholder={props.example}
            aria-invalid={problems.length ? true : undefined}
            aria-describedby={problems.length ? `${id}-problems` : undefined}
            className={`${inputClass} font-mono`}
          />
          {problems.length ? (
            <ul id={`${id}-problems`} className="list-disc space-y-0.5 pl-5 text-sm text-red-700">
              {problems.map((problem) => (
                <li key={problem.line}>
                  Line {problem.line}: {problem.error}
                </li>
              ))}
            </ul>
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <SubmitButton pending={pending} label="Add" pendingLabel="Adding…" className={buttonClass("secondary")} />
            {state && !state.ok ? (
              <span role="alert" className="text-sm text-red-700">
                {state.error}
              </span>
            ) : (
              <span role="status" className="text-sm text-emerald-700">
                {addedText(state)}
              </span>
            )}
          </div>
        </form>
      ) : null}
    </section>
  );
}
