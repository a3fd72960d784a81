import type { ChannelGroup } from "../attribution/channel-groups";

// What Leads → Overview shows (issue 43, docs/attribution.md "The dashboard"): the shapes the
// aggregates (lib/dashboard/overview-store.ts) return and the page and its CSV downloads read.
// Every time is UTC; a day is a UTC day, a week starts on Monday (ISO weeks).

/** The leads created in [from, to), and the period of the same length before it to compare with. */
export type OverviewRange = { from: Date; to: Date };

/** What the leads-over-time chart is stacked by. */
export const BREAKDOWNS = ["channelGroup", "source", "form", "connection", "apiKey"] as const;
export type Breakdown = (typeof BREAKDOWNS)[number];

export const INTERVALS = ["day", "week"] as const;
export type Interval = (typeof INTERVALS)[number];

/** One stacked series: its key (a channel group, or the id of a source, form, connection or key; "" for none) and its label. */
export type Series = { key: string; label: string; counts: number[] };

export type LeadsOverTime = {
  /** Each bucket's first day, YYYY-MM-DD (UTC). */
  buckets: string[];
  series: Series[];
  total: number;
  /** Leads created in the previous period of the same length. */
  previousTotal: number;
};

export type CampaignRow = {
  /** utm_campaign of the last touch; "" for leads without one is left out of the table. */
  campaign: string;
  leads: number;
  /** Share of the campaign's leads that ever reached Qualified, 0–100; null when it has none. */
  qualifiedPercent: number | null;
  /** Median minutes from creation to first contact (status leaving New) of its contacted leads; null: none contacted. */
  medianMinutesToContact: number | null;
};

/** The status funnel of the range's leads: how many ever reached each step (from the audit history), and the drop from the step before. */
export type FunnelStep = { status: "new" | "contacted" | "qualified"; reached: number; dropOffPercent: number | null };

export type OwnerRow = {
  /** null: unassigned. */
  ownerId: string | null;
  name: string;
  assigned: number;
  contacted: number;
  medianMinutesToContact: number | null;
};

/** Submissions set aside as spam on one UTC day. */
export type SpamDay = { day: string; count: number };

export type ChannelGroupCount = { channelGroup: ChannelGroup; leads: number; previous: number };
