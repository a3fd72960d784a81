-- The per-process API key cache (issue 47, lib/api-keys/key-cache.ts, docs/security.md "The key
-- cache"): a key's authVersion and its team's intakeVersion are bumped here, in the database, by
-- every write that changes what authentication reads, whoever writes it (the app, the CLIs, a
-- cascade, an operator's SQL). Each request reads both with the key in one statement, and a
-- cached key is used only while they are what it was read with. A deleted key or team has no
-- row, so no trigger is needed for deletions. lastUsedAt (touched once a minute) bumps nothing.
-- BEFORE UPDATE triggers set the new row's version: no second write, no lock beyond the row's.
-- The functions' bodies are E'' strings with \073 for the statement ends: prisma migrate deploy
-- through the pg adapter splits a migration at every semicolon, dollar quotes included.

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "authVersion" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Team" ADD COLUMN "intakeVersion" INTEGER NOT NULL DEFAULT 0;

CREATE FUNCTION "api_key_bump_auth_version"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW."authVersion" := OLD."authVersion" + 1\073
  RETURN NEW\073
END';

CREATE TRIGGER "ApiKey_auth_version" BEFORE UPDATE ON "ApiKey" FOR EACH ROW
WHEN (OLD."teamId" IS DISTINCT FROM NEW."teamId" OR OLD."secretDigest" IS DISTINCT FROM NEW."secretDigest" OR OLD."expiresAt" IS DISTINCT FROM NEW."expiresAt" OR OLD."repeats" IS DISTINCT FROM NEW."repeats" OR OLD."spamChecks" IS DISTINCT FROM NEW."spamChecks")
EXECUTE FUNCTION "api_key_bump_auth_version"();

CREATE FUNCTION "team_bump_intake_version"() RETURNS trigger LANGUAGE plpgsql AS E'
BEGIN
  NEW."intakeVersion" := OLD."intakeVersion" + 1\073
  RETURN NEW\073
END';

CREATE TRIGGER "Team_intake_version" BEFORE UPDATE ON "Team" FOR EACH ROW
WHEN (OLD."slug" IS DISTINCT FROM NEW."slug" OR OLD."defaultPhoneCountry" IS DISTINCT FROM NEW."defaultPhoneCountry" OR OLD."repeatWindowDays" IS DISTINCT FROM NEW."repeatWindowDays" OR OLD."spamThreshold" IS DISTINCT FROM NEW."spamThreshold" OR OLD."spamBusinessOnly" IS DISTINCT FROM NEW."spamBusinessOnly" OR OLD."spamBurstLimit" IS DISTINCT FROM NEW."spamBurstLimit" OR OLD."spamBurstMinutes" IS DISTINCT FROM NEW."spamBurstMinutes" OR OLD."spamListsVersion" IS DISTINCT FROM NEW."spamListsVersion")
EXECUTE FUNCTION "team_bump_intake_version"();
