import type { ChannelGroup } from "./channel-groups";
import { SEARCH_SOURCES, SHOPPING_SOURCES, SOCIAL_SOURCES, VIDEO_SOURCES } from "./ga4-source-categories";

// Google Analytics 4's default channel group of a visit's source, medium and campaign: the
// rules for manually tagged traffic, in their published order ("[GA4] Default channel group",
// support.google.com/analytics/answer/9756891), and Google's list of search, social,
// shopping and video sources from the same page (ga4-source-categories.ts). Matching is
// case-insensitive, as GA4's is. docs/attribution.md "Channel groups" has the table.

export type Ga4Channel =
  | "Direct"
  | "Cross-network"
  | "Paid Shopping"
  | "Paid Search"
  | "Paid Social"
  | "Paid Video"
  | "Display"
  | "Paid Other"
  | "Organic Shopping"
  | "Organic Social"
  | "Organic Video"
  | "Organic Search"
  | "Referral"
  | "Email"
  | "Affiliates"
  | "Audio"
  | "SMS"
  | "Mobile Push Notifications"
  | "Unassigned";

export type SourceCategory = "search" | "social" | "shopping" | "video";

const CATEGORIES = new Map<string, SourceCategory>();
const LISTS: [SourceCategory, readonly string[]][] = [
  ["search", SEARCH_SOURCES],
  ["social", SOCIAL_SOURCES],
  ["shopping", SHOPPING_SOURCES],
  ["video", VIDEO_SOURCES],
];
for (const [category, sources] of LISTS) for (const source of sources) CATEGORIES.set(source, category);

// Second-level labels under which a country's sites sit (google.co.uk, yahoo.co.jp, ebay.com.au).
const SECOND_LEVEL = new Set(["co", "com", "ne", "or", "ac", "go", "net", "org", "gov", "edu"]);

/**
 * A source's category in Google's list: the source itself ("google", "l.facebook.com"), else
 * each parent domain of a host ("m.facebook.com" → "facebook.com"), else the host's name
 * without its country or top-level domain ("www.google.co.uk" → "google"); null: none.
 */
export function sourceCategory(source: string): SourceCategory | null {
  const name = source.trim().toLowerCase();
  const exact = CATEGORIES.get(name);
  if (exact || !name.includes(".")) return exact ?? null;
  const labels = name.split(".");
  for (let index = 1; index < labels.length - 1; index++) {
    const found = CATEGORIES.get(labels.slice(index).join("."));
    if (found) return found;
  }
  let brand = labels.length - 2;
  if (brand > 0 && labels.at(-1)!.length === 2 && SECOND_LEVEL.has(labels[brand]!)) brand--;
  return brand >= 0 ? (CATEGORIES.get(labels[brand]!) ?? null) : null;
}

const PAID_MEDIUM = /^(.*cp.*|ppc|retargeting|paid.*)$/;
const SHOP_CAMPAIGN = /^(.*(([^a-df-z]|^)shop|shopping).*)$/;
const DISPLAY_MEDIA = new Set(["display", "banner", "expandable", "interstitial", "cpm"]);
const SOCIAL_MEDIA = new Set(["social", "social-network", "social-media", "sm", "social network", "social media"]);
const EMAIL = new Set(["email", "e-mail", "e_mail", "e mail"]);
const REFERRAL_MEDIA = new Set(["referral", "app", "link"]);

export type Visit = { source: string; medium: string; campaign: string | null };

/** GA4's default channel of a visit, by the first of its manual-traffic rules that matches. */
export function ga4Channel(visit: Visit): Ga4Channel {
  const source = visit.source.toLowerCase();
  const medium = visit.medium.toLowerCase();
  const campaign = visit.campaign?.toLowerCase() ?? "";
  const category = sourceCategory(source);
  const paid = PAID_MEDIUM.test(medium);
  const shopCampaign = SHOP_CAMPAIGN.test(campaign);
  if (source === "(direct)" && (medium === "(not set)" || medium === "(none)")) return "Direct";
  if (campaign.includes("cross-network")) return "Cross-network";
  if ((category === "shopping" || shopCampaign) && paid) return "Paid Shopping";
  if (category === "search" && paid) return "Paid Search";
  if (category === "social" && paid) return "Paid Social";
  if (category === "video" && paid) return "Paid Video";
  if (DISPLAY_MEDIA.has(medium)) return "Display";
  if (paid) return "Paid Other";
  if (category === "shopping" || shopCampaign) return "Organic Shopping";
  if (category === "social" || SOCIAL_MEDIA.has(medium)) return "Organic Social";
  if (category === "video" || medium.includes("video")) return "Organic Video";
  if (category === "search" || medium === "organic") return "Organic Search";
  if (REFERRAL_MEDIA.has(medium)) return "Referral";
  if (EMAIL.has(source) || EMAIL.has(medium)) return "Email";
  if (medium === "affiliate") return "Affiliates";
  if (medium === "audio") return "Audio";
  if (source === "sms" || medium === "sms") return "SMS";
  if (medium.endsWith("push") || medium.includes("mobile") || medium.includes("notification") || source === "firebase") {
    return "Mobile Push Notifications";
  }
  return "Unassigned";
}

/** Our ten groups (channel-groups.ts) for GA4's nineteen channels: the rarer ones folded in. */
export const GROUP_OF_GA4_CHANNEL: Record<Ga4Channel, ChannelGroup> = {
  Direct: "Direct",
  "Paid Search": "Paid Search",
  "Paid Shopping": "Paid Search",
  "Paid Social": "Paid Social",
  Display: "Display",
  "Paid Video": "Display",
  "Organic Search": "Organic Search",
  "Organic Social": "Organic Social",
  "Organic Video": "Organic Social",
  "Organic Shopping": "Referral",
  Referral: "Referral",
  Email: "Email",
  Affiliates: "Affiliates",
  "Cross-network": "Other",
  "Paid Other": "Other",
  Audio: "Other",
  SMS: "Other",
  "Mobile Push Notifications": "Other",
  Unassigned: "Other",
};
