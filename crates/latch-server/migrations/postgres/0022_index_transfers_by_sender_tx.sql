CREATE INDEX transfers_by_sender_tx ON transfers (sender, block_number, tx_index, chain);
