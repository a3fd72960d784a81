-- The intake's suppression-list lookup, only for teams whose list was ever used (issue 47, docs/consent.md
-- "Withdrawal and the suppression list"). Every submission with an email address looked its address up
-- in ConsentSuppression: one more query per create, for a list that most teams never use. The team row,
-- which every channel already reads with the key, form or connection, now says whether the list has
-- ever had an entry. A trigger sets it on the first insert, whoever writes it (withdrawal, erasure, a
-- restore), and it is never reset. The key cache holds the team's columns, so the flag joins the
-- columns whose change bumps intakeVersion.

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "suppressionListUsed" BOOLEAN NOT NULL DEFAULT false;

UPDATE "Team" SET "suppressionListUsed" = true
WHERE EXISTS (SELECT 1 FROM "ConsentSuppression" s WHERE s."teamId" = "Team"."id");

CREATE TRIGGER "ConsentSuppression_mark_team" AFTER INSERT ON "ConsentSuppression"
BEGIN
  UPDATE "Team" SET "suppressionListUsed" = true WHERE "id" = NEW."teamId" AND NOT "suppressionListUsed";
END;

DROP TRIGGER "Team_intake_version";

CREATE TRIGGER "Team_intake_version" AFTER UPDATE OF "slug", "defaultPhoneCountry", "repeatWindowDays", "spamThreshold", "spamBusinessOnly", "spamBurstLimit", "spamBurstMinutes", "spamListsVersion", "suppressionListUsed" ON "Team"
WHEN OLD."slug" IS NOT NEW."slug" OR OLD."defaultPhoneCountry" IS NOT NEW."defaultPhoneCountry" OR OLD."repeatWindowDays" IS NOT NEW."repeatWindowDays" OR OLD."spamThreshold" IS NOT NEW."spamThreshold" OR OLD."spamBusinessOnly" IS NOT NEW."spamBusinessOnly" OR OLD."spamBurstLimit" IS NOT NEW."spamBurstLimit" OR OLD."spamBurstMinutes" IS NOT NEW."spamBurstMinutes" OR OLD."spamListsVersion" IS NOT NEW."spamListsVersion" OR OLD."suppressionListUsed" IS NOT NEW."suppressionListUsed"
BEGIN
  UPDATE "Team" SET "intakeVersion" = "intakeVersion" + 1 WHERE "id" = NEW."id";
END;
