import { Field } from "@/components/ui/field";
import { inputClass, labelClass } from "@/components/ui/styles";

export type EndpointFieldValues = { url: string; description: string | null; events: string[] };

/** The events an endpoint can subscribe to; a new endpoint starts with lead.created only. */
const EVENT_CHOICES = [
  { event: "lead.created", description: "a lead was created", onForNew: true },
  { event: "lead.updated", description: "a lead's status or owner changed", onForNew: false },
  { event: "lead.submitted", description: "a person submitted again and it joined their lead", onForNew: false },
  { event: "lead.consent_changed", description: "a person confirmed consent by email, or withdrew it", onForNew: false },
] as const;

/** The URL, description and events of an endpoint: the add and edit dialogs' fields. */
export function EndpointFields({ idPrefix, initial }: { idPrefix: string; initial?: EndpointFieldValues }) {
  return (
    <>
      <Field id={`${idPrefix}-url`} label="URL">
        <input
          id={`${idPrefix}-url`}
          name="url"
          type="url"
          required
          maxLength={2000}
          defaultValue={initial?.url}
          placeholder="https://example.com/hooks/leads"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <Field id={`${idPrefix}-description`} label="Description" optional>
        <input
          id={`${idPrefix}-description`}
          name="description"
          maxLength={200}
          defaultValue={initial?.description ?? ""}
          placeholder="e.g. CRM sync"
          className={`${inputClass} mt-1.5`}
        />
      </Field>
      <fieldset>
        <legend className={labelClass}>Events</legend>
        {EVENT_CHOICES.map((choice) => (
          <label key={choice.event} className="mt-1.5 flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              name="events"
              value={choice.event}
              defaultChecked={initial ? initial.events.includes(choice.event) : choice.onForNew}
              className="h-4 w-4 rounded border-slate-300"
            />
            <code className="font-mono">{choice.event}</code>: {choice.description}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** The fields of a submitted add or edit form, as the server actions take them. */
export const endpointInput = (form: FormData) => ({
  url: String(form.get("url") ?? ""),
  description: String(form.get("description") ?? ""),
  events: form.getAll("events").map(String),
});
