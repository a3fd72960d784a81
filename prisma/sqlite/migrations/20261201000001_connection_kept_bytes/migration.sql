-- Kept bodies of a connection, capped by count and bytes, and the log read by pages and aged out by index (issue 40, finding 1).
ALTER TABLE "ConnectionDelivery" ADD COLUMN "keptBytes" INTEGER;

-- The bodies kept so far (their characters: the bytes of answers are counted from now on).
UPDATE "ConnectionDelivery" SET "keptBytes" = length("payload") WHERE "payload" IS NOT NULL;

-- CreateIndex
CREATE INDEX "ConnectionDelivery_connectionId_lastAttemptAt_idx" ON "ConnectionDelivery"("connectionId", "lastAttemptAt");

-- CreateIndex
CREATE INDEX "ConnectionDelivery_connectionId_keptBytes_idx" ON "ConnectionDelivery"("connectionId", "keptBytes");

-- CreateIndex
CREATE INDEX "ConnectionDelivery_outcome_lastAttemptAt_idx" ON "ConnectionDelivery"("outcome", "lastAttemptAt");
