-- The dashboard rollup's stale days become append-only marks (lib/dashboard/dashboard-rollup.ts);
-- see the PostgreSQL migration of the same name for why. SQLite's recompute stays one write
-- transaction (writers are serialized anyway), and the triggers append marks as PostgreSQL's do.

-- CreateTable
CREATE TABLE "DashboardDayMark" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL
);

-- CreateIndex
CREATE INDEX "DashboardDayMark_teamId_day_idx" ON "DashboardDayMark"("teamId", "day");

INSERT INTO "DashboardDayMark" ("teamId", "day") SELECT "teamId", "day" FROM "DashboardDayStale";

DROP TRIGGER "Lead_dashboard_insert";
DROP TRIGGER "Lead_dashboard_delete";
DROP TRIGGER "Lead_dashboard_update";

CREATE TRIGGER "Lead_dashboard_insert" AFTER INSERT ON "Lead"
BEGIN
  INSERT INTO "DashboardDayMark" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay" WHERE "teamId" = NEW."teamId" AND "day" = substr(NEW."createdAt", 1, 10);
END;

CREATE TRIGGER "Lead_dashboard_delete" AFTER DELETE ON "Lead"
BEGIN
  INSERT INTO "DashboardDayMark" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay" WHERE "teamId" = OLD."teamId" AND "day" = substr(OLD."createdAt", 1, 10);
END;

CREATE TRIGGER "Lead_dashboard_update" AFTER UPDATE OF "teamId", "createdAt", "status", "firstContactedAt", "ownerId", "channelGroup", "sourceId", "formId", "connectionId", "apiKeyId", "utmCampaign" ON "Lead"
WHEN OLD."teamId" IS NOT NEW."teamId" OR OLD."createdAt" IS NOT NEW."createdAt" OR OLD."status" IS NOT NEW."status" OR OLD."firstContactedAt" IS NOT NEW."firstContactedAt" OR OLD."ownerId" IS NOT NEW."ownerId" OR OLD."channelGroup" IS NOT NEW."channelGroup" OR OLD."sourceId" IS NOT NEW."sourceId" OR OLD."formId" IS NOT NEW."formId" OR OLD."connectionId" IS NOT NEW."connectionId" OR OLD."apiKeyId" IS NOT NEW."apiKeyId" OR OLD."utmCampaign" IS NOT NEW."utmCampaign"
BEGIN
  INSERT INTO "DashboardDayMark" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay"
  WHERE ("teamId" = OLD."teamId" AND "day" = substr(OLD."createdAt", 1, 10)) OR ("teamId" = NEW."teamId" AND "day" = substr(NEW."createdAt", 1, 10));
END;

-- DropTable
DROP TABLE "DashboardDayStale";
