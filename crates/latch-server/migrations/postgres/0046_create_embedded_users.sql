-- Embedded-wallet login (crate::embedded; the tables are described in store::embedded).
CREATE TABLE embedded_users (
    id TEXT PRIMARY KEY,
    project_id TEXT NOT NULL,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL,
    user_name TEXT,
    created_at BIGINT NOT NULL,
    UNIQUE (project_id, email_key)
);
