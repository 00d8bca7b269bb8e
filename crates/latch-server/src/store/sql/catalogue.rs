//! The wallet catalogue and its images.

/// Implements [`super::super::CatalogueStore`] for `$store` (with a `pool` field)
/// whose rows are `$row` on database `$db`.
macro_rules! impl_catalogue_store {
    ($store:ty, $row:ty, $db:ty) => {
        #[async_trait]
        impl CatalogueStore for $store {
            async fn put_wallets(&self, wallets: &[StoredWallet]) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                for wallet in wallets {
                    sqlx::query(
                        "INSERT INTO wallets (id, name, position, data) VALUES ($1, $2, $3, $4)
                         ON CONFLICT (id) DO UPDATE SET name = excluded.name, position = excluded.position,
                         data = excluded.data",
                    )
                    .bind(&wallet.id)
                    .bind(&wallet.name)
                    .bind(wallet.position)
                    .bind(&wallet.data)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn wallets(&self) -> StoreResult<Vec<StoredWallet>> {
                let rows = sqlx::query("SELECT id, name, position, data FROM wallets ORDER BY position, name, id")
                    .fetch_all(&self.pool)
                    .await?;
                rows.iter()
                    .map(|row| {
                        Ok(StoredWallet {
                            id: row.try_get("id")?,
                            name: row.try_get("name")?,
                            position: row.try_get("position")?,
                            data: row.try_get("data")?,
                        })
                    })
                    .collect()
            }

            async fn remove_wallet(&self, id: &str) -> StoreResult<bool> {
                let done = sqlx::query("DELETE FROM wallets WHERE id = $1")
                    .bind(id)
                    .execute(&self.pool)
                    .await?;
                Ok(done.rows_affected() > 0)
            }

            async fn put_images(&self, images: &[StoredImage]) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                for image in images {
                    sqlx::query(
                        "INSERT INTO images (kind, id, content_type, data, etag) VALUES ($1, $2, $3, $4, $5)
                         ON CONFLICT (kind, id) DO UPDATE SET content_type = excluded.content_type,
                         data = excluded.data, etag = excluded.etag",
                    )
                    .bind(&image.kind)
                    .bind(&image.id)
                    .bind(&image.content_type)
                    .bind(&image.data)
                    .bind(&image.etag)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn image(&self, kind: &str, id: &str) -> StoreResult<Option<StoredImage>> {
                let row =
                    sqlx::query("SELECT kind, id, content_type, data, etag FROM images WHERE kind = $1 AND id = $2")
                        .bind(kind)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                row.map(|row| {
                    Ok(StoredImage {
                        kind: row.try_get("kind")?,
                        id: row.try_get("id")?,
                        content_type: row.try_get("content_type")?,
                        data: row.try_get("data")?,
                        etag: row.try_get("etag")?,
                    })
                })
                .transpose()
            }
        }
    };
}

pub(in crate::store) use impl_catalogue_store;
