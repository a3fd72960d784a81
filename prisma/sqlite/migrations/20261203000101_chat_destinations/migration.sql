-- Chat destinations (issue 44, docs/notifications.md): a team's chat channels, their delivery log,
-- the chat messages' jobs and members' own chat user ids.
-- CreateTable
CREATE TABLE "ChatDestination" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "platform" TEXT NOT NULL,
    "urlCiphertext" TEXT NOT NULL,
    "maskedUrl" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "postNewLeads" BOOLEAN NOT NULL DEFAULT true,
    "newLeadFilter" TEXT NOT NULL DEFAULT '{}',
    "postAssignments" BOOLEAN NOT NULL DEFAULT true,
    "postReminders" BOOLEAN NOT NULL DEFAULT false,
    "includeFields" TEXT NOT NULL DEFAULT '',
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" TEXT,
    "disabledAt" DATETIME,
    "failingSince" DATETIME,
    "lastPostedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,
    CONSTRAINT "ChatDestination_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ChatDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "destinationId" TEXT NOT NULL,
    "jobId" TEXT,
    "event" TEXT NOT NULL,
    "leadId" TEXT,
    "attempt" INTEGER NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "durationMs" INTEGER NOT NULL,
    "statusCode" INTEGER,
    "ok" BOOLEAN NOT NULL,
    "answer" TEXT,
    CONSTRAINT "ChatDelivery_destinationId_fkey" FOREIGN KEY ("destinationId") REFERENCES "ChatDestination" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ChatDelivery_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "Job" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "Job" ADD COLUMN "chatDestinationId" TEXT CONSTRAINT "Job_chatDestinationId_fkey" REFERENCES "ChatDestination" ("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "User" ADD COLUMN "discordUserId" TEXT;
ALTER TABLE "User" ADD COLUMN "slackUserId" TEXT;

-- CreateIndex
CREATE INDEX "ChatDestination_teamId_idx" ON "ChatDestination"("teamId");

-- CreateIndex
CREATE INDEX "ChatDelivery_destinationId_id_idx" ON "ChatDelivery"("destinationId", "id");

-- CreateIndex
CREATE INDEX "ChatDelivery_jobId_idx" ON "ChatDelivery"("jobId");

-- CreateIndex
CREATE INDEX "Job_chatDestinationId_idx" ON "Job"("chatDestinationId");
