-- BYTEA: PostgreSQL's binary type; SQLite stores the bound blob as is.
CREATE TABLE images (
    kind TEXT NOT NULL,
    id TEXT NOT NULL,
    content_type TEXT NOT NULL,
    data BYTEA NOT NULL,
    etag TEXT NOT NULL,
    PRIMARY KEY (kind, id)
);
