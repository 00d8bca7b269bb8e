CREATE TABLE siwx_sessions (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL UNIQUE,
    project_id TEXT NOT NULL,
    account TEXT NOT NULL,
    chain_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    message TEXT NOT NULL,
    signature TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    revoked_at BIGINT
);
