-- On-ramp purchases delivered (crate::onramp): the history marks their transactions.
CREATE TABLE onramp_purchases (
    tx_hash TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    recorded_at BIGINT NOT NULL
);
