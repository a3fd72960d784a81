-- Repeat submissions join the person's lead on channels set to "add" (issue 41, step 2).
-- Every channel that exists keeps "new": no silent change (docs/leads.md "Repeat submissions").
-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "repeats" TEXT NOT NULL DEFAULT 'new';

-- AlterTable
ALTER TABLE "WebForm" ADD COLUMN     "repeats" TEXT NOT NULL DEFAULT 'new';

-- AlterTable
ALTER TABLE "Connection" ADD COLUMN     "repeats" TEXT NOT NULL DEFAULT 'new';

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "repeatWindowDays" INTEGER NOT NULL DEFAULT 365;

-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "returnedAt" TIMESTAMP(3);

-- A lead that holds more than one submission (a merge or an import's fill gathered them) returned at its latest.
UPDATE "Lead" SET "returnedAt" = (SELECT MAX(s."createdAt") FROM "LeadSubmission" s WHERE s."leadId" = "Lead"."id")
WHERE "id" IN (SELECT "leadId" FROM "LeadSubmission" GROUP BY "leadId" HAVING COUNT(*) > 1);

-- CreateIndex
CREATE INDEX "Lead_teamId_returnedAt_idx" ON "Lead"("teamId", "returnedAt");
