-- A lead's current consent status (issue 46, docs/consent.md "Filtering the list by consent"):
-- its newest LeadConsent row's status, kept by the triggers below so every writer of evidence
-- (the intake writers, the lead page's actions, imports, merges, erasure) is covered without a
-- change. An inserted row replaces the status only when it is newer (createdAt, then id), so the
-- order writers commit in never matters, and a deleted or moved row recomputes from what is left
-- (never for a lead being deleted: its status row goes with it, by the foreign key).

-- CreateTable
CREATE TABLE "LeadConsentStatus" (
    "leadId" TEXT NOT NULL PRIMARY KEY,
    "teamId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "at" DATETIME NOT NULL,
    "consentId" TEXT NOT NULL,
    CONSTRAINT "LeadConsentStatus_leadId_fkey" FOREIGN KEY ("leadId") REFERENCES "Lead" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "LeadConsentStatus_teamId_status_idx" ON "LeadConsentStatus"("teamId", "status");

INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
SELECT "leadId", "teamId", "status", "createdAt", "id" FROM (
  SELECT c.*, ROW_NUMBER() OVER (PARTITION BY c."leadId" ORDER BY c."createdAt" DESC, c."id" DESC) AS "rank" FROM "LeadConsent" AS c
) AS "newest" WHERE "rank" = 1;

CREATE TRIGGER "LeadConsent_status_insert" AFTER INSERT ON "LeadConsent"
BEGIN
  INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
  VALUES (NEW."leadId", NEW."teamId", NEW."status", NEW."createdAt", NEW."id")
  ON CONFLICT ("leadId") DO UPDATE SET "teamId" = excluded."teamId", "status" = excluded."status", "at" = excluded."at", "consentId" = excluded."consentId"
  WHERE ("LeadConsentStatus"."at", "LeadConsentStatus"."consentId") < (excluded."at", excluded."consentId");
END;

CREATE TRIGGER "LeadConsent_status_delete" AFTER DELETE ON "LeadConsent"
BEGIN
  DELETE FROM "LeadConsentStatus" WHERE "leadId" = OLD."leadId";
  INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
  SELECT c."leadId", c."teamId", c."status", c."createdAt", c."id" FROM "LeadConsent" AS c
  WHERE c."leadId" = OLD."leadId" AND EXISTS (SELECT 1 FROM "Lead" WHERE "id" = OLD."leadId") ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1;
END;

CREATE TRIGGER "LeadConsent_status_update" AFTER UPDATE OF "leadId", "teamId", "status", "createdAt" ON "LeadConsent"
BEGIN
  DELETE FROM "LeadConsentStatus" WHERE "leadId" IN (OLD."leadId", NEW."leadId");
  INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
  SELECT c."leadId", c."teamId", c."status", c."createdAt", c."id" FROM "LeadConsent" AS c
  WHERE c."leadId" = OLD."leadId" AND EXISTS (SELECT 1 FROM "Lead" WHERE "id" = OLD."leadId") ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1;
  INSERT INTO "LeadConsentStatus" ("leadId", "teamId", "status", "at", "consentId")
  SELECT c."leadId", c."teamId", c."status", c."createdAt", c."id" FROM "LeadConsent" AS c
  WHERE c."leadId" = NEW."leadId" AND NEW."leadId" IS NOT OLD."leadId" ORDER BY c."createdAt" DESC, c."id" DESC LIMIT 1;
END;
