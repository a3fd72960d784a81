-- Consent on a form builder's connection (issue 46, step 4, docs/consent.md "Connections"): a
-- connection's consent versions (numbered per connection, as a form's are), its current version
-- and its double opt-in.

-- AlterTable
ALTER TABLE "ConsentVersion" ADD COLUMN "connectionId" TEXT;

-- AlterTable
ALTER TABLE "Connection" ADD COLUMN "consentVersionId" TEXT,
ADD COLUMN "doubleOptIn" BOOLEAN NOT NULL DEFAULT false;

-- CreateIndex
CREATE UNIQUE INDEX "ConsentVersion_connectionId_number_key" ON "ConsentVersion"("connectionId", "number");

-- AddForeignKey
ALTER TABLE "Connection" ADD CONSTRAINT "Connection_consentVersionId_fkey" FOREIGN KEY ("consentVersionId") REFERENCES "ConsentVersion"("id") ON DELETE SET NULL ON UPDATE CASCADE;
