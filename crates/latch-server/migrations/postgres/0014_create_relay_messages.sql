-- The relay mailbox (crate::relay): a message per (topic, sha256 of it), and who acked it.
CREATE TABLE relay_messages (
    topic TEXT NOT NULL,
    hash TEXT NOT NULL,
    message TEXT NOT NULL,
    tag BIGINT NOT NULL,
    publisher TEXT NOT NULL,
    published_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (topic, hash)
);
