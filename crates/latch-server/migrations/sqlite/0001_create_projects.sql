CREATE TABLE projects (
    id TEXT PRIMARY KEY NOT NULL,
    allowed_origins TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
