-- Pending messages keep their order (oldest first) and their acks.
INSERT INTO relay_messages_v2 (topic, hash, message, tag, publisher, published_at, expires_at)
SELECT topic, hash, message, tag, publisher, published_at, expires_at FROM relay_messages
ORDER BY published_at, hash;
