"use client";

import { Field } from "@/components/ui/field";
import { SelectOptions } from "@/components/ui/select-options";
import { inputClass, labelClass } from "@/components/ui/styles";
import { LATER_CHOICE, type RuleDraft } from "./rule-draft";
import type { MemberName } from "./rule-words";

const checkboxClass = "h-4 w-4 shrink-0 rounded border-slate-300";
const hintClass = "mt-1 text-xs text-slate-600";

type Assignee = Pick<RuleDraft, "mode" | "single" | "order" | "rotation" | "fallback">;

/** Who gets a rule's leads: one member or a round robin over ticked members, and the rule's fallback. */
export function AssigneeFields({
  idPrefix,
  draft,
  members,
  onChange,
}: {
  idPrefix: string;
  draft: Assignee;
  members: readonly MemberName[];
  onChange: (change: Partial<Assignee>) => void;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const byId = new Map(members.map((member) => [member.id, member]));
  const choices = members.map((member) => ({ value: member.id, label: member.long }));
  const toggle = (userId: string, on: boolean) =>
    onChange({ rotation: on ? [...draft.rotation, userId] : draft.rotation.filter((picked) => picked !== userId) });
  return (
    <>
      <fieldset>
        <legend className={labelClass}>Who gets the leads</legend>
        <div className="mt-1.5 flex flex-wrap gap-x-6 gap-y-1.5">
          {(
            [
              ["member", "One member"],
              ["round_robin", "Round robin"],
            ] as const
          ).map(([mode, text]) => (
            <label key={mode} className="flex items-center gap-2 text-sm text-slate-700">
              <input
                type="radio"
                name={id("mode")}
                value={mode}
                checked={draft.mode === mode}
                onChange={() => onChange({ mode })}
                className="h-4 w-4 border-slate-300"
              />
              {text}
            </label>
          ))}
        </div>
      </fieldset>
      {draft.mode === "member" ? (
        <Field id={id("member")} label="Member">
          <select
            id={id("member")}
            value={draft.single}
            onChange={(event) => onChange({ single: event.target.value })}
            required
            className={`${inputClass} mt-1.5`}
          >
            <SelectOptions none="Choose a member" choices={choices} />
          </select>
        </Field>
      ) : (
        <fieldset aria-describedby={id("rotation-hint")}>
          <legend className={labelClass}>Members, in turn order</legend>
          <p id={id("rotation-hint")} className={hintClass}>
            The ticked members take turns in the order listed; whoever is away or outside their working hours is skipped.
          </p>
          <div className="mt-1.5 space-y-1.5">
            {draft.order.map((userId) => (
              <label key={userId} htmlFor={id(`rotation-${userId}`)} className="flex items-start gap-2 text-sm text-slate-700">
                <input
                  id={id(`rotation-${userId}`)}
                  type="checkbox"
                  checked={draft.rotation.includes(userId)}
                  onChange={(event) => toggle(userId, event.target.checked)}
                  className={`${checkboxClass} mt-0.5`}
                />
                <span className="min-w-0 [overflow-wrap:anywhere]">{byId.get(userId)?.long ?? userId}</span>
              </label>
            ))}
          </div>
        </fieldset>
      )}
      <Field id={id("fallback")} label="If nobody it names is on duty">
        <select
          id={id("fallback")}
          value={draft.fallback}
          onChange={(event) => onChange({ fallback: event.target.value })}
          className={`${inputClass} mt-1.5`}
        >
          <SelectOptions
            none="Leave unassigned"
            choices={[{ value: LATER_CHOICE, label: "The next member on duty, when one is" }, ...choices]}
          />
        </select>
      </Field>
    </>
  );
}
