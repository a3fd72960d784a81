-- The intake's suppression-list lookup, only for teams whose list was ever used (issue 47, docs/consent.md
-- "Withdrawal and the suppression list"). Every submission with an email address looked its address up
-- in ConsentSuppression: one more query per create, for a list that most teams never use. The team row,
-- which every channel already reads with the key, form or connection, now says whether the list has
-- ever had an entry. A trigger sets it on the first insert, whoever writes it (withdrawal, erasure, a
-- restore), and it is never reset. The key cache holds the team's columns, so the flag joins the
-- columns whose change bumps intakeVersion. The functions' bodies are E'' strings with \073 for the
-- statement ends: prisma migrate deploy through the pg adapter splits a migration at every semicolon.

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "suppressionListUsed" BOOLEAN NOT NULL DEFAULT false;

UPDATE "Team" SET "suppressionListUsed" = true
WHERE EXISTS (SELECT 1 FROM "ConsentSuppression" s WHERE s."teamId" = "Team"."id");

-- Only the first entry writes the team row: later ones match no row, so they take no lock on it.
CREATE FUNCTION "consent_suppression_mark_team"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  UPDATE "Team" SET "suppressionListUsed" = true WHERE "id" = NEW."teamId" AND NOT "suppressionListUsed"\073
  RETURN NULL\073
END';

CREATE TRIGGER "ConsentSuppression_mark_team" AFTER INSERT ON "ConsentSuppression" FOR EACH ROW
EXECUTE FUNCTION "consent_suppression_mark_team"();

DROP TRIGGER "Team_intake_version" ON "Team";

CREATE TRIGGER "Team_intake_version" BEFORE UPDATE ON "Team" FOR EACH ROW
WHEN (OLD."slug" IS DISTINCT FROM NEW."slug" OR OLD."defaultPhoneCountry" IS DISTINCT FROM NEW."defaultPhoneCountry" OR OLD."repeatWindowDays" IS DISTINCT FROM NEW."repeatWindowDays" OR OLD."spamThreshold" IS DISTINCT FROM NEW."spamThreshold" OR OLD."spamBusinessOnly" IS DISTINCT FROM NEW."spamBusinessOnly" OR OLD."spamBurstLimit" IS DISTINCT FROM NEW."spamBurstLimit" OR OLD."spamBurstMinutes" IS DISTINCT FROM NEW."spamBurstMinutes" OR OLD."spamListsVersion" IS DISTINCT FROM NEW."spamListsVersion" OR OLD."suppressionListUsed" IS DISTINCT FROM NEW."suppressionListUsed")
EXECUTE FUNCTION "team_bump_intake_version"();
