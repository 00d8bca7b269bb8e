CREATE INDEX analytics_events_by_time ON analytics_events (project_id, occurred_at);
