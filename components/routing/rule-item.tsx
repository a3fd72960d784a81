"use client";

import { useEffect, useRef } from "react";
import { deleteRuleAction, moveRuleAction } from "@/app/t/[slug]/settings/routing/actions";
import { OnOffBadge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { FormError } from "@/components/ui/form-error";
import { buttonClass } from "@/components/ui/styles";
import { useActionRunner } from "@/components/ui/use-action-runner";
import { useHydrated } from "@/components/ui/use-hydrated";
import type { StoredRule } from "@/lib/routing/assignment-rules";
import { describeAssignee, describeConditions, describeFallback, type RoutingChoices } from "./rule-words";

const UNREACHABLE = "The server could not be reached; nothing was changed. Try again.";

/**
 * One rule of the ordered list: its place, name, conditions and who gets its leads, in words,
 * with Move up, Move down, Edit and Delete, each named after the rule for screen readers.
 */
export function RuleItem({
  slug,
  rule,
  place,
  count,
  choices,
  onEdit,
}: {
  slug: string;
  rule: StoredRule;
  /** Its place in the list, from 1. */
  place: number;
  count: number;
  choices: RoutingChoices;
  onEdit: (opener: HTMLButtonElement) => void;
}) {
  const { pending, error, run } = useActionRunner();
  // Until hydrated, a click would do nothing.
  const hydrated = useHydrated();
  const up = useRef<HTMLButtonElement>(null);
  const down = useRef<HTMLButtonElement>(null);
  const moved = useRef<-1 | 1 | null>(null);
  const move = (by: -1 | 1) => {
    if (pending) return;
    moved.current = by;
    run(
      () => moveRuleAction(slug, rule.id, by).catch(() => ({ ok: false as const, error: UNREACHABLE })),
      (result) => {
        if (!result.ok) moved.current = null;
      },
    );
  };
  // The focus stays on the button that moved the rule, unless the rule reached that end of the
  // list: that button is disabled there, so the other one takes the focus.
  useEffect(() => {
    const by = moved.current;
    moved.current = null;
    if (by === -1 && place === 1) down.current?.focus();
    if (by === 1 && place === count) up.current?.focus();
  }, [place, count]);
  const small = buttonClass("secondary", "sm");
  return (
    <li className="space-y-3 px-5 py-4">
      <div className="flex flex-wrap items-center gap-2">
        <span className="text-sm font-semibold text-slate-500" aria-hidden="true">
          {place}.
        </span>
        <h4 className="text-sm font-semibold [overflow-wrap:anywhere] text-slate-900">
          <span className="sr-only">{`Rule ${place}: `}</span>
          {rule.name}
        </h4>
        <OnOffBadge on={rule.enabled} labels={["Enabled", "Disabled"]} />
      </div>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="text-slate-600">Matches</dt>
        <dd className="[overflow-wrap:anywhere] text-slate-900">
          <ul>
            {describeConditions(rule, choices).map((phrase, index) => (
              <li key={index}>{index ? `and ${phrase}` : phrase}</li>
            ))}
          </ul>
        </dd>
        <dt className="text-slate-600">Goes to</dt>
        <dd className="[overflow-wrap:anywhere] text-slate-900">{describeAssignee(rule, choices.members)}</dd>
        <dt className="text-slate-600">If nobody is on duty</dt>
        <dd className="[overflow-wrap:anywhere] text-slate-900">{describeFallback(rule, choices.members)}</dd>
      </dl>
      <div className="flex flex-wrap items-center gap-2">
        <button
          type="button"
          ref={up}
          disabled={!hydrated || place === 1}
          onClick={() => move(-1)}
          aria-label={`Move up rule ${rule.name}`}
          className={small}
        >
          Move up
        </button>
        <button
          type="button"
          ref={down}
          disabled={!hydrated || place === count}
          onClick={() => move(1)}
          aria-label={`Move down rule ${rule.name}`}
          className={small}
        >
          Move down
        </button>
        <button
          type="button"
          disabled={!hydrated}
          onClick={(event) => onEdit(event.currentTarget)}
          aria-label={`Edit rule ${rule.name}`}
          className={small}
        >
          Edit
        </button>
        <ConfirmButton
          label={`Delete rule ${rule.name}`}
          className={small}
          title={`Delete rule "${rule.name}"?`}
          description="New leads it would have matched go to the next rule that matches, or the team's fallback. Leads it already assigned keep their owner."
          confirmLabel="Delete rule"
          pendingLabel="Deleting…"
          action={() => deleteRuleAction(slug, rule.id)}
        >
          Delete
        </ConfirmButton>
        <FormError error={error} className="text-xs text-red-700" />
      </div>
    </li>
  );
}
