CREATE INDEX siwx_sessions_by_used_refresh ON siwx_sessions (refresh_used_hash);
