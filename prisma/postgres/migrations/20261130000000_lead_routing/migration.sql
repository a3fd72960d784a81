-- Lead routing (issue 28, docs/routing.md): members' availability, the team's routing
-- version and fallback, and the assignment rules.
-- AlterTable
ALTER TABLE "Team" ADD COLUMN     "routingFallbackUserId" TEXT,
ADD COLUMN     "routingVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "User" ADD COLUMN     "away" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "awayUntil" TIMESTAMP(3),
ADD COLUMN     "workingHours" JSONB;

-- CreateTable
CREATE TABLE "AssignmentRule" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "conditions" JSONB NOT NULL,
    "mode" TEXT NOT NULL,
    "userIds" JSONB NOT NULL,
    "fallbackUserId" TEXT,
    "turn" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AssignmentRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AssignmentRule_teamId_position_idx" ON "AssignmentRule"("teamId", "position");

-- AddForeignKey
ALTER TABLE "AssignmentRule" ADD CONSTRAINT "AssignmentRule_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

