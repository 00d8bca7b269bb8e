-- address_key: the address lower-cased, for reverse lookups whatever the checksum case.
CREATE TABLE name_addresses (
    name TEXT NOT NULL REFERENCES names (name),
    coin_type BIGINT NOT NULL,
    address TEXT NOT NULL,
    address_key TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (name, coin_type)
);
