ALTER TABLE siwx_sessions ADD COLUMN access_expires_at BIGINT NOT NULL DEFAULT 0;
