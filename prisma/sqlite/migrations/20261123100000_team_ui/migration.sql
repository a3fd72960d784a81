-- AlterTable
ALTER TABLE "Lead" ADD COLUMN "lastNameKey" TEXT;
ALTER TABLE "Lead" ADD COLUMN "nameKey" TEXT;
ALTER TABLE "Lead" ADD COLUMN "organizationKey" TEXT;

-- CreateTable
CREATE TABLE "Invite" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "tokenDigest" TEXT NOT NULL,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    "acceptedAt" DATETIME,
    CONSTRAINT "Invite_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Invite_tokenDigest_key" ON "Invite"("tokenDigest");

-- CreateIndex
CREATE INDEX "Invite_teamId_email_idx" ON "Invite"("teamId", "email");

-- CreateIndex
CREATE INDEX "Lead_teamId_nameKey_idx" ON "Lead"("teamId", "nameKey");

-- CreateIndex
CREATE INDEX "Lead_teamId_lastNameKey_idx" ON "Lead"("teamId", "lastNameKey");

-- CreateIndex
CREATE INDEX "Lead_teamId_organizationKey_idx" ON "Lead"("teamId", "organizationKey");


-- Backfill the search keys of existing leads. SQLite's lower() folds ASCII only; new
-- leads get full Unicode lower-casing from lib/leads/lead-store.ts.
UPDATE "Lead" SET
    "nameKey" = lower(trim("firstName" || ' ' || coalesce("lastName", ''))),
    "lastNameKey" = lower("lastName"),
    "organizationKey" = lower("organization");
