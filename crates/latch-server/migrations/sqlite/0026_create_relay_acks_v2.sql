-- WITHOUT ROWID: the primary key is the table, one B-tree instead of a table and its index.
CREATE TABLE relay_acks_v2 (
    message_id BIGINT NOT NULL,
    client_id TEXT NOT NULL,
    PRIMARY KEY (message_id, client_id)
) WITHOUT ROWID;
