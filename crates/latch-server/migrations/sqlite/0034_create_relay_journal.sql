-- SQLite keeps the mailbox as a journal, a row per group commit (`store::journal`); its
-- first use moves what the tables above hold into it. Postgres, shared by several nodes,
-- keeps the tables.
CREATE TABLE relay_journal (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    expires_at BIGINT NOT NULL,
    body BLOB NOT NULL
);
