//! Projects and their analytics events.

/// Implements [`super::super::ProjectStore`], [`super::super::AnalyticsStore`] for `$store` (with a `pool` field)
/// whose rows are `$row` on database `$db`.
macro_rules! impl_projects_store {
    ($store:ty, $row:ty, $db:ty) => {
        fn project_from_row(row: &$row) -> StoreResult<Project> {
            let origins: String = row.try_get("allowed_origins")?;
            Ok(Project {
                id: row.try_get("id")?,
                allowed_origins: serde_json::from_str(&origins)
                    .map_err(|e| StoreError::Corrupt(format!("allowed_origins: {e}")))?,
                created_at: row.try_get("created_at")?,
                analytics_enabled: row.try_get("analytics_enabled")?,
            })
        }

        fn event_from_row(row: &$row) -> StoreResult<AnalyticsEvent> {
            Ok(AnalyticsEvent {
                project_id: row.try_get("project_id")?,
                event_id: row.try_get("event_id")?,
                event: row.try_get("event")?,
                kind: row.try_get("kind")?,
                address: row.try_get("address")?,
                domain: row.try_get("domain")?,
                url: row.try_get("url")?,
                occurred_at: row.try_get("occurred_at")?,
                received_at: row.try_get("received_at")?,
                properties: row.try_get("properties")?,
            })
        }

        #[async_trait]
        impl ProjectStore for $store {
            async fn put_project(&self, project: &Project) -> StoreResult<()> {
                let origins =
                    serde_json::to_string(&project.allowed_origins).map_err(|e| StoreError::Corrupt(e.to_string()))?;
                sqlx::query(
                    "INSERT INTO projects (id, allowed_origins, created_at, analytics_enabled) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (id) DO UPDATE SET allowed_origins = excluded.allowed_origins,
                     analytics_enabled = excluded.analytics_enabled",
                )
                .bind(&project.id)
                .bind(origins)
                .bind(project.created_at)
                .bind(project.analytics_enabled)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn project(&self, id: &str) -> StoreResult<Option<Project>> {
                let row = sqlx::query(
                    "SELECT id, allowed_origins, created_at, analytics_enabled FROM projects WHERE id = $1",
                )
                .bind(id)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map(project_from_row).transpose()
            }

            async fn projects(&self) -> StoreResult<Vec<Project>> {
                let rows =
                    sqlx::query("SELECT id, allowed_origins, created_at, analytics_enabled FROM projects ORDER BY id")
                        .fetch_all(&self.pool)
                        .await?;
                rows.iter().map(project_from_row).collect()
            }

            async fn remove_project(&self, id: &str) -> StoreResult<bool> {
                let done = sqlx::query("DELETE FROM projects WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }
        }

        #[async_trait]
        impl AnalyticsStore for $store {
            async fn add_events(&self, events: &[AnalyticsEvent]) -> StoreResult<u64> {
                let mut tx = self.pool.begin().await?;
                let mut added = 0;
                for event in events {
                    let done = sqlx::query(
                        "INSERT INTO analytics_events (project_id, event_id, event, kind, address, domain, url,
                         occurred_at, received_at, properties) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                         ON CONFLICT (project_id, event_id) DO NOTHING",
                    )
                    .bind(&event.project_id)
                    .bind(&event.event_id)
                    .bind(&event.event)
                    .bind(&event.kind)
                    .bind(&event.address)
                    .bind(&event.domain)
                    .bind(&event.url)
                    .bind(event.occurred_at)
                    .bind(event.received_at)
                    .bind(&event.properties)
                    .execute(&mut *tx)
                    .await?;
                    added += done.rows_affected();
                }
                tx.commit().await?;
                Ok(added)
            }

            async fn events(&self, project_id: &str, since_ms: i64, limit: u32) -> StoreResult<Vec<AnalyticsEvent>> {
                let rows = sqlx::query(
                    "SELECT project_id, event_id, event, kind, address, domain, url, occurred_at, received_at,
                     properties FROM analytics_events WHERE project_id = $1 AND occurred_at >= $2
                     ORDER BY occurred_at, event_id LIMIT $3",
                )
                .bind(project_id)
                .bind(since_ms)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(event_from_row).collect()
            }
        }
    };
}

pub(in crate::store) use impl_projects_store;
