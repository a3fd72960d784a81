-- Issue 17: the lead list's filters (source, UTM source, UTM campaign, API key, created
-- between) each read an index, newest first by seq. The search keys are folded by the
-- application (lib/setup/fold-search-keys.ts), not here.

-- CreateIndex
CREATE INDEX "Lead_teamId_sourceId_seq_idx" ON "Lead"("teamId", "sourceId", "seq");

-- CreateIndex
CREATE INDEX "Lead_teamId_utmSource_seq_idx" ON "Lead"("teamId", "utmSource", "seq");

-- CreateIndex
CREATE INDEX "Lead_teamId_utmCampaign_seq_idx" ON "Lead"("teamId", "utmCampaign", "seq");

-- CreateIndex
CREATE INDEX "Lead_teamId_apiKeyId_seq_idx" ON "Lead"("teamId", "apiKeyId", "seq");

-- CreateIndex
CREATE INDEX "Lead_teamId_createdAt_idx" ON "Lead"("teamId", "createdAt");

-- Merged duplicates: the ids merged into a lead.
ALTER TABLE "Lead" ADD COLUMN "mergedLeadIds" JSONB;

-- Retention: delete a team's leads older than this many days.
ALTER TABLE "Team" ADD COLUMN "retentionDays" INTEGER;

-- CreateTable
CREATE TABLE "JobClaim" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "claimedUntil" DATETIME NOT NULL,
    "lastRunAt" DATETIME
);
