CREATE TABLE indexed_blocks (
    chain TEXT NOT NULL,
    number BIGINT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (chain, number)
);
