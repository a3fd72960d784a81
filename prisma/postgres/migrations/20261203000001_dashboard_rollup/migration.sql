-- Leads → Overview's per-day rollup (issue 43, docs/attribution.md "Dashboard queries and their
-- speed", lib/dashboard/dashboard-rollup.ts). Counts and ids only, no personal data.

-- CreateTable
CREATE TABLE "DashboardDay" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "computedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "DashboardDay_pkey" PRIMARY KEY ("teamId","day")
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

    CONSTRAINT "DashboardDayCount_pkey" PRIMARY KEY ("teamId","dim","day","key")
);

-- CreateTable
CREATE TABLE "DashboardDayContact" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "dim" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "bucket" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,

    CONSTRAINT "DashboardDayContact_pkey" PRIMARY KEY ("teamId","dim","key","day","bucket")
);

-- CreateTable
CREATE TABLE "DashboardDayStale" (
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,

    CONSTRAINT "DashboardDayStale_pkey" PRIMARY KEY ("teamId","day")
);


-- Every writer of Lead (the lead writer, imports, merges, status and owner changes, deletions,
-- retention, erasure, spam moves, a team's deletion) marks the days it changes stale, here in
-- the database: a day is marked only when its rollup exists (a day without one is computed
-- when read), so a lead written today touches no rollup row. An update marks its old and its
-- new day, and only when a column the rollup reads changed. Inserts and deletes: one trigger
-- call per statement over its rows (a transition table), so a bulk insert pays once.
-- The functions' bodies are E'' strings with \073 for the statement ends: prisma migrate deploy
-- through the pg adapter splits a migration at every semicolon, dollar quotes included.
CREATE FUNCTION "dashboard_mark_changed_days"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "DashboardDayStale" ("teamId", "day")
  SELECT c."teamId", c."day" FROM (SELECT DISTINCT "teamId", to_char("createdAt", ''YYYY-MM-DD'') AS "day" FROM changed) AS c
  WHERE EXISTS (SELECT 1 FROM "DashboardDay" AS d WHERE d."teamId" = c."teamId" AND d."day" = c."day")
  ON CONFLICT DO NOTHING\073
  RETURN NULL\073
END';

CREATE TRIGGER "Lead_dashboard_insert" AFTER INSERT ON "Lead" REFERENCING NEW TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_mark_changed_days"();

CREATE TRIGGER "Lead_dashboard_delete" AFTER DELETE ON "Lead" REFERENCING OLD TABLE AS changed
FOR EACH STATEMENT EXECUTE FUNCTION "dashboard_mark_changed_days"();

CREATE FUNCTION "dashboard_mark_updated_days"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "DashboardDayStale" ("teamId", "day")
  SELECT d."teamId", d."day" FROM "DashboardDay" AS d
  WHERE (d."teamId" = OLD."teamId" AND d."day" = to_char(OLD."createdAt", ''YYYY-MM-DD''))
     OR (d."teamId" = NEW."teamId" AND d."day" = to_char(NEW."createdAt", ''YYYY-MM-DD''))
  ON CONFLICT DO NOTHING\073
  RETURN NULL\073
END';

CREATE TRIGGER "Lead_dashboard_update" AFTER UPDATE ON "Lead" FOR EACH ROW
WHEN (OLD."teamId" IS DISTINCT FROM NEW."teamId" OR OLD."createdAt" IS DISTINCT FROM NEW."createdAt" OR OLD."status" IS DISTINCT FROM NEW."status" OR OLD."firstContactedAt" IS DISTINCT FROM NEW."firstContactedAt" OR OLD."ownerId" IS DISTINCT FROM NEW."ownerId" OR OLD."channelGroup" IS DISTINCT FROM NEW."channelGroup" OR OLD."sourceId" IS DISTINCT FROM NEW."sourceId" OR OLD."formId" IS DISTINCT FROM NEW."formId" OR OLD."connectionId" IS DISTINCT FROM NEW."connectionId" OR OLD."apiKeyId" IS DISTINCT FROM NEW."apiKeyId" OR OLD."utmCampaign" IS DISTINCT FROM NEW."utmCampaign")
EXECUTE FUNCTION "dashboard_mark_updated_days"();

-- Deleting a day's histogram when it is recomputed.
CREATE INDEX "DashboardDayContact_teamId_day_idx" ON "DashboardDayContact"("teamId", "day");
