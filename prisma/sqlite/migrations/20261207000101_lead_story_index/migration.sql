-- A lead's submissions are read by the lead's id and its team's (its page, its counts, a merge's
-- move). SQLite plans without statistics: with (leadId, createdAt) and (teamId, createdAt) each
-- matching one equality it took the team's, and at 1,000,000 leads a lead's page walked all of
-- its team's 566,000 submissions (340 ms). With both ids in the lead's index it matches two
-- equalities and is always chosen (lib/leads/lead-story-plans.test.ts, docs/performance.md).

-- DropIndex
DROP INDEX "LeadSubmission_leadId_createdAt_idx";

-- CreateIndex
CREATE INDEX "LeadSubmission_leadId_teamId_createdAt_idx" ON "LeadSubmission"("leadId", "teamId", "createdAt");
