// The lead list's search, filters and sort as they live in the URL (docs/leads.md
// "Filters"). Parsing is total: a missing, malformed or oversized value is dropped, never
// an error, so a hand-edited or stale link still shows a list.

import { isChannelGroup, type ChannelGroup } from "../attribution/channel-groups";
import { CONSENT_STATUSES, type ConsentStatus } from "../consent/consent-evidence";
import { isLeadStatus, type LeadStatus } from "./lead-status";

export type LeadSort = "newest" | "oldest";

export type LeadFilter = {
  /** Name, last name, email or organization prefix; a phone number; or a lead id. */
  query: string;
  sourceId: string | null;
  utmSource: string | null;
  utmCampaign: string | null;
  /** The channel group of the last touch (Lead.channelGroup; lib/attribution/channel-groups.ts). */
  channelGroup: ChannelGroup | null;
  /** The API key that created the lead. */
  apiKeyId: string | null;
  /** The web form that created the lead. */
  formId: string | null;
  /** The form-builder connection that created the lead. */
  connectionId: string | null;
  /** The CSV import that created the lead. */
  importId: string | null;
  status: LeadStatus | null;
  /** The lead's current consent status (its newest evidence's; "none": it has no evidence). docs/consent.md. */
  consent: ConsentFilter | null;
  /**
   * The owner: a user id, "me" (the signed-in user: resolveOwner before querying; left
   * unresolved it matches no lead) or "none" (unassigned).
   */
  owner: string | null;
  /** Inclusive UTC days, YYYY-MM-DD. */
  createdFrom: string | null;
  createdTo: string | null;
  duplicatesOnly: boolean;
  /** "7d": leads with a submission in the last 7 days after their first (returnedAt in the window). */
  returned: ReturnedWindow | null;
  sort: LeadSort;
};

export const EMPTY_FILTER: LeadFilter = {
  query: "",
  sourceId: null,
  utmSource: null,
  utmCampaign: null,
  channelGroup: null,
  apiKeyId: null,
  formId: null,
  connectionId: null,
  importId: null,
  status: null,
  consent: null,
  owner: null,
  createdFrom: null,
  createdTo: null,
  duplicatesOnly: false,
  returned: null,
  sort: "newest",
};

type Params = URLSearchParams | Record<string, string | string[] | undefined>;

function read(params: Params, name: string): string | undefined {
  const value = params instanceof URLSearchParams ? params.get(name) : params[name];
  const text = Array.isArray(value) ? value[0] : value;
  return typeof text === "string" ? text : undefined;
}

function text(params: Params, name: string, max: number): string | null {
  const value = read(params, name)?.trim();
  return value ? value.slice(0, max) : null;
}

/** The "returned" filter's windows, by their URL value (`returned=7d`): its length in days. */
const RETURNED_WINDOWS = { "7d": 7 } as const;
export type ReturnedWindow = keyof typeof RETURNED_WINDOWS;
export const RETURNED_7D: ReturnedWindow = "7d";

function returnedWindow(value: string | undefined): ReturnedWindow | null {
  return value !== undefined && Object.hasOwn(RETURNED_WINDOWS, value) ? (value as ReturnedWindow) : null;
}

/** The consent filter's values: a status of the evidence, or "none" for a lead without any. */
export type ConsentFilter = ConsentStatus | "none";
export const CONSENT_FILTERS: readonly ConsentFilter[] = ["none", ...CONSENT_STATUSES];

/** How a consent status reads, on the lead's page and in the list's filter. */
export const CONSENT_STATUS_LABELS: Record<ConsentFilter, string> = {
  none: "None",
  given: "Given",
  not_given: "Not given",
  pending: "Pending confirmation",
  confirmed: "Confirmed",
  withdrawn: "Withdrawn",
  withdrawn_before: "Withdrew consent before",
};

function consentFilter(value: string | undefined): ConsentFilter | null {
  return CONSENT_FILTERS.find((status) => status === value) ?? null;
}

