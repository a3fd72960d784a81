import { useState } from "react";
import { Field } from "@/components/ui/field";
import { inputClass, labelClass } from "@/components/ui/styles";
import { PLATFORM_LABELS, CHAT_PLATFORMS } from "@/lib/chat/chat-platforms";
import { CONDITION_LABELS, FILTER_CONDITIONS, isAnyLead, type NewLeadFilter, type NewLeadFilterChoices } from "@/lib/chat/new-lead-filter";

export type ChatFieldValues = {
  name: string;
  postNewLeads: boolean;
  newLeadFilter: NewLeadFilter;
  postAssignments: boolean;
  postReminders: boolean;
  postRepeats: boolean;
  includeFields: string[];
};

const checkbox = "h-4 w-4 rounded border-slate-300";
const choice = "mt-1.5 flex items-center gap-2 text-sm text-slate-700";

/** The add dialog's URL and platform: the platform is recognised from the URL unless chosen. */
export function ChatUrlFields({ idPrefix }: { idPrefix: string }) {
  return (
    <>
      <Field id={`${idPrefix}-url`} label="Incoming webhook URL">
        <input
          id={`${idPrefix}-url`}
          name="url"
          type="url"
          required
          maxLength={2000}
          autoComplete="off"
          placeholder="https://hooks.slack.com/services/…"
          className={`${inputClass} mt-1.5`}
          autoFocus
        />
      </Field>
      <Field id={`${idPrefix}-platform`} label="Platform">
        <select id={`${idPrefix}-platform`} name="platform" defaultValue="" className={`${inputClass} mt-1.5`}>
          <option value="">Recognise from the URL</option>
          {CHAT_PLATFORMS.map((platform) => (
            <option key={platform} value={platform}>
              {PLATFORM_LABELS[platform]}
            </option>
          ))}
        </select>
      </Field>
    </>
  );
}

/** What each condition's empty list says. */
const NONE_YET: Record<keyof NewLeadFilter, string> = {
  sourceIds: "No sources yet.",
  formIds: "No web forms yet.",
  connectionIds: "No connections yet.",
  apiKeyIds: "No API keys yet.",
  channelGroups: "",
  ownerIds: "No members yet.",
};

/**
 * Which new leads (and repeat submissions) are posted: all, or only those matching every
 * condition ticked (a lead matches a condition when it has one of its ticked values).
 */
function NewLeadConditions({ idPrefix, initial, choices }: { idPrefix: string; initial?: NewLeadFilter; choices: NewLeadFilterChoices }) {
  const [some, setSome] = useState(initial ? !isAnyLead(initial) : false);
  return (
    <fieldset>
      <legend className={labelClass}>Which new leads and repeat submissions</legend>
      <label className={choice}>
        <input type="radio" name="match" value="all" checked={!some} onChange={() => setSome(false)} className={checkbox} />
        All new leads
      </label>
      <label className={choice}>
        <input type="radio" name="match" value="some" checked={some} onChange={() => setSome(true)} className={checkbox} />
        Only new leads matching…
      </label>
      <div id={`${idPrefix}-conditions`} hidden={!some} className="mt-2 space-y-3 border-l-2 border-slate-200 pl-3">
        <p className="text-sm text-slate-600">A lead must match every condition ticked here: one of the values ticked under each.</p>
        {FILTER_CONDITIONS.map((condition) => (
          <fieldset key={condition}>
            <legend className="text-sm font-medium text-slate-800">{CONDITION_LABELS[condition]}</legend>
            {choices[condition].length === 0 ? (
              <p className="mt-1 text-sm text-slate-600">{NONE_YET[condition]}</p>
            ) : (
              <div className="mt-1 max-h-40 overflow-y-auto">
                {choices[condition].map((option) => (
                  <label key={option.value} className={choice}>
                    <input
                      type="checkbox"
                      name={condition}
                      value={option.value}
                      defaultChecked={initial?.[condition].includes(option.value) ?? false}
                      className={checkbox}
                    />
                    <span className="[overflow-wrap:anywhere]">{option.label}</span>
                  </label>
                ))}
              </div>
            )}
          </fieldset>
        ))}
      </div>
    </fieldset>
  );
}

/** The name and what is posted: the add and edit dialogs' fields. Contact details are off by default. */
export function ChatFields({ idPrefix, initial, choices }: { idPrefix: string; initial?: ChatFieldValues; choices: NewLeadFilterChoices }) {
  return (
    <>
      <Field id={`${idPrefix}-name`} label="Name">
        <input
          id={`${idPrefix}-name`}
          name="name"
          required
          maxLength={100}
          defaultValue={initial?.name}
          placeholder="e.g. #sales"
          className={`${inputClass} mt-1.5`}
        />
      </Field>
      <fieldset>
        <legend className={labelClass}>Post</legend>
        <label className={choice}>
          <input type="checkbox" name="posts" value="new" defaultChecked={initial?.postNewLeads ?? true} className={checkbox} />
          New leads
        </label>
        <label className={choice}>
          <input type="checkbox" name="posts" value="assigned" defaultChecked={initial?.postAssignments ?? true} className={checkbox} />
          Leads assigned to a member
        </label>
        <label className={choice}>
          <input type="checkbox" name="posts" value="reminder" defaultChecked={initial?.postReminders ?? false} className={checkbox} />
          Leads still New after the team&apos;s reminder time
        </label>
        <label className={choice}>
          <input type="checkbox" name="posts" value="repeat" defaultChecked={initial?.postRepeats ?? true} className={checkbox} />A repeat
          submission of an existing lead
        </label>
      </fieldset>
      <NewLeadConditions idPrefix={idPrefix} initial={initial?.newLeadFilter} choices={choices} />
      <fieldset>
        <legend className={labelClass}>Contact details in the message (a chat is often wider than the team)</legend>
        {(
          [
            ["email", "Email"],
            ["phone", "Phone"],
            ["extra", "Extra fields"],
          ] as const
        ).map(([field, label]) => (
          <label key={field} className={choice}>
            <input
              type="checkbox"
              name="fields"
              value={field}
              defaultChecked={initial?.includeFields.includes(field) ?? false}
              className={checkbox}
            />
            {label}
          </label>
        ))}
      </fieldset>
    </>
  );
}

/** The fields of a submitted form, as the server actions take them. */
export const chatInput = (form: FormData) => ({
  name: String(form.get("name") ?? ""),
  url: String(form.get("url") ?? ""),
  platform: String(form.get("platform") ?? ""),
  posts: form.getAll("posts").map(String),
  fields: form.getAll("fields").map(String),
  conditions: {
    match: String(form.get("match") ?? "all"),
    ...Object.fromEntries(FILTER_CONDITIONS.map((condition) => [condition, form.getAll(condition).map(String)])),
  },
});
