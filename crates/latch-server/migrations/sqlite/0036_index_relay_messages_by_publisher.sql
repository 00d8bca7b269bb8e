-- The relay's per-publisher quota counts a publisher's messages (SQLite counts in its journal's index).
-- A step of PostgreSQL only: nothing here (kept so both backends count the same versions).
SELECT 1;
