CREATE INDEX relay_journal_by_expiry ON relay_journal (expires_at);
