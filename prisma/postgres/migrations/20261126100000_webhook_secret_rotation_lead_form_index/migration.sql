-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "previousSecretCiphertext" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3);

-- DropIndex
DROP INDEX "Lead_teamId_formId_idx";

-- CreateIndex
CREATE INDEX "Lead_teamId_formId_seq_idx" ON "Lead"("teamId", "formId", "seq");
