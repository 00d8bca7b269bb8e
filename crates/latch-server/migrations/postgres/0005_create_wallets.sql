CREATE TABLE wallets (
    id TEXT PRIMARY KEY NOT NULL,
    name TEXT NOT NULL,
    position BIGINT NOT NULL,
    data TEXT NOT NULL
);
