-- Sign in with X (crate::siwx).
CREATE TABLE siwx_nonces (
    nonce TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    domain TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    used INTEGER NOT NULL
);
