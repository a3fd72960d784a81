-- Double opt-in (issue 46, step 2, docs/consent.md): a web form may email a confirmation link
-- to a person whose submission gave consent: one row per email, the link token never stored
-- (only its SHA-256), confirmed once.

-- AlterTable
ALTER TABLE "WebForm" ADD COLUMN "doubleOptIn" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "ConsentConfirmation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "leadId" TEXT NOT NULL,
    "emailKey" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "confirmedAt" DATETIME,
    "sentById" TEXT,
    CONSTRAINT "ConsentConfirmation_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "ConsentConfirmation_tokenHash_key" ON "ConsentConfirmation"("tokenHash");

-- CreateIndex
CREATE INDEX "ConsentConfirmation_teamId_emailKey_createdAt_idx" ON "ConsentConfirmation"("teamId", "emailKey", "createdAt");

-- CreateIndex
CREATE INDEX "ConsentConfirmation_leadId_idx" ON "ConsentConfirmation"("leadId");
