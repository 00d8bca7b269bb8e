//! The SQL both backends share. SQLite accepts PostgreSQL's `$N` parameters,
//! and both keep JSON as text, so one body of queries serves both; the macro
//! only varies the pool and row types.

/// Implements [`super::Store`] for `$store` (with a `pool` field; its
/// [`super::RelayMailbox`] is the backend's own) whose rows are `$row` on
/// database `$db`, and `apply_migrations` for its `migrate`; `$dialect` names
/// the [`Step`] field of its migrations.
macro_rules! impl_sql_store {
    ($store:ty, $row:ty, $db:ty, $dialect:ident) => {
        /// Applies the [`MIGRATIONS`](super::migrations::MIGRATIONS) not yet applied, inside `tx`.
        async fn apply_migrations(tx: &mut sqlx::Transaction<'_, $db>) -> StoreResult<()> {
            apply_migrations_until(tx, super::migrations::MIGRATIONS.len()).await
        }

        /// Applies the migrations not yet applied up to schema version `until`
        /// (tests start from older schemas with it).
        async fn apply_migrations_until(tx: &mut sqlx::Transaction<'_, $db>, until: usize) -> StoreResult<()> {
            sqlx::query("CREATE TABLE IF NOT EXISTS latch_schema (version BIGINT NOT NULL)")
                .execute(&mut **tx)
                .await?;
            let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM latch_schema")
                .fetch_one(&mut **tx)
                .await?;
            for (version, step) in super::migrations::MIGRATIONS
                .iter()
                .enumerate()
                .take(until)
                .skip(applied as usize)
            {
                sqlx::query(step.$dialect).execute(&mut **tx).await?;
                sqlx::query("INSERT INTO latch_schema (version) VALUES ($1)")
                    .bind(version as i64 + 1)
                    .execute(&mut **tx)
                    .await?;
            }
            Ok(())
        }

        /// Brings `tx`'s database to the schema before the relay mailbox was keyed
        /// by message ids and fills it with the shared contract's old mailbox:
        /// where both backends' import tests start.
        #[cfg(test)]
        async fn write_old_mailbox(tx: &mut sqlx::Transaction<'_, $db>) -> StoreResult<()> {
            apply_migrations_until(tx, crate::store::contract::OLD_MAILBOX_VERSION).await?;
            for sql in crate::store::contract::OLD_MAILBOX {
                sqlx::query(sql).execute(&mut **tx).await?;
            }
            Ok(())
        }

        /// A message of the relay mailbox's tables (Postgres keeps its mailbox in them;
        /// SQLite reads them once, to move an older mailbox into its journal).
        pub(super) fn relay_message_from_row(row: &$row) -> StoreResult<RelayMessage> {
            Ok(RelayMessage {
                id: row.try_get("id")?,
                topic: row.try_get("topic")?,
                hash: row.try_get("hash")?,
                message: row.try_get("message")?,
                tag: row.try_get("tag")?,
                publisher: row.try_get("publisher")?,
                published_at: row.try_get("published_at")?,
                expires_at: row.try_get("expires_at")?,
            })
        }

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

        fn siwx_session_from_row(row: &$row) -> StoreResult<SiwxSession> {
            Ok(SiwxSession {
                id: row.try_get("id")?,
                token_hash: row.try_get("token_hash")?,
                access_hash: row.try_get("access_hash")?,
                access_expires_at: row.try_get("access_expires_at")?,
                refresh_hash: row.try_get("refresh_hash")?,
                project_id: row.try_get("project_id")?,
                account: row.try_get("account")?,
                chain_id: row.try_get("chain_id")?,
                domain: row.try_get("domain")?,
                message: row.try_get("message")?,
                signature: row.try_get("signature")?,
                created_at: row.try_get("created_at")?,
                expires_at: row.try_get("expires_at")?,
                revoked_at: row.try_get("revoked_at")?,
            })
        }

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
        impl Store for $store {
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

            async fn siwx_add_nonce(&self, nonce: &SiwxNonce) -> StoreResult<()> {
                sqlx::query("INSERT INTO siwx_nonces (nonce, project_id, domain, expires_at, used) VALUES ($1, $2, $3, $4, 0)")
                    .bind(&nonce.nonce)
                    .bind(&nonce.project_id)
                    .bind(&nonce.domain)
                    .bind(nonce.expires_at)
                    .execute(&self.pool)
                    .await?;
                Ok(())
            }

            async fn siwx_take_nonce(&self, project_id: &str, nonce: &str) -> StoreResult<Option<SiwxNonce>> {
                // One statement: of requests racing with the same nonce, on this node or
                // another sharing the database, exactly one gets the row.
                let row = sqlx::query(
                    "DELETE FROM siwx_nonces WHERE nonce = $1 AND project_id = $2
                     RETURNING nonce, project_id, domain, expires_at",
                )
                .bind(nonce)
                .bind(project_id)
                .fetch_optional(&self.pool)
                .await?;
                row.map(|row| {
                    Ok(SiwxNonce {
                        nonce: row.try_get("nonce")?,
                        project_id: row.try_get("project_id")?,
                        domain: row.try_get("domain")?,
                        expires_at: row.try_get("expires_at")?,
                    })
                })
                .transpose()
            }

            async fn siwx_add_session(&self, session: &SiwxSession) -> StoreResult<()> {
                sqlx::query(
                    "INSERT INTO siwx_sessions (id, token_hash, project_id, account, chain_id, domain, message, signature,
                     created_at, expires_at, revoked_at, access_hash, access_expires_at, refresh_hash)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, NULL, $11, $12, $13)",
                )
                .bind(&session.id)
                .bind(&session.token_hash)
                .bind(&session.project_id)
                .bind(&session.account)
                .bind(&session.chain_id)
                .bind(&session.domain)
                .bind(&session.message)
                .bind(&session.signature)
                .bind(session.created_at)
                .bind(session.expires_at)
                .bind(&session.access_hash)
                .bind(session.access_expires_at)
                .bind(&session.refresh_hash)
                .execute(&self.pool)
                .await?;
                Ok(())
            }

            async fn siwx_session_by_token(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<SiwxSession>> {
                let row = sqlx::query(
                    "SELECT * FROM siwx_sessions WHERE (token_hash = $1 OR (access_hash = $1 AND access_expires_at > $2))
                     AND revoked_at IS NULL AND expires_at > $2",
                )
                .bind(token_hash)
                .bind(now_ms)
                .fetch_optional(&self.pool)
                .await?;
                row.as_ref().map(siwx_session_from_row).transpose()
            }

            async fn siwx_refresh(
                &self,
                project_id: &str,
                refresh_hash: &str,
                next: &SiwxRotation,
                now_ms: i64,
            ) -> StoreResult<SiwxRefresh> {
                // One statement rotates, so two racing presentations of one refresh token
                // cannot both get new tokens: the loser sees it rotated away (below).
                let row = sqlx::query(
                    "UPDATE siwx_sessions SET refresh_used_hash = refresh_hash, refresh_hash = $3,
                     access_hash = $4, access_expires_at = $5
                     WHERE project_id = $1 AND refresh_hash = $2 AND revoked_at IS NULL AND expires_at > $6
                     RETURNING *",
                )
                .bind(project_id)
                .bind(refresh_hash)
                .bind(&next.refresh_hash)
                .bind(&next.access_hash)
                .bind(next.access_expires_at)
                .bind(now_ms)
                .fetch_optional(&self.pool)
                .await?;
                if let Some(row) = row {
                    return Ok(SiwxRefresh::Rotated(Box::new(siwx_session_from_row(&row)?)));
                }
                let revoked = sqlx::query(
                    "UPDATE siwx_sessions SET revoked_at = $3
                     WHERE project_id = $1 AND refresh_used_hash = $2 AND revoked_at IS NULL",
                )
                .bind(project_id)
                .bind(refresh_hash)
                .bind(now_ms)
                .execute(&self.pool)
                .await?;
                Ok(if revoked.rows_affected() > 0 {
                    SiwxRefresh::Reused
                } else {
                    SiwxRefresh::Unknown
                })
            }

            async fn siwx_prune(&self, now_ms: i64, before_ms: i64) -> StoreResult<(u64, u64)> {
                let nonces = sqlx::query("DELETE FROM siwx_nonces WHERE expires_at <= $1")
                    .bind(now_ms)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                let sessions = sqlx::query("DELETE FROM siwx_sessions WHERE expires_at <= $1 OR revoked_at <= $1")
                    .bind(before_ms)
                    .execute(&self.pool)
                    .await?
                    .rows_affected();
                Ok((nonces, sessions))
            }

            async fn siwx_session(&self, project_id: &str, id: &str) -> StoreResult<Option<SiwxSession>> {
                let row = sqlx::query("SELECT * FROM siwx_sessions WHERE project_id = $1 AND id = $2")
                    .bind(project_id)
                    .bind(id)
                    .fetch_optional(&self.pool)
                    .await?;
                row.as_ref().map(siwx_session_from_row).transpose()
            }

            async fn siwx_sessions(
                &self,
                project_id: &str,
                account: Option<&str>,
                now_ms: i64,
                limit: u32,
            ) -> StoreResult<Vec<SiwxSession>> {
                let rows = sqlx::query(
                    "SELECT * FROM siwx_sessions WHERE project_id = $1 AND ($2 IS NULL OR account = $2)
                     AND revoked_at IS NULL AND expires_at > $3 ORDER BY created_at DESC, id LIMIT $4",
                )
                .bind(project_id)
                .bind(account)
                .bind(now_ms)
                .bind(i64::from(limit))
                .fetch_all(&self.pool)
                .await?;
                rows.iter().map(siwx_session_from_row).collect()
            }

            async fn siwx_revoke(&self, project_id: &str, id: &str, now_ms: i64) -> StoreResult<bool> {
                let done = sqlx::query(
                    "UPDATE siwx_sessions SET revoked_at = $3 WHERE project_id = $1 AND id = $2
                     AND revoked_at IS NULL AND expires_at > $3",
                )
                .bind(project_id)
                .bind(id)
                .bind(now_ms)
                .execute(&self.pool)
                .await?;
                Ok(done.rows_affected() > 0)
            }

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

pub(super) use impl_sql_store;
