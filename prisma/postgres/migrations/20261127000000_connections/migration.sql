-- AlterTable
ALTER TABLE "Lead" ADD COLUMN     "connectionId" TEXT;

-- CreateTable
CREATE TABLE "Connection" (
    "id" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "builder" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenDigest" TEXT NOT NULL,
    "tokenHint" TEXT NOT NULL,
    "previousTokenDigest" TEXT,
    "previousTokenExpiresAt" TIMESTAMP(3),
    "signingSecretCiphertext" TEXT,
    "mapping" JSONB NOT NULL,
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdById" TEXT,

    CONSTRAINT "Connection_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ConnectionDelivery" (
    "id" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "submissionId" TEXT,
    "outcome" TEXT NOT NULL,
    "status" INTEGER NOT NULL,
    "leadId" TEXT,
    "error" TEXT,
    "contentType" TEXT,
    "payload" TEXT,
    "answers" JSONB,
    "attempts" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastAttemptAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ConnectionDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Connection_tokenDigest_key" ON "Connection"("tokenDigest");

-- CreateIndex
CREATE UNIQUE INDEX "Connection_previousTokenDigest_key" ON "Connection"("previousTokenDigest");

-- CreateIndex
CREATE INDEX "Connection_teamId_idx" ON "Connection"("teamId");

-- CreateIndex
CREATE INDEX "ConnectionDelivery_connectionId_createdAt_idx" ON "ConnectionDelivery"("connectionId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "ConnectionDelivery_connectionId_submissionId_key" ON "ConnectionDelivery"("connectionId", "submissionId");

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ConnectionDelivery" ADD CONSTRAINT "ConnectionDelivery_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "Connection"("id") ON DELETE CASCADE ON UPDATE CASCADE;

