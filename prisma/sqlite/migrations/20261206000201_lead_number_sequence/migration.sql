-- Lead numbers from a sequence on PostgreSQL (issue 47; see the PostgreSQL twin). SQLite has one
-- writer at a time and keeps taking numbers from the "lead" Counter row: nothing to change.
SELECT 1;
