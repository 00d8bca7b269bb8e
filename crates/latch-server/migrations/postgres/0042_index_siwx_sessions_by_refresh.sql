CREATE INDEX siwx_sessions_by_refresh ON siwx_sessions (refresh_hash);
