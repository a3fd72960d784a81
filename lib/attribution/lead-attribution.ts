import type { ChannelGroup } from "./channel-groups";
import { ga4Channel, GROUP_OF_GA4_CHANNEL, sourceCategory, type Ga4Channel } from "./ga4-channel";

// A lead's attribution, derived from its fields (issue 43, docs/attribution.md): its last
// touch from the spec's utm_* fields and the extra fields landing_page, referrer, the click
// ids and last_seen_at; its first touch from the same names prefixed first_ (first_seen_at),
// or, when it has none of them, the last touch again. The fields stay as they were sent (spec
// 2.2: extra fields are kept as sent); only the channel groups are stored, on the lead's row
// (lib/leads/lead-write.ts leadRow), the rest is read from the fields wherever it is shown.

/** The ad platforms' click ids, in the order they are looked at (Google's first). */
export const CLICK_IDS = ["gclid", "gbraid", "wbraid", "msclkid", "fbclid", "ttclid", "li_fat_id"] as const;
export type ClickId = (typeof CLICK_IDS)[number];

/** The source and medium GA4 gives a visit that carries only a click id (auto-tagging), by id. */
const CLICK_ID_VISIT: Record<ClickId, { source: string; medium: string }> = {
  gclid: { source: "google", medium: "cpc" },
  gbraid: { source: "google", medium: "cpc" },
  wbraid: { source: "google", medium: "cpc" },
  msclkid: { source: "bing", medium: "cpc" },
  // Facebook adds fbclid to every outside link, paid or not: a visit from facebook.
  fbclid: { source: "facebook", medium: "referral" },
  ttclid: { source: "tiktok", medium: "cpc" },
  li_fat_id: { source: "linkedin", medium: "cpc" },
};

const UTM = ["utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"] as const;
const TOUCH_FIELDS = [...UTM, "landing_page", "referrer", ...CLICK_IDS] as const;

/** Every extra field name the derivation reads: a last touch's, a first touch's, and the two times. */
export const ATTRIBUTION_FIELD_NAMES: readonly string[] = [
  ...TOUCH_FIELDS.filter((name) => !name.startsWith("utm_")),
  "last_seen_at",
  ...TOUCH_FIELDS.map((name) => `first_${name}`),
  "first_seen_at",
];

export type Touch = {
  source: string | null;
  medium: string | null;
  campaign: string | null;
  term: string | null;
  content: string | null;
  landingPage: string | null;
  referrer: string | null;
  clickIds: { name: ClickId; value: string }[];
  at: string | null;
  /** GA4's channel, and ours. */
  ga4Channel: Ga4Channel;
  channelGroup: ChannelGroup;
};

export type LeadAttribution = {
  first: Touch;
  last: Touch;
  /** False when the lead carries no first_* field: its first touch is its last. */
  firstKnown: boolean;
};

/** The fields a lead's attribution is read from: its UTM columns and its extra fields. */
export type AttributedFields = {
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  utmTerm: string | null;
  utmContent: string | null;
  /** An object of extra fields as stored; anything else reads as none. */
  extraFields: unknown;
};

const LONGEST = 1_000;

/** A field's text, one line, trimmed and capped; null when it is missing, empty or not text. */
function text(value: unknown): string | null {
  if (typeof value !== "string" && typeof value !== "number") return null;
  const line = String(value)
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, " ")
    .trim();
  if (!line) return null;
  return line.length > LONGEST ? `${line.slice(0, LONGEST - 1)}…` : line;
}

/** The host of an http(s) URL, lower-cased and without "www."; null for anything else. */
export function webHost(url: string | null): string | null {
  if (!url || !/^https?:\/\//i.test(url)) return null;
  try {
    return new URL(url).hostname.toLowerCase().replace(/^www\./, "") || null;
  } catch {
    return null;
  }
}

type RawTouch = Record<(typeof TOUCH_FIELDS)[number], string | null> & { at: string | null };

/** The source and medium of a touch: its UTM fields, else its click id, else its outside referrer, else direct. */
function visitOf(raw: RawTouch): { source: string; medium: string } {
  if (raw.utm_source || raw.utm_medium) return { source: raw.utm_source ?? "(not set)", medium: raw.utm_medium ?? "(not set)" };
  const clickId = CLICK_IDS.find((name) => raw[name]);
  if (clickId) return CLICK_ID_VISIT[clickId];
  const referrerHost = webHost(raw.referrer);
  if (referrerHost && referrerHost !== webHost(raw.landing_page)) {
    return { source: referrerHost, medium: sourceCategory(referrerHost) === "search" ? "organic" : "referral" };
  }
  return { source: "(direct)", medium: "(none)" };
}

function touchOf(raw: RawTouch): Touch {
  const visit = visitOf(raw);
  const channel = ga4Channel({ ...visit, campaign: raw.utm_campaign });
  const derived = !raw.utm_source && !raw.utm_medium;
  return {
    source: derived ? (visit.source === "(direct)" ? null : visit.source) : raw.utm_source,
    medium: derived ? (visit.medium === "(none)" ? null : visit.medium) : raw.utm_medium,
    campaign: raw.utm_campaign,
    term: raw.utm_term,
    content: raw.utm_content,
    landingPage: raw.landing_page,
    referrer: raw.referrer,
    clickIds: CLICK_IDS.flatMap((name) => (raw[name] ? [{ name, value: raw[name] }] : [])),
    at: raw.at,
    ga4Channel: channel,
    channelGroup: GROUP_OF_GA4_CHANNEL[channel],
  };
}

const has = (extra: Record<string, unknown>, name: string) => Object.hasOwn(extra, name);

/** A lead's first and last touch, from its fields. */
export function leadAttribution(lead: AttributedFields): LeadAttribution {
  const extra = (lead.extraFields && typeof lead.extraFields === "object" ? lead.extraFields : {}) as Record<string, unknown>;
  const utm = {
    utm_source: lead.utmSource,
    utm_medium: lead.utmMedium,
    utm_campaign: lead.utmCampaign,
    utm_term: lead.utmTerm,
    utm_content: lead.utmContent,
  };
  const last = { at: text(extra.last_seen_at) } as RawTouch;
  const first = { at: text(extra.first_seen_at) } as RawTouch;
  let firstKnown = first.at !== null;
  for (const name of TOUCH_FIELDS) {
    last[name] = name.startsWith("utm_") ? text(utm[name as (typeof UTM)[number]]) : has(extra, name) ? text(extra[name]) : null;
    first[name] = has(extra, `first_${name}`) ? text(extra[`first_${name}`]) : null;
    if (first[name] !== null) firstKnown = true;
  }
  const lastTouch = touchOf(last);
  return { last: lastTouch, first: firstKnown ? touchOf(first) : lastTouch, firstKnown };
}

/** The channel groups stored on a lead's row (Lead.channelGroup, Lead.firstChannelGroup). */
export function leadChannelGroups(lead: AttributedFields): { channelGroup: ChannelGroup; firstChannelGroup: ChannelGroup } {
  const { first, last } = leadAttribution(lead);
  return { channelGroup: last.channelGroup, firstChannelGroup: first.channelGroup };
}
