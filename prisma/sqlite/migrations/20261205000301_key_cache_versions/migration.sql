-- The per-process API key cache (issue 47, lib/api-keys/key-cache.ts, docs/security.md "The key
-- cache"): a key's authVersion and its team's intakeVersion are bumped here, in the database, by
-- every write that changes what authentication reads, whoever writes it (the app, the CLIs, a
-- cascade, an operator's SQL). Each request reads both with the key in one statement, and a
-- cached key is used only while they are what it was read with. A deleted key or team has no
-- row, so no trigger is needed for deletions. lastUsedAt (touched once a minute) bumps nothing.

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "authVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "intakeVersion" INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER "ApiKey_auth_version" AFTER UPDATE OF "teamId", "secretDigest", "expiresAt", "repeats", "spamChecks" ON "ApiKey"
WHEN OLD."teamId" IS NOT NEW."teamId" OR OLD."secretDigest" IS NOT NEW."secretDigest" OR OLD."expiresAt" IS NOT NEW."expiresAt" OR OLD."repeats" IS NOT NEW."repeats" OR OLD."spamChecks" IS NOT NEW."spamChecks"
BEGIN
  UPDATE "ApiKey" SET "authVersion" = "authVersion" + 1 WHERE "id" = NEW."id";
END;

CREATE TRIGGER "Team_intake_version" AFTER UPDATE OF "slug", "defaultPhoneCountry", "repeatWindowDays", "spamThreshold", "spamBusinessOnly", "spamBurstLimit", "spamBurstMinutes", "spamListsVersion" ON "Team"
WHEN OLD."slug" IS NOT NEW."slug" OR OLD."defaultPhoneCountry" IS NOT NEW."defaultPhoneCountry" OR OLD."repeatWindowDays" IS NOT NEW."repeatWindowDays" OR OLD."spamThreshold" IS NOT NEW."spamThreshold" OR OLD."spamBusinessOnly" IS NOT NEW."spamBusinessOnly" OR OLD."spamBurstLimit" IS NOT NEW."spamBurstLimit" OR OLD."spamBurstMinutes" IS NOT NEW."spamBurstMinutes" OR OLD."spamListsVersion" IS NOT NEW."spamListsVersion"
BEGIN
  UPDATE "Team" SET "intakeVersion" = "intakeVersion" + 1 WHERE "id" = NEW."id";
END;
