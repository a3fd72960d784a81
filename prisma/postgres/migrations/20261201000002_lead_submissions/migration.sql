-- Each submission that made or joined a lead, its first one included (issue 41, step 1).
-- CreateTable
CREATE TABLE "LeadSubmission" (
    "id" TEXT NOT NULL,
    "leadId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "formId" TEXT,
    "connectionId" TEXT,
    "importId" TEXT,
    "fields" JSONB,
    "skipped" JSONB,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "LeadSubmission_pkey" PRIMARY KEY ("id")
);

-- Every existing lead gets its first submission from what it holds: the channel that made it,
-- its time, no fields (not kept before this migration). The same statement in both twins.
INSERT INTO "LeadSubmission" ("id", "leadId", "teamId", "channel", "apiKeyId", "formId", "connectionId", "importId", "fields", "skipped", "createdAt")
SELECT 'sub_' || "id", "id", "teamId",
    CASE WHEN "connectionId" IS NOT NULL THEN 'connection' WHEN "importId" IS NOT NULL THEN 'import' WHEN "formId" IS NOT NULL THEN 'form' ELSE 'api' END,
    "apiKeyId", "formId", "connectionId", "importId", NULL, NULL, "createdAt"
FROM "Lead";

-- CreateIndex
CREATE INDEX "LeadSubmission_leadId_createdAt_idx" ON "LeadSubmission"("leadId", "createdAt");

-- CreateIndex
CREATE INDEX "LeadSubmission_teamId_createdAt_idx" ON "LeadSubmission"("teamId", "createdAt");

-- AddForeignKey
ALTER TABLE "LeadSubmission" ADD CONSTRAINT "LeadSubmission_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead"("id") ON DELETE CASCADE ON UPDATE CASCADE;
