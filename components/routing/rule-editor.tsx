"use client";

import { useRef, useState } from "react";
import { saveRuleAction } from "@/app/t/[slug]/settings/routing/actions";
import { Field } from "@/components/ui/field";
import { FormError } from "@/components/ui/form-error";
import { PlusIcon } from "@/components/ui/icons";
import { buttonClass, cardClass, inputClass, labelClass } from "@/components/ui/styles";
import { SubmitButton } from "@/components/ui/submit-button";
import { useActionRunner } from "@/components/ui/use-action-runner";
import type { StoredRule } from "@/lib/routing/assignment-rules";
import { AssigneeFields } from "./assignee-fields";
import { ConditionRow } from "./condition-row";
import { draftOf, inputOf, newCondition, nextConditionKey, type ConditionDraft, type RuleDraft } from "./rule-draft";
import type { RoutingChoices } from "./rule-words";

const UNREACHABLE = "The server could not be reached; nothing was saved. Try again.";

/**
 * Adds a rule (`rule` null) or changes one: its name, whether it is on, its conditions (all must
 * hold; none: any lead) and who gets its leads. The server checks everything again; a refusal
 * stays in the form, a success calls `onSaved` (the page shows the list as saved).
 */
export function RuleEditor({
  slug,
  rule,
  choices,
  onSaved,
  onCancel,
}: {
  slug: string;
  rule: StoredRule | null;
  choices: RoutingChoices;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState<RuleDraft>(() =>
    draftOf(
      rule,
      choices.members.map((member) => member.id),
    ),
  );
  const { pending, error, run } = useActionRunner();
  // One editor is open at a time: the rule's id keeps its fields' ids apart from the page's others.
  const idPrefix = `rule-${rule?.id ?? "new"}`;
  // A condition just added takes the focus; after a removal, "Add a condition" does.
  const [addedKey, setAddedKey] = useState<number | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const titleId = `${idPrefix}-title`;
  const change = (patch: Partial<RuleDraft>) => setDraft((current) => ({ ...current, ...patch }));
  const setCondition = (key: number, next: ConditionDraft) =>
    change({ conditions: draft.conditions.map((condition) => (condition.key === key ? next : condition)) });

  function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const input = inputOf(draft);
    run(
      () => saveRuleAction(slug, rule?.id ?? null, input).catch(() => ({ ok: false as const, error: UNREACHABLE })),
      (result) => result.ok && onSaved(),
    );
  }

  return (
    <form onSubmit={onSubmit} aria-labelledby={titleId} className={`${cardClass} space-y-5 p-5`}>
      <h4 id={titleId} className="text-base font-semibold [overflow-wrap:anywhere] text-slate-900">
        {rule ? `Edit rule ${rule.name}` : "Add a rule"}
      </h4>
      <Field id={`${idPrefix}-name`} label="Name">
        <input
          id={`${idPrefix}-name`}
          value={draft.name}
          onChange={(event) => change({ name: event.target.value })}
          required
          maxLength={100}
          placeholder="e.g. Google Ads leads"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          checked={draft.enabled}
          onChange={(event) => change({ enabled: event.target.checked })}
          className="h-4 w-4 rounded border-slate-300"
        />
        Enabled (a disabled rule is skipped)
      </label>
      <fieldset className="space-y-3">
        <legend className={labelClass}>Conditions</legend>
        <p className="text-xs text-slate-600">All must hold for the rule to match. With none, the rule matches any lead (put it last).</p>
        {draft.conditions.map((condition, index) => (
          <ConditionRow
            key={condition.key}
            idPrefix={idPrefix}
            number={index + 1}
            condition={condition}
            choices={choices}
            autoFocus={condition.key === addedKey}
            onChange={(next) => setCondition(condition.key, next)}
            onRemove={() => {
              change({ conditions: draft.conditions.filter((other) => other.key !== condition.key) });
              addButton.current?.focus();
            }}
          />
        ))}
        <button
          ref={addButton}
          type="button"
          onClick={() => {
            const key = nextConditionKey(draft.conditions);
            setAddedKey(key);
            change({ conditions: [...draft.conditions, newCondition(key)] });
          }}
          className={buttonClass("secondary", "sm")}
        >
          <PlusIcon /> Add a condition
        </button>
      </fieldset>
      <AssigneeFields idPrefix={idPrefix} draft={draft} members={choices.members} onChange={change} />
      <FormError error={error} className="text-sm text-red-700" />
      <div className="flex flex-wrap justify-end gap-2">
        <button type="button" onClick={onCancel} className={buttonClass("secondary")}>
          Cancel
        </button>
        <SubmitButton pending={pending} label="Save rule" pendingLabel="Saving…" />
      </div>
    </form>
  );
}
