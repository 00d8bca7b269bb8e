CREATE INDEX siwx_sessions_by_access ON siwx_sessions (access_hash);
