CREATE TABLE analytics_events (
    project_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event TEXT NOT NULL,
    kind TEXT NOT NULL,
    address TEXT,
    domain TEXT NOT NULL,
    url TEXT NOT NULL,
    occurred_at BIGINT NOT NULL,
    received_at BIGINT NOT NULL,
    properties TEXT,
    PRIMARY KEY (project_id, event_id)
);
