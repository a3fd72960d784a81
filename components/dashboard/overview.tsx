import Link from "next/link";
import { seriesColour } from "@/lib/dashboard/overview-charts";
import { changePercent, type OverviewTable } from "@/lib/dashboard/overview-csv";
import {
  BREAKDOWN_LABELS,
  bucketDays,
  leadListHref,
  overviewQuery,
  RANGE_LABELS,
  RANGE_PRESETS,
  seriesFilter,
  type OverviewData,
} from "@/lib/dashboard/overview-page-data";
import { BREAKDOWNS, INTERVALS, type Breakdown, type Interval } from "@/lib/dashboard/overview";
import { LEAD_STATUS_LABELS } from "@/lib/leads/lead-status";
import { OWNER_NONE } from "@/lib/leads/lead-filter";
import { Field } from "@/components/ui/field";
import { DataTable } from "@/components/ui/data-table";
import { buttonClass, cardClass, inputClass, linkClass } from "@/components/ui/styles";
import { OverviewChart } from "./overview-chart";

// Leads → Overview's sections (docs/attribution.md "The dashboard"): the range, then each
// chart with its table and CSV, each table's rows linking to the lead list they count.

const TD = "px-4 py-2 text-sm text-slate-800";
const TD_NUMBER = `${TD} text-right tabular-nums`;

const number = (n: number) => n.toLocaleString("en-US");
const submissions = (n: number) => `${number(n)} ${n === 1 ? "submission" : "submissions"}`;
const leads = (n: number) => `${number(n)} ${n === 1 ? "lead" : "leads"}`;

/** "+25%", "−10%", "±0%"; "new" when the period before had none (and this one has some). */
export function formatChange(current: number, previous: number): string {
  const change = changePercent(current, previous);
  if (change === null) return current ? "new" : "—";
  const rounded = Math.round(change);
  return rounded > 0 ? `+${rounded}%` : rounded < 0 ? `−${Math.abs(rounded)}%` : "±0%";
}

/** A duration in minutes for a person: "12 min", "3.5 h", "2.1 days". */
export function formatMinutes(minutes: number | null): string {
  if (minutes === null) return "—";
  if (minutes < 60) return `${Math.round(minutes)} min`;
  if (minutes < 48 * 60) return `${(minutes / 60).toFixed(1)} h`;
  return `${(minutes / 60 / 24).toFixed(1)} days`;
}

const BREAKDOWN_WORDS: Record<Breakdown, string> = {
  channelGroup: "channel group",
  source: "source",
  form: "web form",
  connection: "connection",
  apiKey: "API key",
};

