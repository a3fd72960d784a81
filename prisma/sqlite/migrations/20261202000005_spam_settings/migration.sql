-- The team's spam settings and lists (issue 42, docs/spam.md "Settings"): business
-- addresses only, the burst limit (more than N leads in M minutes from one address or
-- sender), how long the quarantine keeps a submission, and the version of the lists that
-- the intake's per-process copy is checked against. A quarantined submission a person
-- reported from the lead list says who and when.
ALTER TABLE "Team" ADD COLUMN "spamBusinessOnly" BOOLEAN NOT NULL DEFAULT false;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "spamBurstLimit" INTEGER NOT NULL DEFAULT 5;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "spamBurstMinutes" INTEGER NOT NULL DEFAULT 10;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "spamRetentionDays" INTEGER NOT NULL DEFAULT 30;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "spamListsVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "QuarantinedLead" ADD COLUMN "reportedById" TEXT;

-- AlterTable
ALTER TABLE "QuarantinedLead" ADD COLUMN "reportedAt" DATETIME;

-- CreateTable
CREATE TABLE "SpamListEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "list" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "note" TEXT,
    "createdById" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "SpamListEntry_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SpamListEntry_teamId_list_value_key" ON "SpamListEntry"("teamId", "list", "value");
