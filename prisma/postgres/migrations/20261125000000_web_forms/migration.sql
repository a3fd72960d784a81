-- AlterTable
ALTER TABLE "ApiRequest" ADD COLUMN     "formId" TEXT,
ALTER COLUMN "apiKeyId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "formId" TEXT;

-- CreateTable
CREATE TABLE "WebForm" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "allowedOrigins" JSONB NOT NULL,
    "sourceId" TEXT,
    "successUrl" TEXT,
    "challenge" BOOLEAN NOT NULL DEFAULT true,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "spamCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,

    CONSTRAINT "WebForm_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SpentChallenge" (
    "id" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SpentChallenge_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebForm_teamId_idx" ON "WebForm"("teamId");

-- CreateIndex
CREATE INDEX "SpentChallenge_expiresAt_idx" ON "SpentChallenge"("expiresAt");

-- CreateIndex
CREATE INDEX "ApiRequest_formId_id_idx" ON "ApiRequest"("formId", "id");

-- CreateIndex
CREATE INDEX "Lead_teamId_formId_idx" ON "Lead"("teamId", "formId");

-- AddForeignKey
ALTER TABLE "WebForm" ADD CONSTRAINT "WebForm_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebForm" ADD CONSTRAINT "WebForm_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "LeadSource"("id") ON DELETE SET NULL ON UPDATE CASCADE;
