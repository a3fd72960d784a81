"use client";

import { Field } from "@/components/ui/field";
import { buttonClass, inputClass, labelClass } from "@/components/ui/styles";
import { EXTRA_CHOICE, withField, type ConditionDraft } from "./rule-draft";
import {
  isOriginField,
  OPERATOR_LABELS,
  OPERATOR_NAMES,
  ORIGIN_FIELD_NAMES,
  ORIGIN_LABELS,
  originNoun,
  PHONE_FIELD,
  TEXT_FIELD_NAMES,
  TEXT_LABELS,
  type OriginField,
  type RoutingChoices,
} from "./rule-words";

const UTM_FIELDS = TEXT_FIELD_NAMES.filter((field) => field.startsWith("utm_"));
const LEAD_FIELDS = TEXT_FIELD_NAMES.filter((field) => !field.startsWith("utm_"));
const hintClass = "mt-1 text-xs text-slate-600";
const checkboxClass = "h-4 w-4 shrink-0 rounded border-slate-300";

/** One condition of the rule editor: its field, operator and values, and a button removing it. */
export function ConditionRow({
  idPrefix,
  number,
  condition,
  choices,
  autoFocus,
  onChange,
  onRemove,
}: {
  idPrefix: string;
  /** Its place among the conditions, from 1: names the row for screen readers. */
  number: number;
  condition: ConditionDraft;
  choices: RoutingChoices;
  /** A row just added takes the focus. */
  autoFocus: boolean;
  onChange: (condition: ConditionDraft) => void;
  onRemove: () => void;
}) {
  const id = (name: string) => `${idPrefix}-${condition.key}-${name}`;
  const origin = isOriginField(condition.field) ? condition.field : null;
  return (
    <div role="group" aria-label={`Condition ${number}`} className="space-y-3 rounded-lg border border-slate-200 p-4">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field id={id("field")} label="Field">
          <select
            id={id("field")}
            value={condition.field}
            onChange={(event) => onChange(withField(condition, event.target.value))}
            autoFocus={autoFocus}
            className={`${inputClass} mt-1.5`}
          >
            <optgroup label="Where the lead came from">
              {ORIGIN_FIELD_NAMES.map((field) => (
                <option key={field} value={field}>
                  {ORIGIN_LABELS[field]}
                </option>
              ))}
            </optgroup>
            <optgroup label="UTM">
              {UTM_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {TEXT_LABELS[field]}
                </option>
              ))}
            </optgroup>
            <optgroup label="The lead's fields">
              {LEAD_FIELDS.map((field) => (
                <option key={field} value={field}>
                  {TEXT_LABELS[field]}
                </option>
              ))}
              <option value={PHONE_FIELD}>Phone country</option>
              <option value={EXTRA_CHOICE}>Extra field…</option>
            </optgroup>
          </select>
        </Field>
        <Field id={id("op")} label="Operator">
          <select
            id={id("op")}
            value={origin ? "one_of" : condition.op}
            onChange={(event) => onChange({ ...condition, op: event.target.value as ConditionDraft["op"] })}
            className={`${inputClass} mt-1.5`}
          >
            {(origin ? (["one_of"] as const) : OPERATOR_NAMES).map((op) => (
              <option key={op} value={op}>
                {OPERATOR_LABELS[op]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      {condition.field === EXTRA_CHOICE ? (
        <Field id={id("extra")} label="Extra field name">
          <input
            id={id("extra")}
            value={condition.extraName}
            onChange={(event) => onChange({ ...condition, extraName: event.target.value })}
            required
            maxLength={100}
            placeholder="e.g. favourite_colour"
            aria-describedby={id("extra-hint")}
            className={`${inputClass} mt-1.5`}
          />
          <p id={id("extra-hint")} className={hintClass}>
            As the lead&apos;s body names it: a field create_lead does not know is kept as an extra field.
          </p>
        </Field>
      ) : null}
      {origin ? (
        <OriginValues idPrefix={id("values")} field={origin} condition={condition} choices={choices} onChange={onChange} />
      ) : (
        <Field id={id("values")} label="Values">
          <textarea
            id={id("values")}
            value={condition.text}
            onChange={(event) => onChange({ ...condition, text: event.target.value })}
            required
            rows={2}
            placeholder={condition.field === PHONE_FIELD ? "+44, +353" : "e.g. google, bing"}
            aria-describedby={id("values-hint")}
            className={`${inputClass} mt-1.5`}
          />
          <p id={id("values-hint")} className={hintClass}>
            Separate values with commas or new lines; case and accents are ignored.
          </p>
        </Field>
      )}
      <button type="button" onClick={onRemove} aria-label={`Remove condition ${number}`} className={buttonClass("ghost", "sm")}>
        Remove condition
      </button>
    </div>
  );
}

/** Where the lead came from: the team's sources (or web forms, connections, API keys), ticked. */
function OriginValues({
  idPrefix,
  field,
  condition,
  choices,
  onChange,
}: {
  idPrefix: string;
  field: OriginField;
  condition: ConditionDraft;
  choices: RoutingChoices;
  onChange: (condition: ConditionDraft) => void;
}) {
  const noun = originNoun(field);
  // A ticked one deleted since stays listed, so that it can be unticked.
  const known = choices.origins[field];
  const gone = condition.picked.filter((id) => !known.some((choice) => choice.value === id));
  const options = [...known, ...gone.map((id) => ({ value: id, label: `A deleted ${noun}` }))];
  const toggle = (value: string, on: boolean) =>
    onChange({ ...condition, picked: on ? [...condition.picked, value] : condition.picked.filter((picked) => picked !== value) });
  return (
    <fieldset>
      <legend className={labelClass}>{`Which ${noun}s`}</legend>
      {options.length ? (
        <div className="mt-1.5 grid grid-cols-1 gap-1.5 sm:grid-cols-2">
          {options.map((option, index) => (
            <label key={option.value} htmlFor={`${idPrefix}-${index}`} className="flex items-start gap-2 text-sm text-slate-700">
              <input
                id={`${idPrefix}-${index}`}
                type="checkbox"
                checked={condition.picked.includes(option.value)}
                onChange={(event) => toggle(option.value, event.target.checked)}
                className={`${checkboxClass} mt-0.5`}
              />
              <span className="min-w-0 [overflow-wrap:anywhere]">{option.label}</span>
            </label>
          ))}
        </div>
      ) : (
        <p className="mt-1.5 text-sm text-slate-600">{`The team has no ${noun}s yet.`}</p>
      )}
    </fieldset>
  );
}
