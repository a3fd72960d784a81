-- A lead's status and owner (issue 28, docs/routing.md). A constant default adds "status"
-- without rewriting the table (PostgreSQL 11+).
-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "assignedAt" TIMESTAMP(3),
ADD COLUMN     "firstContactedAt" TIMESTAMP(3),
ADD COLUMN     "ownerId" TEXT,
ADD COLUMN     "status" TEXT NOT NULL DEFAULT 'new';

-- CreateIndex
CREATE INDEX "Lead_teamId_status_seq_idx" ON "Lead"("teamId", "status", "seq");

-- CreateIndex
CREATE INDEX "Lead_teamId_ownerId_seq_idx" ON "Lead"("teamId", "ownerId", "seq");

-- AddForeignKey
ALTER TABLE "Lead" ADD CONSTRAINT "Lead_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "User"("id") ON DELETE SET NULL ON UPDATE CASCADE;

