-- SQLite keeps the mailbox as a journal, a row per group commit (`store::journal`); its
-- first use moves what the tables above hold into it. Postgres, shared by several nodes,
-- keeps the tables.
-- A step of SQLite only: nothing here (kept so both backends count the same versions).
SELECT 1;
