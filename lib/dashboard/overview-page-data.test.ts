import assert from "node:assert/strict";
import { test } from "node:test";
import { bucketDays, leadListHref, overviewQuery, parseOverviewParams, seriesFilter } from "./overview-page-data";
import { overviewCsv, type OverviewTable } from "./overview-csv";
import type { OverviewData } from "./overview-page-data";

// Leads → Overview's URL: presets, custom ranges, what bad input falls back to, and the
// links and CSV built from it. No database: loadOverview only adds the store's calls.

const AT = new Date("2026-12-02T13:14:00Z");
const parse = (query: string) => parseOverviewParams(new URLSearchParams(query), AT);
const span = (query: string) => {
  const p = parse(query);
  return [p.preset, p.fromDay, p.toDay, p.days, p.range.from.toISOString(), p.range.to.toISOString()];
};

test("presets end today (UTC) and count today among their days; 30 days when nothing is asked", () => {
  assert.deepEqual(span(""), ["30d", "2026-11-03", "2026-12-02", 30, "2026-11-03T00:00:00.000Z", "2026-12-03T00:00:00.000Z"]);
  assert.deepEqual(span("range=7d"), ["7d", "2026-11-26", "2026-12-02", 7, "2026-11-26T00:00:00.000Z", "2026-12-03T00:00:00.000Z"]);
  assert.deepEqual(span("range=90d").slice(0, 4), ["90d", "2026-09-04", "2026-12-02", 90]);
  assert.deepEqual(parse("range=7d").previous, { fromDay: "2026-11-19", toDay: "2026-11-25" }, "the 7 days before");
  assert.deepEqual(parse("").notes, []);
  // Just after midnight UTC, "today" is the new day.
  assert.equal(parseOverviewParams(new URLSearchParams("range=7d"), new Date("2026-12-03T00:00:01Z")).toDay, "2026-12-03");
});

test("a custom range is its two days inclusive, against the same number of days before it", () => {
  const p = parse("range=custom&from=2026-02-27&to=2026-03-01");
  assert.deepEqual([p.preset, p.fromDay, p.toDay, p.days], ["custom", "2026-02-27", "2026-03-01", 3]);
  assert.equal(p.range.to.toISOString(), "2026-03-02T00:00:00.000Z", "half-open: the whole last day");
  assert.deepEqual(p.previous, { fromDay: "2026-02-24", toDay: "2026-02-26" });
  assert.deepEqual(p.notes, []);
  assert.deepEqual(span("from=2026-12-02&to=2026-12-02").slice(0, 4), ["custom", "2026-12-02", "2026-12-02", 1], "from/to alone: custom");
  assert.deepEqual(
    span("range=custom&from=2025-12-02&to=2026-12-02").slice(0, 4),
    ["custom", "2025-12-02", "2026-12-02", 366],
    "366 days at most",
  );
  assert.deepEqual(span("range=custom&from=%202026-11-01%20&to=2026-11-02").slice(0, 2), ["custom", "2026-11-01"], "spaces trimmed");
});

test("bad input never fails: it falls back to the last 30 days and says why", () => {
  const cases: [string, RegExp][] = [
    ["range=custom", /needs a start and an end date/],
    ["range=custom&from=2026-11-01", /needs a start and an end date/],
    ["range=custom&from=2026-02-30&to=2026-03-02", /needs a start and an end date/],
    ["range=custom&from=yesterday&to=today", /needs a start and an end date/],
    ["range=custom&from=2026-11-10&to=2026-11-01", /starts after it ends/],
    ["range=custom&from=2026-11-10&to=2026-12-03", /ends in the future/],
    ["range=custom&from=1999-12-31&to=2000-01-02", /starts before 2000/],
    ["range=custom&from=2025-01-01&to=2026-01-02", /longer than 366 days/],
    ["from=99999-01-01&to=2026-01-01", /needs a start and an end date/],
    ["range=365d", /Unknown range “365d”/],
    [`range=${"x".repeat(500)}`, /Unknown range “x{20}”/],
  ];
  for (const [query, note] of cases) {
    const p = parse(query);
    assert.deepEqual([p.preset, p.fromDay, p.toDay, p.days], ["30d", "2026-11-03", "2026-12-02", 30], query);
    assert.equal(p.notes.length, 1, query);
    assert.match(p.notes[0]!, note, query);
    assert.match(p.notes[0]!, /showing the last 30 days instead\.$/, query);
  }
  // Repeated parameters: the first counts (as in the lead list).
  assert.equal(parseOverviewParams({ range: ["7d", "90d"] }, AT).preset, "7d");
});

test("interval and breakdown: days up to 31 days, weeks beyond, unless asked; unknown values take the default", () => {
  assert.equal(parse("range=30d").interval, "day");
  assert.equal(parse("range=90d").interval, "week");
  assert.equal(parse("range=90d&interval=day").interval, "day");
  assert.equal(parse("range=7d&interval=week").interval, "week");
  assert.equal(parse("interval=month").interval, "day");
  assert.equal(parse("range=custom&from=2026-10-01&to=2026-11-01").interval, "week", "32 days");
  assert.equal(parse("").breakdown, "channelGroup");
  for (const by of ["source", "form", "connection", "apiKey"] as const) assert.equal(parse(`by=${by}`).breakdown, by);
  assert.equal(parse("by=utmSource").breakdown, "channelGroup");
  assert.equal(parse("by=__proto__").breakdown, "channelGroup");
});

