-- The dashboard rollup's stale days become append-only marks (lib/dashboard/dashboard-rollup.ts):
-- a recompute no longer locks "Lead" while it reads a day. Before, a writer's mark on a day that
-- was already marked was dropped (ON CONFLICT DO NOTHING), so a recompute had to hold every
-- writer back (LOCK TABLE "Lead" IN SHARE MODE) until it had cleared the mark. Now every writer
-- appends its own mark, and a recompute deletes only the marks its snapshot saw.

-- CreateTable
CREATE TABLE "DashboardDayMark" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "day" TEXT NOT NULL,

    CONSTRAINT "DashboardDayMark_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DashboardDayMark_teamId_day_idx" ON "DashboardDayMark"("teamId", "day");

INSERT INTO "DashboardDayMark" ("teamId", "day") SELECT "teamId", "day" FROM "DashboardDayStale";

-- The functions' bodies are E'' strings with \073 for the statement ends (see 20261203000001).
CREATE OR REPLACE FUNCTION "dashboard_mark_changed_days"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "DashboardDayMark" ("teamId", "day")
  SELECT c."teamId", c."day" FROM (SELECT DISTINCT "teamId", to_char("createdAt", ''YYYY-MM-DD'') AS "day" FROM changed) AS c
  WHERE EXISTS (SELECT 1 FROM "DashboardDay" AS d WHERE d."teamId" = c."teamId" AND d."day" = c."day")\073
  RETURN NULL\073
END';

CREATE OR REPLACE FUNCTION "dashboard_mark_updated_days"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  INSERT INTO "DashboardDayMark" ("teamId", "day")
  SELECT d."teamId", d."day" FROM "DashboardDay" AS d
  WHERE (d."teamId" = OLD."teamId" AND d."day" = to_char(OLD."createdAt", ''YYYY-MM-DD''))
     OR (d."teamId" = NEW."teamId" AND d."day" = to_char(NEW."createdAt", ''YYYY-MM-DD''))\073
  RETURN NULL\073
END';

-- DropTable
DROP TABLE "DashboardDayStale";
