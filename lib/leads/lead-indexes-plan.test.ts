import assert from "node:assert/strict";
import { test } from "node:test";
import Database from "better-sqlite3";
import { catchSqlitePlans } from "../../test/support/sqlite-plans";

// Every index on Lead earns its place (issue 47: each one costs every create an insertion).
// This test runs the app's own reads of leads (the list with each filter, the search, a
// repeat's candidates, the lead's page, the duplicates, the status counts, the dashboard's
// rollup, the backfills), catches each statement as the SQLite driver prepares it, and asks
// SQLite for its plan. It fails when an index on Lead is read by none of them (drop it, or add
// the query that needs it here) and names, for each index, the reads that use it. SQLite's
// plans: the default deployment's. PostgreSQL chooses by its statistics; its plans at
// 1,000,000 leads are in docs/leads.md and docs/attribution.md.

const { caught, reading } = catchSqlitePlans((sql) =>
  /\bFROM\s+[`"]?(main[`"]?\.)?[`"]?Lead[`"]?[\s)]|JOIN\s+[`"]?(main[`"]?\.)?[`"]?Lead[`"]?\s/i.test(sql),
);

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase({ provider: "sqlite" });
const { db } = await import("../db/client");
const { sqliteFilePath } = await import("../db/database-url");
const { env } = await import("../env");
const { createTeam } = await import("../teams/team-store");
const { listLeads } = await import("./lead-list-store");
const { countLeadsByStatus } = await import("./lead-status-counts");
const { EMPTY_FILTER } = await import("./lead-filter");
const { findPossibleDuplicates, findPersonLeads } = await import("./duplicate-store");
const { importedLeads, refoldSearchKeys } = await import("./lead-store");
const { repeatCandidatesSql } = await import("./lead-columns");
const { STORED_LEAD_COLUMNS } = await import("./lead-write");
const { loadOverview } = await import("../dashboard/overview-page-data");

test("every index on Lead is read by a query the app runs, by SQLite's plan", async (t) => {
  const team = await createTeam({ slug: "indexes", name: "Indexes", defaultPhoneCountry: "GB" });
  const leadTeam = { id: team.id, defaultPhoneCountry: "GB" };
  const list = (what: string, filter: Partial<typeof EMPTY_FILTER>) =>
    reading(`the lead list, ${what}`, () => listLeads({ team: leadTeam, filter: { ...EMPTY_FILTER, ...filter } }));

  await list("no filter", {});
  await list("a search", { query: "ada" });
  await list("a search for a number", { query: "+44 7911 123456" });
  await list("source", { sourceId: "source" });
  await list("UTM source", { utmSource: "google" });
  await list("UTM campaign", { utmCampaign: "spring" });
  await list("channel group", { channelGroup: "Paid Search" });
  await list("created by key", { apiKeyId: "key" });
  await list("created by form", { formId: "form" });
  await list("created by connection", { connectionId: "connection" });
  await list("created by import", { importId: "import" });
  await list("status", { status: "contacted" });
  await list("owner", { owner: "user" });
  await list("owner and status", { owner: "user", status: "new" });
  await list("returned in 7 days", { returned: "7d" });
  await list("created between", { createdFrom: "2026-11-01", createdTo: "2026-11-30" });
  await reading("the status counts under an owner filter", () => countLeadsByStatus(leadTeam, { ...EMPTY_FILTER, owner: "user" }, 10_000));
  await reading("a repeat submission's candidates (the SQLite lead writer's statement)", () => {
    const connection = new Database(sqliteFilePath(env().DATABASE_URL), { readonly: true });
    try {
      connection.prepare(
        repeatCandidatesSql(
          STORED_LEAD_COLUMNS,
          { team: "@team", email: "@email", n1: "@n1", n2: "@n2" },
          { time: (c) => c, forUpdate: false },
        ),
      );
    } finally {
      connection.close();
    }
  });
  await reading("the lead's page (by id)", () => db().lead.findFirst({ where: { id: "CRM-LEAD-1", teamId: team.id } }));
  await reading("a lead's possible duplicates", () =>
    findPossibleDuplicates({
      id: "CRM-LEAD-1",
      teamId: team.id,
      emailKey: "ada@example.com",
      phone: "+447911123456",
      mobileNo: null,
    } as Parameters<typeof findPossibleDuplicates>[0]),
  );
  await reading("a person's leads (erasure)", () => findPersonLeads(team.id, { email: "ada@example.com", phone: "+447911123456" }));
  await reading("an import's leads", () => importedLeads(team.id, "import", 0, 500));
  await reading("the search keys' backfill (every team, seq order)", () => refoldSearchKeys(0));
  await reading("Leads → Overview", () => loadOverview(team.id, {}));

  const indexes = (
    await db().$queryRawUnsafe<{ name: string }[]>(
      `SELECT "name" FROM "sqlite_master" WHERE "type" = 'index' AND "tbl_name" = 'Lead' ORDER BY "name"`,
    )
  ).map((index) => index.name);
  const usedBy = new Map<string, Set<string>>(indexes.map((index) => [index, new Set()]));
  for (const { label: what, plan } of caught)
    for (const [, index] of plan.join(" | ").matchAll(/USING (?:COVERING )?INDEX (\w+)|USING (?:INTEGER )?PRIMARY KEY/g))
      if (index && usedBy.has(index)) usedBy.get(index)!.add(what);
  const report = [...usedBy].map(([index, uses]) => `${index}: ${[...uses].join("; ") || "NONE"}`).join("\n");
  const unused = [...usedBy].filter(([, uses]) => uses.size === 0).map(([index]) => index);
  assert.deepEqual(unused, [], `indexes on Lead no query reads:\n${report}`);
  for (const line of report.split("\n")) t.diagnostic(line);
});
