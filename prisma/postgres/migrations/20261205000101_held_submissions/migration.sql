-- Double opt-in, "Create the lead only once confirmed" (issue 46, docs/consent.md): a form may
-- hold a submission that gives consent until the person confirms by email: the held submission
-- is sealed (never plain text), found by a keyed hash of the address, dropped when its link expires.

-- AlterTable
ALTER TABLE "WebForm" ADD COLUMN     "doubleOptInHold" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "HeldSubmission" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "channelKind" TEXT NOT NULL,
    "channelId" TEXT NOT NULL,
    "personKey" TEXT NOT NULL,
    "tokenHash" TEXT,
    "sealed" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "HeldSubmission_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "HeldSubmission_tokenHash_key" ON "HeldSubmission"("tokenHash");

-- CreateIndex
CREATE INDEX "HeldSubmission_teamId_personKey_createdAt_idx" ON "HeldSubmission"("teamId", "personKey", "createdAt");

-- CreateIndex
CREATE INDEX "HeldSubmission_channelKind_channelId_idx" ON "HeldSubmission"("channelKind", "channelId");

-- CreateIndex
CREATE INDEX "HeldSubmission_expiresAt_idx" ON "HeldSubmission"("expiresAt");

-- AddForeignKey
ALTER TABLE "HeldSubmission" ADD CONSTRAINT "HeldSubmission_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;
