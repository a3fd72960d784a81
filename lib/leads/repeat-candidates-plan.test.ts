import assert from "node:assert/strict";
import { test } from "node:test";
import { useTestDatabase } from "../../test/support/test-database";
import { db } from "../db/client";
import { repeatCandidatesSql } from "./lead-columns";
import { STORED_LEAD_COLUMNS } from "./lead-write";

// A repeat submission's candidates (lib/leads/lead-columns.ts repeatCandidatesSql) are read
// through the three contact indexes, never by walking the team's leads: SQLite's plan for the
// writer's own statement. PostgreSQL's (a BitmapOr of the same three indexes, at 300,000
// leads with ANALYZE) is in docs/leads.md "Repeat submissions".
await useTestDatabase({ provider: "sqlite" });

test("SQLite reads a repeat's candidates through the email, phone and mobile indexes (a MULTI-INDEX OR), then sorts the few it found", async () => {
  const sql = repeatCandidatesSql(
    STORED_LEAD_COLUMNS,
    { team: "?", email: "?", n1: "?", n2: "?" },
    { time: (c) => c, forUpdate: false },
  ).replaceAll("?", "'x'");
  const plan = (await db().$queryRawUnsafe<{ detail: string }[]>(`EXPLAIN QUERY PLAN ${sql}`)).map((row) => row.detail);
  assert.deepEqual(plan, [
    "MULTI-INDEX OR",
    "INDEX 1",
    "SEARCH Lead USING INDEX Lead_teamId_emailKey_idx (teamId=? AND emailKey=?)",
    "INDEX 2",
    "SEARCH Lead USING INDEX Lead_teamId_phone_idx (teamId=? AND phone=?)",
    "INDEX 3",
    "SEARCH Lead USING INDEX Lead_teamId_mobileNo_idx (teamId=? AND mobileNo=?)",
    "USE TEMP B-TREE FOR ORDER BY",
  ]);
});