const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value)}%`);

/** "1 Dec" for a chart's axis (the tables keep YYYY-MM-DD). */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

function Section({ id, title, children, actions }: { id: string; title: string; children: React.ReactNode; actions?: React.ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`} className={`${cardClass} p-4 sm:p-6`}>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-heading`} className="text-lg font-semibold text-slate-900">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

function Choices<T extends string>({
  label,
  choices,
  current,
  href,
}: {
  label: string;
  choices: readonly { value: T; label: string }[];
  current: string;
  href: (value: T) => string;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
      <span className="text-slate-600" aria-hidden="true">
        {label}:
      </span>
      {choices.map((choice) =>
        choice.value === current ? (
          <Link key={choice.value} href={href(choice.value)} aria-current="page" className="rounded-sm font-semibold text-slate-900">
            {choice.label}
          </Link>
        ) : (
          <Link key={choice.value} href={href(choice.value)} className={linkClass}>
            {choice.label}
          </Link>
        ),
      )}
    </nav>
  );
}

function Note({ children }: { children: React.ReactNode }) {
  return <p className="mt-2 text-sm text-slate-600">{children}</p>;
}

export function Overview({ slug, data }: { slug: string; data: OverviewData }) {
  const { params, overTime } = data;
  const base = `/t/${slug}/leads/overview`;
  const page = (query: string) => (query ? `${base}?${query}` : base);
  const current = overviewQuery(params);
  const csv = (table: OverviewTable) =>
    `${base}/csv?${new URLSearchParams({ table, ...Object.fromEntries(new URLSearchParams(current)) })}`;
  const csvLink = (table: OverviewTable, what: string) => (
    <a href={csv(table)} download className={buttonClass("secondary", "sm")}>
      Download CSV<span className="sr-only"> of {what}</span>
    </a>
  );
  const rangeDays = { fromDay: params.fromDay, toDay: params.toDay };
  const rangeText = `${params.fromDay} to ${params.toDay}`;
  const intervalWord = params.interval === "week" ? "week" : "day";
  const byChannel = params.breakdown === "channelGroup";
  const breakdownWord = BREAKDOWN_WORDS[params.breakdown];

  const seriesLabel = (label: string) => label || BREAKDOWN_LABELS[params.breakdown];
  const bucketHref = (seriesKey: string | null, bucket: string) => {
    const filter = seriesKey === null ? {} : seriesFilter(params.breakdown, seriesKey);
    return filter ? leadListHref(slug, bucketDays(params, bucket), filter) : null;
  };
  const chartHrefs = overTime.series.map((series) => overTime.buckets.map((bucket) => bucketHref(series.key, bucket)));
  const seriesTotals = overTime.series.map((series) => ({
    label: seriesLabel(series.label),
    total: series.counts.reduce((a, b) => a + b, 0),
  }));

  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Overview</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          Leads created {RANGE_LABELS[params.preset] === "Custom" ? "from" : `in the ${RANGE_LABELS[params.preset].toLowerCase()},`}{" "}
          {rangeText} (UTC days), compared with the {params.days} days before ({params.previous.fromDay} to {params.previous.toDay}). Every
          bar and row opens the lead list filtered to it.
        </p>
        {params.notes.map((note) => (
          <p key={note} role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200">
            {note}
          </p>
        ))}
      </div>

      <div className="flex flex-wrap items-end gap-x-6 gap-y-3">
        <Choices
          label="Date range"
          choices={RANGE_PRESETS.map((preset) => ({ value: preset, label: RANGE_LABELS[preset] }))}
          current={params.preset}
          href={(preset) => page(overviewQuery(params, { preset }))}
        />
        <form action={base} aria-label="Custom date range" className="flex flex-wrap items-end gap-2">
          <input type="hidden" name="range" value="custom" />
          {params.breakdown !== "channelGroup" ? <input type="hidden" name="by" value={params.breakdown} /> : null}
          <Field id="overview-from" label="From (UTC)">
            <input id="overview-from" name="from" type="date" defaultValue={params.fromDay} className={`${inputClass} mt-1`} />
          </Field>
          <Field id="overview-to" label="To (UTC, inclusive)">
            <input id="overview-to" name="to" type="date" defaultValue={params.toDay} className={`${inputClass} mt-1`} />
          </Field>
          <button type="submit" className={buttonClass("secondary", "md")}>
            Show range
          </button>
        </form>
      </div>

      <Section id="over-time" title="Leads over time" actions={csvLink("leads-over-time", "leads over time")}>
        <p className="text-sm text-slate-800">
          <Link href={leadListHref(slug, rangeDays)} className={`${linkClass} text-2xl`}>
            {leads(overTime.total)}
          </Link>{" "}
          in this period; {leads(overTime.previousTotal)} in the period before ({formatChange(overTime.total, overTime.previousTotal)}).
        </p>
        <div className="my-4 space-y-2">
          <Choices
            label="Per"
            choices={INTERVALS.map((interval: Interval) => ({ value: interval, label: interval === "day" ? "Day" : "Week" }))}
            current={params.interval}
            href={(interval) => page(overviewQuery(params, { interval }))}
          />
          <Choices
            label="Break down by"
            choices={BREAKDOWNS.map((breakdown) => ({ value: breakdown, label: BREAKDOWN_LABELS[breakdown] }))}
            current={params.breakdown}
            href={(breakdown) => page(overviewQuery(params, { breakdown }))}
          />
        </div>
        {overTime.total ? (
          <OverviewChart
            id="chart-over-time"
            label={`Leads per ${intervalWord} by ${breakdownWord}, ${rangeText}`}
            description={`Stacked bars, one per ${intervalWord}, each colour and pattern a ${breakdownWord} named in the legend: ${seriesTotals
              .map((s) => `${s.label} ${number(s.total)}`)
              .join(", ")}. The table below (“Show as table”) has every number.`}
            categories={overTime.buckets.map(shortDay)}
            series={overTime.series.map((series, i) => ({
              name: seriesLabel(series.label),
              colour: seriesColour(series.key, i, byChannel),
              values: series.counts,
            }))}
            hrefs={chartHrefs}
          />
        ) : (
          <Note>No leads were created in this period.</Note>
        )}
        <details className="mt-4" open={!overTime.total}>
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Show as table</summary>
          <div className="mt-3">
            <DataTable
              caption={`Leads per ${intervalWord} by ${breakdownWord}, ${rangeText}`}
              columns={[
                params.interval === "week" ? "Week starting" : "Day",
                ...overTime.series.map((series) => ({ label: seriesLabel(series.label), className: "text-right" })),
                { label: "Total", className: "text-right" },
              ]}
            >
              {overTime.buckets.map((bucket, i) => {
                const total = overTime.series.reduce((sum, series) => sum + (series.counts[i] ?? 0), 0);
                return (
                  <tr key={bucket}>
                    <th scope="row" className={`${TD} text-left font-medium whitespace-nowrap`}>
                      {bucket}
                    </th>
                    {overTime.series.map((series, s) => (
                      <td key={series.key} className={TD_NUMBER}>
                        <CountLink
                          count={series.counts[i] ?? 0}
                          href={chartHrefs[s]?.[i] ?? null}
                          label={`${leads(series.counts[i] ?? 0)}, ${seriesLabel(series.label)}, ${params.interval === "week" ? "week of " : ""}${bucket}`}
                        />
                      </td>
                    ))}
                    <td className={TD_NUMBER}>
                      <CountLink
                        count={total}
                        href={bucketHref(null, bucket)}
                        label={`${leads(total)}, ${params.interval === "week" ? "week of " : ""}${bucket}`}
                      />
                    </td>
                  </tr>
                );
              })}
            </DataTable>
          </div>
        </details>
      </Section>

      <Section id="channel-groups" title="Channel groups" actions={csvLink("channel-groups", "channel groups")}>
        {data.channels.length ? (
          <DataTable
            caption={`Leads per channel group, ${rangeText}, against the ${params.days} days before`}
            columns={[
              "Channel group",
              { label: "Leads", className: "text-right" },
              { label: "Period before", className: "text-right" },
              { label: "Change", className: "text-right" },
            ]}
          >
            {data.channels.map((row) => (
              <tr key={row.channelGroup}>
                <th scope="row" className={`${TD} text-left font-medium`}>
                  <span className="flex items-center gap-2">
                    <span
                      aria-hidden="true"
                      className="inline-block h-3 w-3 rounded-sm"
                      style={{ background: seriesColour(row.channelGroup, 0, true) }}
                    />
                    <Link href={leadListHref(slug, rangeDays, { channelGroup: row.channelGroup })} className={linkClass}>
                      {row.channelGroup}
                    </Link>
                  </span>
                </th>
                <td className={TD_NUMBER}>{number(row.leads)}</td>
                <td className={TD_NUMBER}>{number(row.previous)}</td>
                <td className={TD_NUMBER}>{formatChange(row.leads, row.previous)}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Note>No leads in this period or the one before.</Note>
        )}
      </Section>

      <Section id="campaigns" title="Top campaigns" actions={csvLink("campaigns", "top campaigns")}>
        {data.campaigns.length ? (
          <DataTable
            caption={`The campaigns (utm_campaign) with the most leads, ${rangeText}`}
            columns={[
              "Campaign",
              { label: "Leads", className: "text-right" },
              { label: "Reached Qualified", className: "text-right" },
              { label: "Median time to first contact", className: "text-right" },
            ]}
          >
            {data.campaigns.map((row) => (
              <tr key={row.campaign}>
                <th scope="row" className={`${TD} text-left font-medium break-all`}>
                  <Link href={leadListHref(slug, rangeDays, { utmCampaign: row.campaign })} className={linkClass}>
                    {row.campaign}
                  </Link>
                </th>
                <td className={TD_NUMBER}>{number(row.leads)}</td>
                <td className={TD_NUMBER}>{percent(row.qualifiedPercent)}</td>
                <td className={TD_NUMBER}>{formatMinutes(row.medianMinutesToContact)}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Note>No lead of this period names a campaign (utm_campaign).</Note>
        )}
      </Section>

      <Section id="funnel" title="Status funnel" actions={csvLink("funnel", "the status funnel")}>
        <p className="mb-3 max-w-3xl text-sm text-slate-600">
          Of the leads created in this period, how many ever reached each status (from their history, whatever their status now), and how
          many the step before lost.
        </p>
        {data.funnel[0]?.reached ? (
          <OverviewChart
            id="chart-funnel"
            label={`Status funnel of the leads created ${rangeText}`}
            description={`Horizontal bars, labelled with their numbers: ${data.funnel
              .map((step) => `${LEAD_STATUS_LABELS[step.status]} ${number(step.reached)}`)
              .join(", ")}. The table below has the drop-off at each step.`}
            categories={data.funnel.map((step) => LEAD_STATUS_LABELS[step.status])}
            series={[{ name: "Leads that reached the status", colour: "#4338ca", values: data.funnel.map((step) => step.reached) }]}
            hrefs={[data.funnel.map((step) => leadListHref(slug, rangeDays, step.status === "new" ? {} : { status: step.status }))]}
            horizontal
            height={180}
          />
        ) : null}
        <div className="mt-4">
          <DataTable
            caption={`Status funnel of the leads created ${rangeText}`}
            columns={[
              "Status",
              { label: "Ever reached it", className: "text-right" },
              { label: "Drop-off from the step before", className: "text-right" },
              "Lead list",
            ]}
          >
            {data.funnel.map((step) => (
              <tr key={step.status}>
                <th scope="row" className={`${TD} text-left font-medium`}>
                  {LEAD_STATUS_LABELS[step.status]}
                </th>
                <td className={TD_NUMBER}>{number(step.reached)}</td>
                <td className={TD_NUMBER}>{percent(step.dropOffPercent)}</td>
                <td className={TD}>
                  <Link href={leadListHref(slug, rangeDays, step.status === "new" ? {} : { status: step.status })} className={linkClass}>
                    {step.status === "new" ? "All leads of the period" : `Leads now ${LEAD_STATUS_LABELS[step.status]}`}
                  </Link>
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      </Section>

      <Section id="owners" title="Owners" actions={csvLink("owners", "owners")}>
        {data.owners.length ? (
          <DataTable
            caption={`Leads created ${rangeText} by owner: assigned, contacted and the median time to first contact`}
            columns={[
              "Owner",
              { label: "Assigned", className: "text-right" },
              { label: "Contacted", className: "text-right" },
              { label: "Median time to first contact", className: "text-right" },
            ]}
          >
            {data.owners.map((row) => (
              <tr key={row.ownerId ?? OWNER_NONE}>
                <th scope="row" className={`${TD} text-left font-medium`}>
                  <Link href={leadListHref(slug, rangeDays, { owner: row.ownerId ?? OWNER_NONE })} className={linkClass}>
                    {row.name}
                  </Link>
                </th>
                <td className={TD_NUMBER}>{number(row.assigned)}</td>
                <td className={TD_NUMBER}>{number(row.contacted)}</td>
                <td className={TD_NUMBER}>{formatMinutes(row.medianMinutesToContact)}</td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <Note>No leads in this period.</Note>
        )}
      </Section>

      <Section id="spam" title="Spam set aside" actions={csvLink("spam", "spam set aside per day")}>
        <p className="mb-3 text-sm text-slate-800">
          {submissions(data.spam.reduce((sum, day) => sum + day.count, 0))} set aside as spam in this period (
          <Link href={`/t/${slug}/leads/spam`} className={linkClass}>
            Leads → Spam
          </Link>
          ).
        </p>
        {data.spam.some((day) => day.count) ? (
          <OverviewChart
            id="chart-spam"
            label={`Submissions set aside as spam per day, ${rangeText}`}
            description={`Bars, one per day; the busiest: ${[...data.spam]
              .sort((a, b) => b.count - a.count)
              .slice(0, 3)
              .filter((day) => day.count)
              .map((day) => `${day.day} ${number(day.count)}`)
              .join(", ")}. The table below (“Show as table”) has every day.`}
            categories={data.spam.map((day) => shortDay(day.day))}
            series={[{ name: "Set aside as spam", colour: "#475569", values: data.spam.map((day) => day.count) }]}
            height={220}
          />
        ) : (
          <Note>None in this period.</Note>
        )}
        <details className="mt-4">
          <summary className="cursor-pointer text-sm font-medium text-slate-700">Show as table</summary>
          <div className="mt-3">
            <DataTable
              caption={`Submissions set aside as spam per day, ${rangeText}`}
              columns={["Day", { label: "Set aside", className: "text-right" }]}
            >
              {data.spam.map((day) => (
                <tr key={day.day}>
                  <th scope="row" className={`${TD} text-left font-medium`}>
                    {day.day}
                  </th>
                  <td className={TD_NUMBER}>{number(day.count)}</td>
                </tr>
              ))}
            </DataTable>
          </div>
        </details>
      </Section>
    </div>
  );
}

function CountLink({ count, href, label }: { count: number; href: string | null; label: string }) {
  if (!count || !href) return <>{number(count)}</>;
  return (
    <Link href={href} aria-label={label} className={linkClass}>
      {number(count)}
    </Link>
  );
}
