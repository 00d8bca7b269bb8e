CREATE TABLE names (
    name TEXT PRIMARY KEY NOT NULL,
    attributes TEXT NOT NULL,
    registered_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
