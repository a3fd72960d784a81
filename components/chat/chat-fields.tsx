import { Field } from "@/components/ui/field";
import { inputClass, labelClass } from "@/components/ui/styles";
import { PLATFORM_LABELS, CHAT_PLATFORMS } from "@/lib/chat/chat-platforms";

export type ChatFieldValues = {
  name: string;
  postNewLeads: boolean;
  postAssignments: boolean;
  postReminders: boolean;
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

/** The name and what is posted: the add and edit dialogs' fields. Contact details are off by default. */
export function ChatFields({ idPrefix, initial }: { idPrefix: string; initial?: ChatFieldValues }) {
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
      </fieldset>
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
});
