CREATE INDEX siwx_sessions_by_expiry ON siwx_sessions (expires_at);
