-- Twin of the PostgreSQL migration that gives the lead search keys collation C.
-- Nothing to do on SQLite: its default BINARY collation already compares by code point,
-- so the (teamId, key) indexes serve prefix searches as they are.
SELECT 1;
