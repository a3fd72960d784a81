-- Secrets awaiting their first copy move to a table of their own (docs/security.md
-- "API secrets at rest"). The dropped column's old values stay in ApiKey's existing row
-- versions until the table is rewritten: docs/security.md says how (VACUUM FULL "ApiKey").

-- CreateTable
CREATE TABLE "PendingSecret" (
    "apiKeyId" TEXT NOT NULL,
    "ciphertext" TEXT NOT NULL,

    CONSTRAINT "PendingSecret_pkey" PRIMARY KEY ("apiKeyId")
);

-- Move the ciphertexts of keys not yet copied
INSERT INTO "PendingSecret" ("apiKeyId", "ciphertext") SELECT "id", "secretCiphertext" FROM "ApiKey" WHERE "secretCiphertext" IS NOT NULL AND "copiedAt" IS NULL;

-- AlterTable
ALTER TABLE "ApiKey" DROP COLUMN "secretCiphertext";

-- AddForeignKey
ALTER TABLE "PendingSecret" ADD CONSTRAINT "PendingSecret_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;
