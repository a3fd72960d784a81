-- The lower-cased search keys compare by code point (collation C), whatever the
-- database collation is. Only then can PostgreSQL answer a prefix search (a LIKE prefix
-- or a range) from the (teamId, key) indexes. Under a locale collation it read every
-- lead of the team (README, What limits each number). The indexes on these columns are
-- rebuilt. Prisma schemas have no column collation, so models.prisma does not change.
ALTER TABLE "Lead"
  ALTER COLUMN "emailKey" TYPE TEXT COLLATE "C",
  ALTER COLUMN "nameKey" TYPE TEXT COLLATE "C",
  ALTER COLUMN "lastNameKey" TYPE TEXT COLLATE "C",
  ALTER COLUMN "organizationKey" TYPE TEXT COLLATE "C";
