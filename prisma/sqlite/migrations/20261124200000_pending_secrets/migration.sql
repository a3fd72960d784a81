-- Secrets awaiting their first copy move to a table of their own (docs/security.md
-- "API secrets at rest"). Freed content is zeroed from here on, so the column's old
-- values are not left in free space when it is dropped.
PRAGMA secure_delete = ON;

-- CreateTable
CREATE TABLE "PendingSecret" (
    "apiKeyId" TEXT NOT NULL PRIMARY KEY,
    "ciphertext" TEXT NOT NULL,
    CONSTRAINT "PendingSecret_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Move the ciphertexts of keys not yet copied
INSERT INTO "PendingSecret" ("apiKeyId", "ciphertext") SELECT "id", "secretCiphertext" FROM "ApiKey" WHERE "secretCiphertext" IS NOT NULL AND "copiedAt" IS NULL;

-- AlterTable
ALTER TABLE "ApiKey" DROP COLUMN "secretCiphertext";
