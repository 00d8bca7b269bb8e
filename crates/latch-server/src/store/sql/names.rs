//! Registered names and their addresses.

/// Implements [`super::super::NameStore`] for `$store` (with a `pool` field)
/// whose rows are `$row` on database `$db`.
macro_rules! impl_names_store {
    ($store:ty, $row:ty, $db:ty) => {
        #[async_trait]
        impl NameStore for $store {
            async fn add_name(&self, record: &NameRecord) -> StoreResult<bool> {
                let mut tx = self.pool.begin().await?;
                let added = sqlx::query(
                    "INSERT INTO names (name, attributes, registered_at, updated_at) VALUES ($1, $2, $3, $4)
                     ON CONFLICT (name) DO NOTHING",
                )
                .bind(&record.name)
                .bind(&record.attributes)
                .bind(record.registered_at)
                .bind(record.updated_at)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    > 0;
                if !added {
                    return Ok(false);
                }
                for (coin_type, address, created_at) in &record.addresses {
                    sqlx::query(
                        "INSERT INTO name_addresses (name, coin_type, address, address_key, created_at)
                         VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&record.name)
                    .bind(coin_type)
                    .bind(address)
                    .bind(address.to_lowercase())
                    .bind(created_at)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(true)
            }

            async fn name(&self, name: &str) -> StoreResult<Option<NameRecord>> {
                let row = sqlx::query("SELECT name, attributes, registered_at, updated_at FROM names WHERE name = $1")
                    .bind(name)
                    .fetch_optional(&self.pool)
                    .await?;
                let Some(row) = row else { return Ok(None) };
                let addresses = sqlx::query(
                    "SELECT coin_type, address, created_at FROM name_addresses WHERE name = $1 ORDER BY coin_type",
                )
                .bind(name)
                .fetch_all(&self.pool)
                .await?
                .iter()
                .map(|a| {
                    Ok((
                        a.try_get("coin_type")?,
                        a.try_get("address")?,
                        a.try_get("created_at")?,
                    ))
                })
                .collect::<StoreResult<_>>()?;
                Ok(Some(NameRecord {
                    name: row.try_get("name")?,
                    attributes: row.try_get("attributes")?,
                    registered_at: row.try_get("registered_at")?,
                    updated_at: row.try_get("updated_at")?,
                    addresses,
                }))
            }

            async fn names_of(&self, address: &str) -> StoreResult<Vec<NameRecord>> {
                let names: Vec<String> = sqlx::query_scalar(
                    "SELECT DISTINCT name FROM name_addresses WHERE address_key = $1 ORDER BY name LIMIT 100",
                )
                .bind(address.to_lowercase())
                .fetch_all(&self.pool)
                .await?;
                let mut records = Vec::with_capacity(names.len());
                for name in names {
                    records.extend(self.name(&name).await?);
                }
                Ok(records)
            }
        }
    };
}

pub(in crate::store) use impl_names_store;
