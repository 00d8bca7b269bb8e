CREATE TABLE embedded_codes (
    project_id TEXT NOT NULL,
    email_key TEXT NOT NULL,
    purpose TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    device_hash TEXT,
    payload TEXT,
    attempts BIGINT NOT NULL,
    sent_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (project_id, email_key, purpose)
);
