-- Assignment emails and the New-lead reminder (issue 28, docs/routing.md "Emails"). Added in place.
ALTER TABLE "Membership" ADD COLUMN "notifyAssignments" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "Team" ADD COLUMN "newLeadReminderMinutes" INTEGER;
ALTER TABLE "Team" ADD COLUMN "newLeadReminderAfterSeq" INTEGER NOT NULL DEFAULT 0;
-- Who an import's leads go to (docs/routing.md "Imports").
ALTER TABLE "Import" ADD COLUMN "assignMode" TEXT NOT NULL DEFAULT 'none';
ALTER TABLE "Import" ADD COLUMN "assignUserId" TEXT;
