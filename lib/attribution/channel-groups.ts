// The ten channel groups a lead is counted in (issue 43, docs/attribution.md "Channel groups"):
// Google Analytics 4's default channel groups (ga4-channel.ts), the rarer ones folded into
// these. Kept apart from the rules so pages and charts can name them without loading the
// source lists.

export const CHANNEL_GROUPS = [
  "Paid Search",
  "Organic Search",
  "Paid Social",
  "Organic Social",
  "Email",
  "Referral",
  "Display",
  "Affiliates",
  "Direct",
  "Other",
] as const;

export type ChannelGroup = (typeof CHANNEL_GROUPS)[number];

export function isChannelGroup(value: unknown): value is ChannelGroup {
  return typeof value === "string" && (CHANNEL_GROUPS as readonly string[]).includes(value);
}