/** The owner filter's words beside a user id. */
export const OWNER_ME = "me";
export const OWNER_NONE = "none";
const USER_ID = /^[A-Za-z0-9_-]{1,40}$/;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(params: Params, name: string): string | null {
  const value = read(params, name)?.trim();
  if (!value || !DAY.test(value)) return null;
  const date = new Date(`${value}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value ? null : value;
}

/** The filter named by a URL's query string (the list page's searchParams). */
export function parseLeadFilter(params: Params): LeadFilter {
  return {
    query: text(params, "q", 100) ?? "",
    sourceId: text(params, "source", 40),
    utmSource: text(params, "utm_source", 200),
    utmCampaign: text(params, "utm_campaign", 200),
    channelGroup: ((value) => (isChannelGroup(value) ? value : null))(read(params, "channel")),
    apiKeyId: text(params, "key", 40),
    formId: text(params, "form", 40),
    connectionId: text(params, "connection", 40),
    importId: text(params, "import", 40),
    status: ((value) => (isLeadStatus(value) ? value : null))(read(params, "status")),
    consent: consentFilter(read(params, "consent")),
    owner: ((value) => (value && USER_ID.test(value) ? value : null))(read(params, "owner")),
    createdFrom: day(params, "from"),
    createdTo: day(params, "to"),
    duplicatesOnly: read(params, "duplicates") === "1",
    returned: returnedWindow(read(params, "returned")),
    sort: read(params, "sort") === "oldest" ? "oldest" : "newest",
  };
}

/** The URL parameters of a filter (only what differs from no filter), in a fixed order. */
export function filterParams(filter: LeadFilter): Record<string, string> {
  const params: Record<string, string> = {};
  if (filter.query) params.q = filter.query;
  if (filter.sourceId) params.source = filter.sourceId;
  if (filter.utmSource) params.utm_source = filter.utmSource;
  if (filter.utmCampaign) params.utm_campaign = filter.utmCampaign;
  if (filter.channelGroup) params.channel = filter.channelGroup;
  if (filter.apiKeyId) params.key = filter.apiKeyId;
  if (filter.formId) params.form = filter.formId;
  if (filter.connectionId) params.connection = filter.connectionId;
  if (filter.importId) params.import = filter.importId;
  if (filter.status) params.status = filter.status;
  if (filter.consent) params.consent = filter.consent;
  if (filter.owner) params.owner = filter.owner;
  if (filter.createdFrom) params.from = filter.createdFrom;
  if (filter.createdTo) params.to = filter.createdTo;
  if (filter.duplicatesOnly) params.duplicates = "1";
  if (filter.returned) params.returned = filter.returned;
  if (filter.sort !== "newest") params.sort = filter.sort;
  return params;
}

/** True when the filter narrows the list (the sort alone does not). */
export function narrows(filter: LeadFilter): boolean {
  return Object.keys(filterParams({ ...filter, sort: "newest" })).length > 0;
}

/** The filter as the store reads it: owner "me" becomes the signed-in user's id (null: none, then it matches no lead). */
export function resolveOwner(filter: LeadFilter, userId: string | null): LeadFilter {
  return filter.owner === OWNER_ME && userId ? { ...filter, owner: userId } : filter;
}

/** The owner column's value of the filter: undefined when it does not filter, null for unassigned. */
export function ownerIdFilter(filter: Pick<LeadFilter, "owner">): string | null | undefined {
  if (!filter.owner) return undefined;
  return filter.owner === OWNER_NONE ? null : filter.owner;
}

/** The half-open createdAt range of the filter's inclusive UTC days. */
export function createdRange(filter: Pick<LeadFilter, "createdFrom" | "createdTo">): { gte?: Date; lt?: Date } {
  const range: { gte?: Date; lt?: Date } = {};
  if (filter.createdFrom) range.gte = new Date(`${filter.createdFrom}T00:00:00Z`);
  if (filter.createdTo) range.lt = new Date(new Date(`${filter.createdTo}T00:00:00Z`).getTime() + 24 * 60 * 60 * 1000);
  return range;
}

/**
 * The lower bound of returnedAt under the "returned" filter, `at` being now (null: the filter
 * does not apply). A lead that only has its first submission has no returnedAt and never matches.
 */
export function returnedSince(filter: Pick<LeadFilter, "returned">, at: Date): Date | null {
  return filter.returned ? new Date(at.getTime() - RETURNED_WINDOWS[filter.returned] * 24 * 60 * 60 * 1000) : null;
}

/** Where the list stands: its filter and the page's cursor. */
export type ListPosition = { filter: LeadFilter; after?: number; before?: number };

function cursor(value: string | undefined): number | undefined {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
}

export function parseListPosition(params: Params): ListPosition {
  const after = cursor(read(params, "after"));
  const before = cursor(read(params, "before"));
  return { filter: parseLeadFilter(params), ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) };
}

/**
 * The list URL's query string of a position, rebuilt from parsed values only: a detail
 * page's "← Leads" link built from it can only ever point at the lead list.
 */
export function listQueryString(position: ListPosition): string {
  return new URLSearchParams({
    ...filterParams(position.filter),
    ...(position.after !== undefined ? { after: String(position.after) } : {}),
    ...(position.before !== undefined ? { before: String(position.before) } : {}),
  }).toString();
}
