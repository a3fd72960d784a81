import { BOM, csvRow } from "../leads/csv";
import { LEAD_STATUS_LABELS } from "../leads/lead-status";
import { BREAKDOWN_LABELS, type OverviewData } from "./overview-page-data";

// The CSV downloads of Leads → Overview: one per chart or table, the numbers the page shows
// (raw: minutes and percentages unrounded to one decimal, no thousands separators), written
// with the lead export's cells (formula injection neutralised, CRLF, a BOM for spreadsheets).

export const OVERVIEW_TABLES = ["leads-over-time", "channel-groups", "campaigns", "funnel", "owners", "spam"] as const;
export type OverviewTable = (typeof OVERVIEW_TABLES)[number];

export function isOverviewTable(value: unknown): value is OverviewTable {
  return typeof value === "string" && (OVERVIEW_TABLES as readonly string[]).includes(value);
}

const round = (value: number | null) => (value === null ? null : Math.round(value * 10) / 10);

/** The percent change from `previous` to `current`; null when there was nothing before. */
export function changePercent(current: number, previous: number): number | null {
  return previous === 0 ? null : ((current - previous) / previous) * 100;
}

function rows(data: OverviewData, table: OverviewTable): (string | number | null)[][] {
  switch (table) {
    case "leads-over-time": {
      const { buckets, series } = data.overTime;
      const label = data.params.interval === "week" ? "Week starting" : "Day";
      return [
        [label, ...series.map((s) => s.label || BREAKDOWN_LABELS[data.params.breakdown]), "Total"],
        ...buckets.map((bucket, i) => [
          bucket,
          ...series.map((s) => s.counts[i] ?? 0),
          series.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0),
        ]),
      ];
    }
    case "channel-groups":
      return [
        ["Channel group", "Leads", "Previous period", "Change (%)"],
        ...data.channels.map((row) => [row.channelGroup, row.leads, row.previous, round(changePercent(row.leads, row.previous))]),
      ];
    case "campaigns":
      return [
        ["Campaign", "Leads", "Reached Qualified (%)", "Median minutes to first contact"],
        ...data.campaigns.map((row) => [row.campaign, row.leads, round(row.qualifiedPercent), round(row.medianMinutesToContact)]),
      ];
    case "funnel":
      return [
        ["Status", "Leads that ever reached it", "Drop-off (%)"],
        ...data.funnel.map((step) => [LEAD_STATUS_LABELS[step.status], step.reached, round(step.dropOffPercent)]),
      ];
    case "owners":
      return [
        ["Owner", "Assigned", "Contacted", "Median minutes to first contact"],
        ...data.owners.map((row) => [row.name, row.assigned, row.contacted, round(row.medianMinutesToContact)]),
      ];
    case "spam":
      return [["Day", "Set aside as spam"], ...data.spam.map((day) => [day.day, day.count])];
  }
}

/** One table of the overview as a CSV file's text. */
export function overviewCsv(data: OverviewData, table: OverviewTable): string {
  return BOM + rows(data, table).map(csvRow).join("");
}

/** The download's file name: the team, the table and the range. */
export function overviewCsvName(slug: string, data: OverviewData, table: OverviewTable): string {
  return `overview-${slug}-${table}-${data.params.fromDay}-to-${data.params.toDay}.csv`;
}