test("the page's own links keep only what differs from the defaults; a new range takes its default interval", () => {
  assert.equal(overviewQuery(parse("")), "");
  assert.equal(overviewQuery(parse("range=7d&by=form")), "range=7d&by=form");
  assert.equal(overviewQuery(parse("range=30d&interval=week")), "interval=week");
  assert.equal(overviewQuery(parse("range=30d&interval=week"), { preset: "90d" }), "range=90d", "weeks are 90 days' default");
  assert.equal(overviewQuery(parse("range=90d"), { interval: "day" }), "range=90d&interval=day");
  assert.equal(overviewQuery(parse("by=source"), { breakdown: "channelGroup" }), "");
  assert.equal(
    overviewQuery(parse("range=custom&from=2026-11-01&to=2026-11-05&by=apiKey")),
    "range=custom&from=2026-11-01&to=2026-11-05&by=apiKey",
  );
  assert.equal(overviewQuery(parse("range=bogus")), "", "a fallback is the default");
});

test("a bar's lead list: its days, cut to the range, and its series' filter", () => {
  const weeks = parse("range=custom&from=2026-11-05&to=2026-11-18&interval=week");
  assert.deepEqual(bucketDays(weeks, "2026-11-02"), { fromDay: "2026-11-05", toDay: "2026-11-08" }, "a week begun before the range");
  assert.deepEqual(bucketDays(weeks, "2026-11-09"), { fromDay: "2026-11-09", toDay: "2026-11-15" });
  assert.deepEqual(bucketDays(weeks, "2026-11-16"), { fromDay: "2026-11-16", toDay: "2026-11-18" }, "a week ending after it");
  assert.deepEqual(bucketDays(parse("range=7d"), "2026-11-30"), { fromDay: "2026-11-30", toDay: "2026-11-30" });

  assert.deepEqual(seriesFilter("channelGroup", "Paid Search"), { channelGroup: "Paid Search" });
  assert.deepEqual(seriesFilter("source", "src_1"), { sourceId: "src_1" });
  assert.deepEqual(seriesFilter("form", "form_1"), { formId: "form_1" });
  assert.deepEqual(seriesFilter("connection", "conn_1"), { connectionId: "conn_1" });
  assert.deepEqual(seriesFilter("apiKey", "key_1"), { apiKeyId: "key_1" });
  assert.equal(seriesFilter("form", ""), null, "no filter names the leads without a form");

  assert.equal(
    leadListHref("acme", { fromDay: "2026-11-30", toDay: "2026-11-30" }, { channelGroup: "Paid Search" }),
    "/t/acme/leads?channel=Paid+Search&from=2026-11-30&to=2026-11-30",
  );
  assert.equal(
    leadListHref("acme", { fromDay: "2026-11-01", toDay: "2026-11-30" }, { owner: "none" }),
    "/t/acme/leads?owner=none&from=2026-11-01&to=2026-11-30",
  );
});

test("each table's CSV: a header row and its numbers, cells neutralised like the lead export's", () => {
  const params = parse("range=custom&from=2026-11-30&to=2026-12-01");
  const data: OverviewData = {
    params,
    overTime: {
      buckets: ["2026-11-30", "2026-12-01"],
      series: [
        { key: "Paid Search", label: "Paid Search", counts: [2, 1] },
        { key: "Email", label: "Email", counts: [0, 3] },
      ],
      total: 6,
      previousTotal: 4,
    },
    channels: [
      { channelGroup: "Paid Search", leads: 3, previous: 2 },
      { channelGroup: "Email", leads: 3, previous: 0 },
    ],
    campaigns: [{ campaign: "=HYPERLINK(1)", leads: 2, qualifiedPercent: 50, medianMinutesToContact: 12.345 }],
    funnel: [
      { status: "new", reached: 6, dropOffPercent: null },
      { status: "contacted", reached: 3, dropOffPercent: 50 },
      { status: "qualified", reached: 1, dropOffPercent: 66.6667 },
    ],
    owners: [{ ownerId: null, name: "Unassigned", assigned: 6, contacted: 3, medianMinutesToContact: null }],
    spam: [
      { day: "2026-11-30", count: 0 },
      { day: "2026-12-01", count: 4 },
    ],
  };
  const csv = (table: OverviewTable) => overviewCsv(data, table);
  assert.equal(
    csv("leads-over-time"),
    '\uFEFF"Day","Paid Search","Email","Total"\r\n"2026-11-30","2","0","2"\r\n"2026-12-01","1","3","4"\r\n',
  );
  assert.equal(
    csv("channel-groups"),
    '\uFEFF"Channel group","Leads","Previous period","Change (%)"\r\n"Paid Search","3","2","50"\r\n"Email","3","0",""\r\n',
  );
  assert.equal(
    csv("campaigns"),
    '\uFEFF"Campaign","Leads","Reached Qualified (%)","Median minutes to first contact"\r\n"\'=HYPERLINK(1)","2","50","12.3"\r\n',
  );
  assert.equal(
    csv("funnel"),
    '\uFEFF"Status","Leads that ever reached it","Drop-off (%)"\r\n"New","6",""\r\n"Contacted","3","50"\r\n"Qualified","1","66.7"\r\n',
  );
  assert.equal(csv("owners"), '\uFEFF"Owner","Assigned","Contacted","Median minutes to first contact"\r\n"Unassigned","6","3",""\r\n');
  assert.equal(csv("spam"), '\uFEFF"Day","Set aside as spam"\r\n"2026-11-30","0"\r\n"2026-12-01","4"\r\n');
});
