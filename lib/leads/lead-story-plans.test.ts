import assert from "node:assert/strict";
import { test } from "node:test";
import { catchSqlitePlans } from "../../test/support/sqlite-plans";

// A lead's page reads the lead's story (its submissions, notes, changes, messages, consent and
// confirmations) by the lead's id, and each read also names the team (tenant isolation in the
// query). On SQLite, which plans without statistics (the app never runs ANALYZE), an index that
// begins with the team's id ties with one that begins with the lead's, and SQLite took the
// team's: `npm run bench` at 1,000,000 leads found the lead's page at 340 ms (3 pages/s; 12 ms
// before submissions were kept), each read walking all of the team's 566,000 submissions to
// find one lead's. This test catches each statement of those reads as the SQLite driver
// prepares it and asks SQLite for its plan: every table of the story must be searched by the
// lead's id (leadId, or the audit log's targetId), never scanned and never walked by the team.

const STORY_TABLES = ["LeadSubmission", "LeadNote", "LeadConsent", "ConsentConfirmation", "Job", "AuditEvent"];
/** Whether a step of a plan reads `table` ("SEARCH main.Job AS t1 USING …"). */
const reads = (step: string, table: string) => new RegExp(`^(SEARCH|SCAN) (main\\.)?${table}\\b`).test(step);
const { caught, reading } = catchSqlitePlans((sql) => STORY_TABLES.some((table) => new RegExp(`[\`"]${table}[\`"]`).test(sql)));

const { useTestDatabase } = await import("../../test/support/test-database");
await useTestDatabase({ provider: "sqlite" });
const { createTeam } = await import("../teams/team-store");
const { findLeadTimeline } = await import("./lead-timeline");
const { findLeadSubmissions } = await import("./lead-submission-store");
const { countLeadNotes } = await import("./lead-note-store");
const { countTargetEvents } = await import("../audit/audit-log");
const { findLeadMessages } = await import("../jobs/job-store");
const { findLeadConsents } = await import("../consent/lead-consent-store");
const { leadConfirmations } = await import("../consent/consent-confirmation-store");

test("each read of a lead's story searches its table by the lead's id, on SQLite's plan", async () => {
  const team = await createTeam({ slug: "story-plans", name: "Story plans", defaultPhoneCountry: "GB" });
  const at = { teamId: team.id, leadId: "CRM-LEAD-1" };
  await reading("the timeline", () => findLeadTimeline(at));
  await reading("the submissions and their count", () => findLeadSubmissions({ ...at, take: 50 }));
  // The counts the timeline runs only past its limit.
  await reading("the notes' count", () => countLeadNotes(at));
  await reading("the changes' count", () => countTargetEvents({ teamId: team.id, targetId: at.leadId }));
  await reading("the messages and their count", () => findLeadMessages({ ...at, take: 0 }));
  await reading("the consent evidence", () => findLeadConsents(at));
  await reading("the double opt-in confirmations", () => leadConfirmations(at));

  const read = new Set(caught.flatMap(({ plan }) => STORY_TABLES.filter((table) => plan.some((step) => reads(step, table)))));
  assert.deepEqual([...read].sort(), [...STORY_TABLES].sort(), "every table of the story was read");
  const wrong = caught.flatMap(({ label, sql, plan }) =>
    plan
      .filter((step) => STORY_TABLES.some((table) => reads(step, table)))
      // A search whose index's equality terms include the lead's id (or a row's own id).
      .filter((step) => !/^SEARCH [\w.]+( AS \w+)? USING (COVERING )?INDEX \w+ \([^)]*\b(leadId|targetId|id)=\?/.test(step))
      .map((step) => `${label}: ${step}\n  ${sql}`),
  );
  assert.deepEqual(wrong, [], "a read of the story walked more than the lead's rows");
});
