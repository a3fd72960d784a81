-- A lead's current consent status (issue 46, docs/consent.md "Filtering the list by consent"):
-- its newest LeadConsent row's status, kept by the trigger below so every writer of evidence
-- (the intake writers, the lead page's actions, imports, merges, erasure) is covered without a
-- change. An inserted row replaces the status only when it is newer (createdAt, then id), so the
-- order concurrent writers commit in never matters, and a deleted or moved row recomputes from what
-- is left (never for a lead being deleted: its status row goes with it, by the foreign key).

-- CreateTable
CREATE TABLE "LeadConsentStatus" (
    "leadId" TEXT NOT NULL,
    "teamId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "consentId" TEXT NOT NULL,

    CONSTRAINT "LeadConsentStatus_pkey" PRIMARY KEY ("leadId")
);

-- CreateIndex
CREATE INDEX "LeadConsentStatus_teamId_status_idx" ON "LeadConsentStatus"("teamId", "status");

-- AddForeignKey
ALTER TABLE "LeadConsentStatus" ADD CONSTRAINT "LeadConsentStatus_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
SELECT "leadId", "teamId", "status", "createdAt", "id" FROM (
  SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c."leadId" ORDER BY c."createdAt" DESC, c."id" DESC) AS "rank" FROM "LeadConsent" AS c
) AS "newest" WHERE "rank" = 1;

-- The function's body is an E'' string with \073 for the statement ends (see 20261203000001).
CREATE OR REPLACE FUNCTION "lead_consent_status_sync"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  IF TG_OP = ''INSERT'' THEN
    INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
    VALUES (NEW."leadId", NEW."teamId", NEW."status", NEW."createdAt", NEW."id")
    ON CONFLICT ("leadId") DO UPDATE SET "teamId" = EXCLUDED."teamId", "status" = EXCLUDED."status", "at" = EXCLUDED."at", "consentId" = EXCLUDED."consentId"
    WHERE ("LeadConsentStatus"."at", "LeadConsentStatus"."consentId") < (EXCLUDED."at", EXCLUDED."consentId")\073
    RETURN NULL\073
  END IF\073
  DELETE FROM "LeadConsentStatus" WHERE "leadId" = OLD."leadId"\073
  INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
  SELECT c."leadId", c."teamId", c."status", c."createdAt", c."id" FROM "LeadConsent" AS c
  WHERE c."leadId" = OLD."leadId" AND EXISTS (SELECT 1 FROM "Lead" WHERE "id" = OLD."leadId")
  ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1\073
  IF TG_OP = ''UPDATE'' AND NEW."leadId" IS DISTINCT FROM OLD."leadId" THEN
    DELETE FROM "LeadConsentStatus" WHERE "leadId" = NEW."leadId"\073
    INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
    SELECT c."leadId", c."teamId", c."status", c."createdAt", c."id" FROM "LeadConsent" AS c
    WHERE c."leadId" = NEW."leadId" ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1\073
  END IF\073
  RETURN NULL\073
END';

CREATE TRIGGER "LeadConsent_status_insert" AFTER INSERT ON "LeadConsent"
FOR EACH ROW EXECUTE FUNCTION "lead_consent_status_sync"();

CREATE TRIGGER "LeadConsent_status_delete" AFTER DELETE ON "LeadConsent"
FOR EACH ROW EXECUTE FUNCTION "lead_consent_status_sync"();

CREATE TRIGGER "LeadConsent_status_update" AFTER UPDATE OF "leadId", "teamId", "status", "createdAt" ON "LeadConsent"
FOR EACH ROW EXECUTE FUNCTION "lead_consent_status_sync"();
