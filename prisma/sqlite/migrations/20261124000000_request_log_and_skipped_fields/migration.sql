-- AlterTable
ALTER TABLE "Lead" ADD COLUMN "skippedMobileNo" TEXT;
ALTER TABLE "Lead" ADD COLUMN "skippedPhone" TEXT;
ALTER TABLE "Lead" ADD COLUMN "skippedWebsite" TEXT;

-- CreateTable
CREATE TABLE "ApiRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" INTEGER NOT NULL,
    "leadId" TEXT,
    "error" TEXT,
    "ip" TEXT,
    "encoding" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "ApiRequest_apiKeyId_id_idx" ON "ApiRequest"("apiKeyId", "id");

-- CreateIndex
CREATE INDEX "ApiRequest_teamId_id_idx" ON "ApiRequest"("teamId", "id");
