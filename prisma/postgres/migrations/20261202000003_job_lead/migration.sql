-- The lead a queued message (webhook delivery, email) is about, for the lead's timeline (issue 41).
-- Messages queued before this migration keep no lead (their body names it, in a shape each
-- database reads differently): the timeline lists what is sent from now on.
ALTER TABLE "Job" ADD COLUMN "leadId" TEXT;

-- CreateIndex
CREATE INDEX "Job_leadId_createdAt_idx" ON "Job"("leadId", "createdAt");
