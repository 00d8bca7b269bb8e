CREATE INDEX name_addresses_by_address ON name_addresses (address_key);
