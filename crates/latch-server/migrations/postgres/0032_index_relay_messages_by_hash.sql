-- De-duplication by sha256(message) within a topic.
CREATE UNIQUE INDEX relay_messages_by_hash ON relay_messages (topic, hash);
