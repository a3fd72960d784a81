-- The spam quarantine (issue 42, docs/spam.md): checks per channel (on for web forms and
-- connections, new and existing, off for API keys), the team's threshold, the request log's
-- reasons, and the quarantined submissions.
ALTER TABLE "ApiKey" ADD COLUMN "spamChecks" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "WebForm" ADD COLUMN "spamChecks" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Connection" ADD COLUMN "spamChecks" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "spamThreshold" INTEGER NOT NULL DEFAULT 10;

-- AlterTable
ALTER TABLE "ApiRequest" ADD COLUMN "spam" TEXT;

-- CreateTable
CREATE TABLE "QuarantinedLead" (
    "id" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "formId" TEXT,
    "connectionId" TEXT,
    "name" TEXT NOT NULL,
    "emailKey" TEXT,
    "phone" TEXT,
    "mobileNo" TEXT,
    "lead" JSONB NOT NULL,
    "source" JSONB NOT NULL,
    "score" INTEGER NOT NULL,
    "reasons" JSONB NOT NULL,
    "ip" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "QuarantinedLead_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "QuarantinedLead_teamId_createdAt_idx" ON "QuarantinedLead"("teamId", "createdAt");

-- CreateIndex
CREATE INDEX "QuarantinedLead_teamId_emailKey_idx" ON "QuarantinedLead"("teamId", "emailKey");

-- CreateIndex
CREATE INDEX "QuarantinedLead_teamId_phone_idx" ON "QuarantinedLead"("teamId", "phone");

-- CreateIndex
CREATE INDEX "QuarantinedLead_teamId_mobileNo_idx" ON "QuarantinedLead"("teamId", "mobileNo");

-- AddForeignKey
ALTER TABLE "QuarantinedLead" ADD CONSTRAINT "QuarantinedLead_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
