CREATE TABLE embedded_wallets (
    user_id TEXT PRIMARY KEY,
    auth_share TEXT NOT NULL,
    envelopes TEXT NOT NULL,
    evm_address TEXT,
    solana_address TEXT,
    created_at BIGINT NOT NULL
);
