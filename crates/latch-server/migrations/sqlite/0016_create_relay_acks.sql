CREATE TABLE relay_acks (
    topic TEXT NOT NULL,
    hash TEXT NOT NULL,
    client_id TEXT NOT NULL,
    PRIMARY KEY (topic, hash, client_id)
);
