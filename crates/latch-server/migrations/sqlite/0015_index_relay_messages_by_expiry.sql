CREATE INDEX relay_messages_by_expiry ON relay_messages (expires_at);
