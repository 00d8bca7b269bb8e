ALTER TABLE siwx_sessions ADD COLUMN refresh_hash TEXT NOT NULL DEFAULT '';
