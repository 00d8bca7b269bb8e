-- A step of SQLite only: nothing here (kept so both backends count the same versions).
SELECT 1;
