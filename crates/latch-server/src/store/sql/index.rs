//! The history indexer's blocks and transfers, and the on-ramp purchases that mark them.

/// Implements [`super::super::IndexStore`], [`super::super::PurchaseStore`] for `$store` (with a `pool` field)
/// whose rows are `$row` on database `$db`.
macro_rules! impl_index_store {
    ($store:ty, $row:ty, $db:ty) => {
        fn transfer_from_row(row: &$row) -> StoreResult<Transfer> {
            Ok(Transfer {
                chain: row.try_get("chain")?,
                block_number: row.try_get("block_number")?,
                tx_index: row.try_get("tx_index")?,
                log_index: row.try_get("log_index")?,
                tx_hash: row.try_get("tx_hash")?,
                kind: row.try_get("kind")?,
                token: row.try_get("token")?,
                token_id: row.try_get("token_id")?,
                sender: row.try_get("sender")?,
                recipient: row.try_get("recipient")?,
                amount: row.try_get("amount")?,
                mined_at: row.try_get("mined_at")?,
                success: row.try_get("success")?,
                nonce: row.try_get("nonce")?,
                tx_from: row.try_get("tx_from")?,
                tx_to: row.try_get("tx_to")?,
            })
        }

        #[async_trait]
        impl IndexStore for $store {
            async fn index_tip(&self, chain: &str) -> StoreResult<Option<(i64, String)>> {
                let row = sqlx::query("SELECT number, hash FROM indexed_blocks WHERE chain = $1 ORDER BY number DESC LIMIT 1")
                    .bind(chain)
                    .fetch_optional(&self.pool)
                    .await?;
                row.map(|row| Ok((row.try_get("number")?, row.try_get("hash")?))).transpose()
            }

            async fn indexed_hash(&self, chain: &str, number: i64) -> StoreResult<Option<String>> {
                Ok(sqlx::query_scalar("SELECT hash FROM indexed_blocks WHERE chain = $1 AND number = $2")
                    .bind(chain)
                    .bind(number)
                    .fetch_optional(&self.pool)
                    .await?)
            }

            async fn add_blocks(&self, chain: &str, blocks: &[(i64, String)], transfers: &[Transfer]) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                for (number, hash) in blocks {
                    sqlx::query("INSERT INTO indexed_blocks (chain, number, hash) VALUES ($1, $2, $3)")
                        .bind(chain)
                        .bind(number)
                        .bind(hash)
                        .execute(&mut *tx)
                        .await?;
                }
                for t in transfers {
                    sqlx::query(
                        "INSERT INTO transfers (chain, block_number, tx_index, log_index, tx_hash, kind, token, token_id,
                         sender, recipient, amount, mined_at, success, nonce, tx_from, tx_to)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
                    )
                    .bind(&t.chain)
                    .bind(t.block_number)
                    .bind(t.tx_index)
                    .bind(t.log_index)
                    .bind(&t.tx_hash)
                    .bind(&t.kind)
                    .bind(&t.token)
                    .bind(&t.token_id)
                    .bind(&t.sender)
                    .bind(&t.recipient)
                    .bind(&t.amount)
                    .bind(t.mined_at)
                    .bind(t.success)
                    .bind(t.nonce)
                    .bind(&t.tx_from)
                    .bind(&t.tx_to)
                    .execute(&mut *tx)
                    .await?;
                }
                tx.commit().await?;
                Ok(())
            }

            async fn rewind(&self, chain: &str, number: i64) -> StoreResult<()> {
                let mut tx = self.pool.begin().await?;
                sqlx::query("DELETE FROM transfers WHERE chain = $1 AND block_number >= $2")
                    .bind(chain)
                    .bind(number)
                    .execute(&mut *tx)
                    .await?;
                sqlx::query("DELETE FROM indexed_blocks WHERE chain = $1 AND number >= $2")
                    .bind(chain)
                    .bind(number)
                    .execute(&mut *tx)
                    .await?;
                tx.commit().await?;
                Ok(())
            }

            async fn history(
                &self,
                address: &str,
                chain: Option<&str>,
                before: Option<(i64, i64)>,
                limit: u32,
            ) -> StoreResult<Vec<Transfer>> {
                let (block, tx_index) = before.unwrap_or((i64::MAX, i64::MAX));
                // The newest `limit` transactions on each side (each read in order off its own
                // index, stopping early), merged; then all their transfers in one query.
                let side = |column: &str| {
                    format!(
                        "SELECT * FROM (SELECT DISTINCT chain, block_number, tx_index FROM transfers
                             WHERE {column} = $1 AND (CAST($2 AS TEXT) IS NULL OR chain = $2)
                               AND (block_number, tx_index) < ($3, $4)
                             ORDER BY block_number DESC, tx_index DESC, chain DESC LIMIT $5) AS {column}_side"
                    )
                };
                let keys = sqlx::query(&format!(
                    "SELECT chain, block_number, tx_index FROM ({} UNION {}) AS touched
                     ORDER BY block_number DESC, tx_index DESC, chain LIMIT $5",
                    side("sender"),
                    side("recipient")
                ))
                .bind(address)
                .bind(chain)
                .bind(block)
                .bind(tx_index)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                if keys.is_empty() {
                    return Ok(Vec::new());
                }
                let mut page = Vec::with_capacity(keys.len());
                for key in &keys {
                    page.push((
                        key.try_get::<String, _>("chain")?,
                        key.try_get::<i64, _>("block_number")?,
                        key.try_get::<i64, _>("tx_index")?,
                    ));
                }
                let mut query = sqlx::QueryBuilder::<$db>::new(
                    "SELECT * FROM transfers WHERE (chain, block_number, tx_index) IN (",
                );
                let mut keys_list = query.separated(", ");
                for (chain, block, tx) in &page {
                    keys_list.push("(");
                    keys_list.push_bind_unseparated(chain.clone());
                    keys_list.push_unseparated(", ");
                    keys_list.push_bind_unseparated(*block);
                    keys_list.push_unseparated(", ");
                    keys_list.push_bind_unseparated(*tx);
                    keys_list.push_unseparated(")");
                }
                query.push(") ORDER BY block_number DESC, tx_index DESC, chain, log_index");
                let rows = query.build().fetch_all(&self.pool).await?;
                rows.iter().map(transfer_from_row).collect()
            }

            async fn nft_transfers(&self, address: &str, chain: Option<&str>, limit: u32) -> StoreResult<Vec<Transfer>> {
                let rows = sqlx::query(
                    "SELECT * FROM transfers WHERE kind IN ('erc721', 'erc1155')
                       AND (sender = $1 OR recipient = $1) AND (CAST($2 AS TEXT) IS NULL OR chain = $2)
                     ORDER BY block_number, tx_index, log_index LIMIT $3",
                )
                .bind(address)
                .bind(chain)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(transfer_from_row).collect()
            }
        }

        #[async_trait]
        impl PurchaseStore for $store {
            async fn put_purchase(&self, tx_hash: &str, provider: &str, now_ms: i64) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO onramp_purchases (tx_hash, provider, recorded_at) VALUES ($1, $2, $3)
                     ON CONFLICT (tx_hash) DO NOTHING",
                )
                .bind(tx_hash.to_ascii_lowercase())
                .bind(provider)
                .bind(now_ms)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn purchases_among(&self, tx_hashes: &[String]) -> StoreResult<std::collections::HashMap<String, String>> {
                let mut found = std::collections::HashMap::new();
                // One statement per page of history; bounded so the statement stays small.
                for chunk in tx_hashes.chunks(100) {
                    let placeholders: Vec<String> = (1..=chunk.len()).map(|i| format!("${i}")).collect();
                    let sql = format!(
                        "SELECT tx_hash, provider FROM onramp_purchases WHERE tx_hash IN ({})",
                        placeholders.join(", ")
                    );
                    let mut query = sqlx::query(&sql);
                    for hash in chunk {
                        query = query.bind(hash.to_ascii_lowercase());
                    }
                    for row in query.fetch_all(&self.pool).await? {
                        found.insert(row.try_get("tx_hash")?, row.try_get("provider")?);
                    }
                }
                Ok(found)
            }
        }
    };
}

pub(in crate::store) use impl_index_store;
