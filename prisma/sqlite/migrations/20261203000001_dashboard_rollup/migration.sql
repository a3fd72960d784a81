-- Leads → Overview's per-day rollup (issue 43, docs/attribution.md "Dashboard queries and their
-- speed", lib/dashboard/dashboard-rollup.ts). Counts and ids only, no personal data.

-- CreateTable
CREATE TABLE "DashboardDay" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "computedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("teamId", "day")
);

-- CreateTable
CREATE TABLE "DashboardDayCount" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dim" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "leads" INTEGER NOT NULL,
    "contacted" INTEGER NOT NULL,
    "qualified" INTEGER NOT NULL,

    PRIMARY KEY ("teamId", "dim", "day", "key")
);

-- CreateTable
CREATE TABLE "DashboardDayContact" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dim" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,

    PRIMARY KEY ("teamId", "dim", "key", "day", "bucket")
);

-- CreateTable
CREATE TABLE "DashboardDayStale" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,

    PRIMARY KEY ("teamId", "day")
);


-- Every writer of Lead (the lead writer, imports, merges, status and owner changes, deletions,
-- retention, erasure, spam moves, a team's deletion) marks the days it changes stale, here in
-- the database: a day is marked only when its rollup exists (a day without one is computed
-- when read), so a lead written today touches no rollup row. An update marks its old and its
-- new day, and only when a column the rollup reads changed.
CREATE TRIGGER "Lead_dashboard_insert" AFTER INSERT ON "Lead"
BEGIN
  INSERT OR IGNORE INTO "DashboardDayStale" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay" WHERE "teamId" = NEW."teamId" AND "day" = substr(NEW."createdAt", 1, 10);
END;

CREATE TRIGGER "Lead_dashboard_delete" AFTER DELETE ON "Lead"
BEGIN
  INSERT OR IGNORE INTO "DashboardDayStale" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay" WHERE "teamId" = OLD."teamId" AND "day" = substr(OLD."createdAt", 1, 10);
END;

CREATE TRIGGER "Lead_dashboard_update" AFTER UPDATE OF "teamId", "createdAt", "status", "firstContactedAt", "ownerId", "channelGroup", "sourceId", "formId", "connectionId", "apiKeyId", "utmCampaign" ON "Lead"
WHEN OLD."teamId" IS NOT NEW."teamId" OR OLD."createdAt" IS NOT NEW."createdAt" OR OLD."status" IS NOT NEW."status" OR OLD."firstContactedAt" IS NOT NEW."firstContactedAt" OR OLD."ownerId" IS NOT NEW."ownerId" OR OLD."channelGroup" IS NOT NEW."channelGroup" OR OLD."sourceId" IS NOT NEW."sourceId" OR OLD."formId" IS NOT NEW."formId" OR OLD."connectionId" IS NOT NEW."connectionId" OR OLD."apiKeyId" IS NOT NEW."apiKeyId" OR OLD."utmCampaign" IS NOT NEW."utmCampaign"
BEGIN
  INSERT OR IGNORE INTO "DashboardDayStale" ("teamId", "day")
  SELECT "teamId", "day" FROM "DashboardDay"
  WHERE ("teamId" = OLD."teamId" AND "day" = substr(OLD."createdAt", 1, 10)) OR ("teamId" = NEW."teamId" AND "day" = substr(NEW."createdAt", 1, 10));
END;

-- Deleting a day's histogram when it is recomputed.
CREATE INDEX "DashboardDayContact_teamId_day_idx" ON "DashboardDayContact"("teamId", "day");
