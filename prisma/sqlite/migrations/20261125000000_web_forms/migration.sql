-- AlterTable
ALTER TABLE "Lead" ADD COLUMN "formId" TEXT;

-- CreateTable
CREATE TABLE "WebForm" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "allowedOrigins" JSONB NOT NULL,
    "sourceId" TEXT,
    "successUrl" TEXT,
    "challenge" BOOLEAN NOT NULL DEFAULT true,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "spamCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    CONSTRAINT "WebForm_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "WebForm_sourceId_fkey" FOREIGN KEY ("sourceId") REFERENCES "LeadSource" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SpentChallenge" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "expiresAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ApiRequest" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "apiKeyId" TEXT,
    "formId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status" INTEGER NOT NULL,
    "leadId" TEXT,
    "error" TEXT,
    "ip" TEXT,
    "encoding" TEXT NOT NULL
);
INSERT INTO "new_ApiRequest" ("apiKeyId", "createdAt", "encoding", "error", "id", "ip", "leadId", "status", "teamId") SELECT "apiKeyId", "createdAt", "encoding", "error", "id", "ip", "leadId", "status", "teamId" FROM "ApiRequest";
DROP TABLE "ApiRequest";
ALTER TABLE "new_ApiRequest" RENAME TO "ApiRequest";
CREATE INDEX "ApiRequest_apiKeyId_id_idx" ON "ApiRequest"("apiKeyId", "id");
CREATE INDEX "ApiRequest_formId_id_idx" ON "ApiRequest"("formId", "id");
CREATE INDEX "ApiRequest_teamId_id_idx" ON "ApiRequest"("teamId", "id");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WebForm_teamId_idx" ON "WebForm"("teamId");

-- CreateIndex
CREATE INDEX "SpentChallenge_expiresAt_idx" ON "SpentChallenge"("expiresAt");

-- CreateIndex
CREATE INDEX "Lead_teamId_formId_idx" ON "Lead"("teamId", "formId");
