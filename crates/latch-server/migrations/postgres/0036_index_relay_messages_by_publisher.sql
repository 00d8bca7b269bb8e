-- The relay's per-publisher quota counts a publisher's messages (SQLite counts in its journal's index).
CREATE INDEX relay_messages_by_publisher ON relay_messages (publisher, expires_at);
