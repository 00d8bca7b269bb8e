//! Sign in with X: nonces and sessions.

/// Implements [`super::super::SignInStore`] for `$store` (with a `pool` field)
/// whose rows are `$row` on database `$db`.
macro_rules! impl_siwx_store {
    ($store:ty, $row:ty, $db:ty) => {
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

        #[async_trait]
        impl SignInStore for $store {
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
        }
    };
}

pub(in crate::store) use impl_siwx_store;
