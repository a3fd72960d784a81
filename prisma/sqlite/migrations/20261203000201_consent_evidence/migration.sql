-- Consent the team can prove (issue 46, step 1, docs/consent.md): the versions of the consent
-- text a web form asks for (a new row per edit, never changed), the form's current version,
-- and the evidence of each submission that carried consent (derived at intake, in the lead's
-- transaction) or of a consent recorded on the lead's page.

-- CreateTable
CREATE TABLE "ConsentVersion" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "formId" TEXT,
    "number" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "policyUrl" TEXT,
    "required" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "createdById" TEXT,
    CONSTRAINT "ConsentVersion_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LeadConsent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "leadId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "submissionId" TEXT,
    "status" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "versionId" TEXT,
    "text" TEXT,
    "purpose" TEXT,
    "consentAt" DATETIME NOT NULL,
    "ip" TEXT,
    "userAgent" TEXT,
    "pageUrl" TEXT,
    "note" TEXT,
    "recordedById" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "LeadConsent_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LeadConsent_submissionId_fkey" FOREIGN KEY ("submissionId") REFERENCES "LeadSubmission" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "LeadConsent_versionId_fkey" FOREIGN KEY ("versionId") REFERENCES "ConsentVersion" ("id") ON DELETE NO ACTION ON UPDATE CASCADE
);

-- AlterTable
ALTER TABLE "WebForm" ADD COLUMN "consentVersionId" TEXT CONSTRAINT "WebForm_consentVersionId_fkey" REFERENCES "ConsentVersion" ("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "ConsentVersion_teamId_idx" ON "ConsentVersion"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "ConsentVersion_formId_number_key" ON "ConsentVersion"("formId", "number");

-- CreateIndex
CREATE INDEX "LeadConsent_leadId_createdAt_idx" ON "LeadConsent"("leadId", "createdAt");

-- CreateIndex
CREATE INDEX "LeadConsent_submissionId_idx" ON "LeadConsent"("submissionId");

-- CreateIndex
CREATE INDEX "LeadConsent_versionId_idx" ON "LeadConsent"("versionId");
