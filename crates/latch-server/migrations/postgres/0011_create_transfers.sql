CREATE TABLE transfers (
    chain TEXT NOT NULL,
    block_number BIGINT NOT NULL,
    tx_index BIGINT NOT NULL,
    log_index BIGINT NOT NULL,
    tx_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    token TEXT,
    token_id TEXT,
    sender TEXT NOT NULL,
    recipient TEXT NOT NULL,
    amount TEXT NOT NULL,
    mined_at BIGINT NOT NULL,
    success BOOLEAN NOT NULL,
    nonce BIGINT NOT NULL,
    tx_from TEXT NOT NULL,
    tx_to TEXT,
    PRIMARY KEY (chain, block_number, tx_index, log_index)
);
