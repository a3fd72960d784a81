-- Assignment emails and the New-lead reminder (issue 28, docs/routing.md "Emails").
-- AlterTable
ALTER TABLE "Membership" ADD COLUMN     "notifyAssignments" BOOLEAN NOT NULL DEFAULT true;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "newLeadReminderAfterSeq" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "newLeadReminderMinutes" INTEGER;


-- Who an import's leads go to (docs/routing.md "Imports").
-- AlterTable
ALTER TABLE "Import" ADD COLUMN     "assignMode" TEXT NOT NULL DEFAULT 'none',
ADD COLUMN     "assignUserId" TEXT;
