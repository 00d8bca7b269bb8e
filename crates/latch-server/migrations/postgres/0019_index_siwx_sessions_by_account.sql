CREATE INDEX siwx_sessions_by_account ON siwx_sessions (project_id, account);
