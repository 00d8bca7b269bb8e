ALTER TABLE siwx_sessions ADD COLUMN refresh_used_hash TEXT;
