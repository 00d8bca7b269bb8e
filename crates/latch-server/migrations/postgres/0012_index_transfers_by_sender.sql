CREATE INDEX transfers_by_sender ON transfers (sender, block_number);
