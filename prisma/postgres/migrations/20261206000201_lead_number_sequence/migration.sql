-- Lead numbers from a sequence (issue 47, docs/api.md "Lead ids"): a create no longer locks the
-- "lead" Counter row, which serialised every create of every instance. nextval takes no row
-- lock and is never rolled back, so two instances never share a number, a number is never
-- issued twice (not after a restart or a crash either: PostgreSQL logs the sequence ahead of
-- what it hands out), and a rolled-back create leaves a gap. The sequence starts after the
-- counter's value, the last number issued so far. The Counter row stays: writers that need one
-- order among themselves (repeat submissions, releases, an import's round-robin turns) still
-- lock it (lib/leads/lead-writer-postgres.ts). PostgreSQL only: SQLite has one writer and keeps
-- its counter row (this migration's SQLite twin is empty).
CREATE SEQUENCE "LeadNumber" AS INTEGER MINVALUE 0 START WITH 1 NO CYCLE;
SELECT setval('"LeadNumber"', "value", true) FROM "Counter" WHERE "name" = 'lead';
