CREATE TABLE embedded_devices (
    user_id TEXT NOT NULL,
    device_hash TEXT NOT NULL,
    approved_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, device_hash)
);
