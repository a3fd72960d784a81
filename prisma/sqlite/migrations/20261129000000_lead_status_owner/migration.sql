-- A lead's status and owner (issue 28, docs/routing.md). Added in place (ALTER TABLE … ADD
-- COLUMN), not by Prisma's table redefinition, which would copy every lead: SQLite adds a
-- column with a REFERENCES clause when its default is NULL.
ALTER TABLE "Lead" ADD COLUMN "status" TEXT NOT NULL DEFAULT 'new';
ALTER TABLE "Lead" ADD COLUMN "ownerId" TEXT CONSTRAINT "Lead_ownerId_fkey" REFERENCES "User" ("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "Lead" ADD COLUMN "assignedAt" DATETIME;
ALTER TABLE "Lead" ADD COLUMN "firstContactedAt" DATETIME;

-- The list's per-status views and "My leads" / "Unassigned", newest first by seq.
CREATE INDEX "Lead_teamId_status_seq_idx" ON "Lead"("teamId", "status", "seq");
CREATE INDEX "Lead_teamId_ownerId_seq_idx" ON "Lead"("teamId", "ownerId", "seq");
