-- The mailbox keyed by a sequence number: messages are appended in storage order and acks
-- name (message id, client), so a commit's acks land at the end of their B-tree instead of
-- on one random page each (random (topic, hash, client) keys kept the writer busy rewriting
-- pages). Ids are never reused, so a late ack cannot settle a newer message.
CREATE TABLE relay_messages_v2 (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    topic TEXT NOT NULL,
    hash TEXT NOT NULL,
    message TEXT NOT NULL,
    tag BIGINT NOT NULL,
    publisher TEXT NOT NULL,
    published_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
