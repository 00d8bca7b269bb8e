CREATE INDEX transfers_by_recipient_tx ON transfers (recipient, block_number, tx_index, chain);
