-- A rule's fallback "the next member on duty, later" (issue 28, docs/routing.md "Assignment rules"). Added in place.
ALTER TABLE "AssignmentRule" ADD COLUMN "fallbackLater" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "WaitingLead" (
    "leadId" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "ruleId" TEXT NOT NULL,
    "since" DATETIME NOT NULL,
    CONSTRAINT "WaitingLead_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "WaitingLead_teamId_since_idx" ON "WaitingLead"("teamId", "since");
