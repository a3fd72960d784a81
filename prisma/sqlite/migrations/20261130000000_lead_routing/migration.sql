-- Lead routing (issue 28, docs/routing.md): members' availability, the team's routing
-- version and fallback, and the assignment rules. Columns are added in place (ALTER TABLE …
-- ADD COLUMN), not by Prisma's table redefinition.
ALTER TABLE "User" ADD COLUMN "away" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "User" ADD COLUMN "awayUntil" DATETIME;
ALTER TABLE "User" ADD COLUMN "workingHours" JSONB;
ALTER TABLE "Team" ADD COLUMN "routingVersion" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Team" ADD COLUMN "routingFallbackUserId" TEXT;

-- CreateTable
CREATE TABLE "AssignmentRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "conditions" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "userIds" JSONB NOT NULL,
    "fallbackUserId" TEXT,
    "turn" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "AssignmentRule_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "AssignmentRule_teamId_position_idx" ON "AssignmentRule"("teamId", "position");
