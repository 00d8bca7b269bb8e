CREATE INDEX transfers_by_recipient ON transfers (recipient, block_number);
