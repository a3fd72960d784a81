import { CONSENT_FILTERS, CONSENT_STATUS_LABELS, OWNER_ME, OWNER_NONE, RETURNED_7D, type LeadFilter } from "@/lib/leads/lead-filter";
import { LEAD_STATUS_LABELS, LEAD_STATUSES } from "@/lib/leads/lead-status";
import { CHANNEL_GROUPS } from "@/lib/attribution/channel-groups";
import { Field } from "@/components/ui/field";
import { SearchBox } from "@/components/ui/search-box";
import { namedChoices, SelectOptions, type Choice } from "@/components/ui/select-options";
import { buttonClass, inputClass } from "@/components/ui/styles";

export type FilterChoices = {
  sources: { id: string; name: string }[];
  keys: { keyId: string; description: string | null }[];
  forms: { id: string; name: string }[];
  connections: { id: string; name: string }[];
  /** The team's members: the owner filter's choices. */
  members: { userId: string; email: string; name: string | null }[];
};

/**
 * A plain GET form: the search, filters and sort live in the URL, so they can be shared,
 * survive reloads and come back with "← Leads". A new search starts at the first page.
 */
export function LeadSearch({ action, filter, choices }: { action: string; filter: LeadFilter; choices: FilterChoices }) {
  const filtered = Boolean(
    filter.sourceId ||
    filter.utmSource ||
    filter.utmCampaign ||
    filter.channelGroup ||
    filter.apiKeyId ||
    filter.formId ||
    filter.connectionId ||
    filter.status ||
    filter.consent ||
    filter.owner ||
    filter.createdFrom ||
    filter.createdTo ||
    filter.duplicatesOnly ||
    filter.returned,
  );
  return (
    <form role="search" aria-label="Search and filter leads" action={action} className="w-full max-w-2xl space-y-3">
      {/* The import filter comes from an import's result ("View imported leads") and stays while searching. */}
      {filter.importId ? <input type="hidden" name="import" value={filter.importId} /> : null}
      <SearchBox id="lead-search" label="Search leads" query={filter.query} placeholder="Name, email, phone, organization or lead id" />
      <details open={filtered || filter.sort !== "newest"} className="rounded-md text-sm">
        <summary className="cursor-pointer font-medium text-slate-700">Filters and sort</summary>
        <div className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
          <FilterSelect
            id="filter-status"
            label="Status"
            name="status"
            value={filter.status}
            any="Any status"
            options={LEAD_STATUSES.map((status) => ({ value: status, label: LEAD_STATUS_LABELS[status] }))}
          />
          <FilterSelect
            id="filter-owner"
            label="Owner"
            name="owner"
            value={filter.owner}
            any="Any owner"
            options={[
              { value: OWNER_ME, label: "Me" },
              { value: OWNER_NONE, label: "Unassigned" },
              ...choices.members.map((member) => ({
                value: member.userId,
                label: member.name ? `${member.name} (${member.email})` : member.email,
              })),
            ]}
          />
          <FilterSelect
            id="filter-source"
            label="Source"
            name="source"
            value={filter.sourceId}
            any="Any source"
            options={namedChoices(choices.sources)}
          />
          <FilterSelect
            id="filter-channel"
            label="Channel group"
            name="channel"
            value={filter.channelGroup}
            any="Any channel group"
            options={CHANNEL_GROUPS.map((group) => ({ value: group, label: group }))}
          />
          <FilterSelect
            id="filter-key"
            label="Created by key"
            name="key"
            value={filter.apiKeyId}
            any="Any key"
            options={choices.keys.map((key) => ({
              value: key.keyId,
              label: key.description ? `${key.description} (${key.keyId})` : key.keyId,
            }))}
          />
          <FilterSelect
            id="filter-form"
            label="Created by form"
            name="form"
            value={filter.formId}
            any="Any form"
            options={choices.forms.map((form) => ({ value: form.id, label: `${form.name} (${form.id})` }))}
          />
          {choices.connections.length ? (
            <FilterSelect
              id="filter-connection"
              label="Created by connection"
              name="connection"
              value={filter.connectionId}
              any="Any connection"
              options={namedChoices(choices.connections)}
            />
          ) : null}
          <FilterSelect
            id="filter-consent"
            label="Consent"
            name="consent"
            value={filter.consent}
            any="Any consent"
            options={CONSENT_FILTERS.map((status) => ({ value: status, label: CONSENT_STATUS_LABELS[status] }))}
          />
          <FilterInput id="filter-utm-source" label="UTM source" name="utm_source" value={filter.utmSource ?? ""} maxLength={200} />
          <FilterInput id="filter-utm-campaign" label="UTM campaign" name="utm_campaign" value={filter.utmCampaign ?? ""} maxLength={200} />
          <FilterInput id="filter-from" label="Created from (UTC)" name="from" type="date" value={filter.createdFrom ?? ""} />
          <FilterInput id="filter-to" label="Created to (UTC, inclusive)" name="to" type="date" value={filter.createdTo ?? ""} />
          <Field id="filter-sort" label="Sort">
            <select id="filter-sort" name="sort" defaultValue={filter.sort} className={`${inputClass} mt-1`}>
              <option value="newest">Newest first</option>
              <option value="oldest">Oldest first</option>
            </select>
          </Field>
          <div className="flex items-end">
            <label className="flex items-center gap-2 text-slate-800">
              <input type="checkbox" name="duplicates" value="1" defaultChecked={filter.duplicatesOnly} className="h-4 w-4" />
              Possible duplicates only
            </label>
          </div>
          <div className="flex items-end">
            <label className="flex items-center gap-2 text-slate-800">
              <input
                type="checkbox"
                name="returned"
                value={RETURNED_7D}
                defaultChecked={filter.returned === RETURNED_7D}
                className="h-4 w-4"
              />
              Returned in the last 7 days
            </label>
          </div>
        </div>
        <div className="mt-3">
          <button type="submit" className={buttonClass("secondary", "sm")}>
            Apply filters
          </button>
        </div>
      </details>
    </form>
  );
}

/** A choice among the team's sources, keys or forms, with "any" first. */
function FilterSelect({
  id,
  label,
  name,
  value,
  any,
  options,
}: {
  id: string;
  label: string;
  name: string;
  value: string | null;
  any: string;
  options: Choice[];
}) {
  return (
    <Field id={id} label={label}>
      <select id={id} name={name} defaultValue={value ?? ""} className={`${inputClass} mt-1`}>
        <SelectOptions none={any} choices={options} />
      </select>
    </Field>
  );
}

function FilterInput({
  id,
  label,
  name,
  type = "text",
  value,
  maxLength,
}: {
  id: string;
  label: string;
  name: string;
  type?: string;
  value: string;
  maxLength?: number;
}) {
  return (
    <Field id={id} label={label}>
      <input id={id} name={name} type={type} defaultValue={value} maxLength={maxLength} className={`${inputClass} mt-1`} />
    </Field>
  );
}
