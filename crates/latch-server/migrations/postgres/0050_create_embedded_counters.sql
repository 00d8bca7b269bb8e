CREATE TABLE embedded_counters (
    key TEXT NOT NULL,
    day BIGINT NOT NULL,
    count BIGINT NOT NULL,
    PRIMARY KEY (key, day)
);
