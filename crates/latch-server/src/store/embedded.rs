//! What embedded-wallet login keeps (`crate::embedded`): users, their approved
//! devices, pending one-time codes and device links, daily send counters,
//! sessions and the opaque key material of their wallets. Every code, link and
//! token is stored as a hash only (six-digit codes as an HMAC under a key the
//! database does not hold, `crate::embedded::secret`); device ids too (knowing one skips a
//! device approval). The key shares are opaque: the auth share alone, or with
//! the sealed recovery envelopes, rebuilds no key.

use async_trait::async_trait;

use super::StoreResult;

/// An embedded-wallet user of one project.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedUser {
    /// Public id (random).
    pub id: String,
    /// The project the user signed up through.
    pub project_id: String,
    /// The address as typed at sign-up (domain lower-cased).
    pub email: String,
    /// The address compared on login (lower-cased).
    pub email_key: String,
    /// A name the user chose, if any.
    pub user_name: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// A pending one-time code or device link, one per (project, e-mail, purpose).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedCode {
    /// The project.
    pub project_id: String,
    /// The e-mail it was sent to, compared form.
    pub email_key: String,
    /// `login`, `device`, `update-primary` or `update-secondary`.
    pub purpose: String,
    /// HMAC-SHA256 of the code in its context (`crate::embedded::secret`), or sha256 of a link token, hex.
    pub code_hash: String,
    /// sha256 of the device that asked, hex.
    pub device_hash: Option<String>,
    /// What the code confirms beyond the address: the new address of an e-mail update.
    pub payload: Option<String>,
    /// Wrong guesses so far.
    pub attempts: i64,
    /// Unix milliseconds it was sent (the resend cooldown counts from it).
    pub sent_at: i64,
    /// Unix milliseconds after which it is refused.
    pub expires_at: i64,
}

/// A login session; only its token's hash is kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedSession {
    /// sha256 of the bearer token, hex.
    pub token_hash: String,
    /// The project it is bound to (a token presented for another is refused).
    pub project_id: String,
    /// Whose.
    pub user_id: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds after which it is refused (pushed forward while in use).
    pub expires_at: i64,
}

/// A user's wallet as the server holds it: nothing that can sign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbeddedWallet {
    /// Whose.
    pub user_id: String,
    /// The auth share (`0x02` + 64 hex).
    pub auth_share: String,
    /// The recovery envelopes, a JSON array (sealed by the user's password or passkey).
    pub envelopes: String,
    /// The EVM account (EIP-55).
    pub evm_address: Option<String>,
    /// The Solana account (base58).
    pub solana_address: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Storage of `crate::embedded`.
#[async_trait]
pub trait EmbeddedStore: Send + Sync {
    /// The user of `project_id` with e-mail `email_key`.
    async fn embedded_user_by_email(&self, project_id: &str, email_key: &str) -> StoreResult<Option<EmbeddedUser>>;
    /// The user `id` of `project_id`.
    async fn embedded_user(&self, project_id: &str, id: &str) -> StoreResult<Option<EmbeddedUser>>;
    /// Adds `user`, or answers the one a concurrent sign-up with the same e-mail created first.
    async fn embedded_add_user(&self, user: &EmbeddedUser) -> StoreResult<EmbeddedUser>;
    /// Changes a user's e-mail; `false` when another user of the project has it.
    async fn embedded_set_email(&self, project_id: &str, id: &str, email: &str, email_key: &str) -> StoreResult<bool>;
    /// Whether the device (hash) is approved for the user.
    async fn embedded_device_known(&self, user_id: &str, device_hash: &str) -> StoreResult<bool>;
    /// Approves a device for the user (idempotent).
    async fn embedded_add_device(&self, user_id: &str, device_hash: &str, now_ms: i64) -> StoreResult<()>;
    /// Stores `code`, replacing the pending one of the same purpose for the same address.
    async fn embedded_put_code(&self, code: &EmbeddedCode) -> StoreResult<()>;
    /// The pending code of `purpose` for the address.
    async fn embedded_code(
        &self,
        project_id: &str,
        email_key: &str,
        purpose: &str,
    ) -> StoreResult<Option<EmbeddedCode>>;
    /// Counts one more guess at the pending code, answering the new count (`None`: no code).
    /// Counted before the guess is compared, so concurrent guesses cannot exceed the limit.
    async fn embedded_count_attempt(
        &self,
        project_id: &str,
        email_key: &str,
        purpose: &str,
    ) -> StoreResult<Option<i64>>;
    /// Deletes the pending code if its hash is still `code_hash`; whether it did (single use across nodes).
    async fn embedded_take_code(
        &self,
        project_id: &str,
        email_key: &str,
        purpose: &str,
        code_hash: &str,
    ) -> StoreResult<bool>;
    /// Deletes the pending code of `purpose` for the address.
    async fn embedded_drop_code(&self, project_id: &str, email_key: &str, purpose: &str) -> StoreResult<()>;
    /// Takes (deletes and answers) the pending row of `purpose` whose hash is `code_hash`
    /// (device links, social login states and login codes, found by their token alone).
    async fn embedded_take_by_hash(&self, purpose: &str, code_hash: &str) -> StoreResult<Option<EmbeddedCode>>;
    /// Adds one to the counter `key` of `day`, answering the new count.
    async fn embedded_count(&self, key: &str, day: i64) -> StoreResult<i64>;
    /// Adds a session.
    async fn embedded_add_session(&self, session: &EmbeddedSession) -> StoreResult<()>;
    /// The live session whose token hash is `token_hash`.
    async fn embedded_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<EmbeddedSession>>;
    /// Moves a session's expiry (sliding refresh).
    async fn embedded_extend_session(&self, token_hash: &str, expires_at: i64) -> StoreResult<()>;
    /// Deletes a session; whether there was one.
    async fn embedded_remove_session(&self, token_hash: &str) -> StoreResult<bool>;
    /// Stores a wallet; `false` when the user has one already.
    async fn embedded_put_wallet(&self, wallet: &EmbeddedWallet) -> StoreResult<bool>;
    /// The user's wallet.
    async fn embedded_wallet(&self, user_id: &str) -> StoreResult<Option<EmbeddedWallet>>;
    /// Replaces the wallet's envelopes (a JSON array) if they are still `before`: `false` when the
    /// user has no wallet or another request changed them first (the caller reads and tries again).
    async fn embedded_set_envelopes(&self, user_id: &str, before: &str, envelopes: &str) -> StoreResult<bool>;
    /// Deletes expired codes and sessions and past counters.
    async fn embedded_prune(&self, now_ms: i64) -> StoreResult<u64>;
}

/// Implements [`EmbeddedStore`] for `$store` (with a `pool`) whose rows are `$row`.
macro_rules! impl_embedded_store {
    ($store:ty, $row:ty) => {
        mod embedded_impl {
            use async_trait::async_trait;
            use sqlx::Row;

            use super::super::embedded::{EmbeddedCode, EmbeddedSession, EmbeddedStore, EmbeddedUser, EmbeddedWallet};
            use super::super::StoreResult;

            fn user(row: &$row) -> StoreResult<EmbeddedUser> {
                Ok(EmbeddedUser {
                    id: row.try_get("id")?,
                    project_id: row.try_get("project_id")?,
                    email: row.try_get("email")?,
                    email_key: row.try_get("email_key")?,
                    user_name: row.try_get("user_name")?,
                    created_at: row.try_get("created_at")?,
                })
            }

            fn code(row: &$row) -> StoreResult<EmbeddedCode> {
                Ok(EmbeddedCode {
                    project_id: row.try_get("project_id")?,
                    email_key: row.try_get("email_key")?,
                    purpose: row.try_get("purpose")?,
                    code_hash: row.try_get("code_hash")?,
                    device_hash: row.try_get("device_hash")?,
                    payload: row.try_get("payload")?,
                    attempts: row.try_get("attempts")?,
                    sent_at: row.try_get("sent_at")?,
                    expires_at: row.try_get("expires_at")?,
                })
            }

            fn wallet(row: &$row) -> StoreResult<EmbeddedWallet> {
                Ok(EmbeddedWallet {
                    user_id: row.try_get("user_id")?,
                    auth_share: row.try_get("auth_share")?,
                    envelopes: row.try_get("envelopes")?,
                    evm_address: row.try_get("evm_address")?,
                    solana_address: row.try_get("solana_address")?,
                    created_at: row.try_get("created_at")?,
                })
            }

            #[async_trait]
            impl EmbeddedStore for $store {
                async fn embedded_user_by_email(&self, project_id: &str, email_key: &str) -> StoreResult<Option<EmbeddedUser>> {
                    let row = sqlx::query("SELECT * FROM embedded_users WHERE project_id = $1 AND email_key = $2")
                        .bind(project_id)
                        .bind(email_key)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(user).transpose()
                }

                async fn embedded_user(&self, project_id: &str, id: &str) -> StoreResult<Option<EmbeddedUser>> {
                    let row = sqlx::query("SELECT * FROM embedded_users WHERE project_id = $1 AND id = $2")
                        .bind(project_id)
                        .bind(id)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(user).transpose()
                }

                async fn embedded_add_user(&self, new: &EmbeddedUser) -> StoreResult<EmbeddedUser> {
                    sqlx::query(
                        "INSERT INTO embedded_users (id, project_id, email, email_key, user_name, created_at)
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (project_id, email_key) DO NOTHING",
                    )
                    .bind(&new.id)
                    .bind(&new.project_id)
                    .bind(&new.email)
                    .bind(&new.email_key)
                    .bind(&new.user_name)
                    .bind(new.created_at)
                    .execute(&self.pool)
                    .await?;
                    let row = sqlx::query("SELECT * FROM embedded_users WHERE project_id = $1 AND email_key = $2")
                        .bind(&new.project_id)
                        .bind(&new.email_key)
                        .fetch_one(&self.pool)
                        .await?;
                    user(&row)
                }

                async fn embedded_set_email(&self, project_id: &str, id: &str, email: &str, email_key: &str) -> StoreResult<bool> {
                    let taken: Option<String> =
                        sqlx::query_scalar("SELECT id FROM embedded_users WHERE project_id = $1 AND email_key = $2")
                            .bind(project_id)
                            .bind(email_key)
                            .fetch_optional(&self.pool)
                            .await?;
                    if taken.is_some_and(|other| other != id) {
                        return Ok(false);
                    }
                    // The unique index still refuses a concurrent taker.
                    let done = sqlx::query("UPDATE embedded_users SET email = $3, email_key = $4 WHERE project_id = $1 AND id = $2")
                        .bind(project_id)
                        .bind(id)
                        .bind(email)
                        .bind(email_key)
                        .execute(&self.pool)
                        .await;
                    match done {
                        Ok(done) => Ok(done.rows_affected() == 1),
                        Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
                        Err(e) => Err(e.into()),
                    }
                }

                async fn embedded_device_known(&self, user_id: &str, device_hash: &str) -> StoreResult<bool> {
                    let found: Option<i64> =
                        sqlx::query_scalar("SELECT approved_at FROM embedded_devices WHERE user_id = $1 AND device_hash = $2")
                            .bind(user_id)
                            .bind(device_hash)
                            .fetch_optional(&self.pool)
                            .await?;
                    Ok(found.is_some())
                }

                async fn embedded_add_device(&self, user_id: &str, device_hash: &str, now_ms: i64) -> StoreResult<()> {
                    sqlx::query(
                        "INSERT INTO embedded_devices (user_id, device_hash, approved_at) VALUES ($1, $2, $3)
                         ON CONFLICT (user_id, device_hash) DO NOTHING",
                    )
                    .bind(user_id)
                    .bind(device_hash)
                    .bind(now_ms)
                    .execute(&self.pool)
                    .await?;
                    Ok(())
                }

                async fn embedded_put_code(&self, c: &EmbeddedCode) -> StoreResult<()> {
                    sqlx::query(
                        "INSERT INTO embedded_codes (project_id, email_key, purpose, code_hash, device_hash, payload, attempts, sent_at, expires_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                         ON CONFLICT (project_id, email_key, purpose) DO UPDATE SET code_hash = excluded.code_hash,
                           device_hash = excluded.device_hash, payload = excluded.payload, attempts = excluded.attempts,
                           sent_at = excluded.sent_at, expires_at = excluded.expires_at",
                    )
                    .bind(&c.project_id)
                    .bind(&c.email_key)
                    .bind(&c.purpose)
                    .bind(&c.code_hash)
                    .bind(&c.device_hash)
                    .bind(&c.payload)
                    .bind(c.attempts)
                    .bind(c.sent_at)
                    .bind(c.expires_at)
                    .execute(&self.pool)
                    .await?;
                    Ok(())
                }

                async fn embedded_code(&self, project_id: &str, email_key: &str, purpose: &str) -> StoreResult<Option<EmbeddedCode>> {
                    let row = sqlx::query("SELECT * FROM embedded_codes WHERE project_id = $1 AND email_key = $2 AND purpose = $3")
                        .bind(project_id)
                        .bind(email_key)
                        .bind(purpose)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(code).transpose()
                }

                async fn embedded_count_attempt(&self, project_id: &str, email_key: &str, purpose: &str) -> StoreResult<Option<i64>> {
                    Ok(sqlx::query_scalar(
                        "UPDATE embedded_codes SET attempts = attempts + 1
                         WHERE project_id = $1 AND email_key = $2 AND purpose = $3 RETURNING attempts",
                    )
                    .bind(project_id)
                    .bind(email_key)
                    .bind(purpose)
                    .fetch_optional(&self.pool)
                    .await?)
                }

                async fn embedded_take_code(&self, project_id: &str, email_key: &str, purpose: &str, code_hash: &str) -> StoreResult<bool> {
                    let done = sqlx::query(
                        "DELETE FROM embedded_codes WHERE project_id = $1 AND email_key = $2 AND purpose = $3 AND code_hash = $4",
                    )
                    .bind(project_id)
                    .bind(email_key)
                    .bind(purpose)
                    .bind(code_hash)
                    .execute(&self.pool)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }

                async fn embedded_drop_code(&self, project_id: &str, email_key: &str, purpose: &str) -> StoreResult<()> {
                    sqlx::query("DELETE FROM embedded_codes WHERE project_id = $1 AND email_key = $2 AND purpose = $3")
                        .bind(project_id)
                        .bind(email_key)
                        .bind(purpose)
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn embedded_take_by_hash(&self, purpose: &str, code_hash: &str) -> StoreResult<Option<EmbeddedCode>> {
                    let row = sqlx::query("DELETE FROM embedded_codes WHERE purpose = $1 AND code_hash = $2 RETURNING *")
                        .bind(purpose)
                        .bind(code_hash)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(code).transpose()
                }

                async fn embedded_count(&self, key: &str, day: i64) -> StoreResult<i64> {
                    Ok(sqlx::query_scalar(
                        "INSERT INTO embedded_counters (key, day, count) VALUES ($1, $2, 1)
                         ON CONFLICT (key, day) DO UPDATE SET count = embedded_counters.count + 1 RETURNING count",
                    )
                    .bind(key)
                    .bind(day)
                    .fetch_one(&self.pool)
                    .await?)
                }

                async fn embedded_add_session(&self, s: &EmbeddedSession) -> StoreResult<()> {
                    sqlx::query(
                        "INSERT INTO embedded_sessions (token_hash, project_id, user_id, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)",
                    )
                    .bind(&s.token_hash)
                    .bind(&s.project_id)
                    .bind(&s.user_id)
                    .bind(s.created_at)
                    .bind(s.expires_at)
                    .execute(&self.pool)
                    .await?;
                    Ok(())
                }

                async fn embedded_session(&self, token_hash: &str, now_ms: i64) -> StoreResult<Option<EmbeddedSession>> {
                    let row = sqlx::query("SELECT * FROM embedded_sessions WHERE token_hash = $1 AND expires_at > $2")
                        .bind(token_hash)
                        .bind(now_ms)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref()
                        .map(|row| -> StoreResult<EmbeddedSession> {
                            Ok(EmbeddedSession {
                                token_hash: row.try_get("token_hash")?,
                                project_id: row.try_get("project_id")?,
                                user_id: row.try_get("user_id")?,
                                created_at: row.try_get("created_at")?,
                                expires_at: row.try_get("expires_at")?,
                            })
                        })
                        .transpose()
                }

                async fn embedded_extend_session(&self, token_hash: &str, expires_at: i64) -> StoreResult<()> {
                    sqlx::query("UPDATE embedded_sessions SET expires_at = $2 WHERE token_hash = $1 AND expires_at < $2")
                        .bind(token_hash)
                        .bind(expires_at)
                        .execute(&self.pool)
                        .await?;
                    Ok(())
                }

                async fn embedded_remove_session(&self, token_hash: &str) -> StoreResult<bool> {
                    let done = sqlx::query("DELETE FROM embedded_sessions WHERE token_hash = $1")
                        .bind(token_hash)
                        .execute(&self.pool)
                        .await?;
                    Ok(done.rows_affected() == 1)
                }

                async fn embedded_put_wallet(&self, w: &EmbeddedWallet) -> StoreResult<bool> {
                    let done = sqlx::query(
                        "INSERT INTO embedded_wallets (user_id, auth_share, envelopes, evm_address, solana_address, created_at)
                         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO NOTHING",
                    )
                    .bind(&w.user_id)
                    .bind(&w.auth_share)
                    .bind(&w.envelopes)
                    .bind(&w.evm_address)
                    .bind(&w.solana_address)
                    .bind(w.created_at)
                    .execute(&self.pool)
                    .await?;
                    Ok(done.rows_affected() == 1)
                }

                async fn embedded_wallet(&self, user_id: &str) -> StoreResult<Option<EmbeddedWallet>> {
                    let row = sqlx::query("SELECT * FROM embedded_wallets WHERE user_id = $1")
                        .bind(user_id)
                        .fetch_optional(&self.pool)
                        .await?;
                    row.as_ref().map(wallet).transpose()
                }

                async fn embedded_set_envelopes(&self, user_id: &str, before: &str, envelopes: &str) -> StoreResult<bool> {
                    let done = sqlx::query("UPDATE embedded_wallets SET envelopes = $3 WHERE user_id = $1 AND envelopes = $2")
                        .bind(user_id)
                        .bind(before)
                        .bind(envelopes)
                        .execute(&self.pool)
                        .await?;
                    Ok(done.rows_affected() == 1)
                }

                async fn embedded_prune(&self, now_ms: i64) -> StoreResult<u64> {
                    let mut gone = 0;
                    for sql in [
                        "DELETE FROM embedded_codes WHERE expires_at <= $1",
                        "DELETE FROM embedded_sessions WHERE expires_at <= $1",
                    ] {
                        gone += sqlx::query(sql).bind(now_ms).execute(&self.pool).await?.rows_affected();
                    }
                    // Counters are per day: yesterday's and older no longer limit anything.
                    let today = now_ms.div_euclid(86_400_000);
                    gone += sqlx::query("DELETE FROM embedded_counters WHERE day < $1")
                        .bind(today)
                        .execute(&self.pool)
                        .await?
                        .rows_affected();
                    Ok(gone)
                }
            }
        }
    };
}

pub(super) use impl_embedded_store;

/// What every backend must do (run by `store::contract` on SQLite and Postgres).
#[cfg(test)]
pub(super) async fn contract(store: &dyn super::Store) {
    let user = EmbeddedUser {
        id: "u1".into(),
        project_id: "p".into(),
        email: "Ann@example.com".into(),
        email_key: "ann@example.com".into(),
        user_name: None,
        created_at: 1,
    };
    assert_eq!(store.embedded_add_user(&user).await.unwrap(), user);
    // A concurrent sign-up with the same address gets the first user.
    let twin = EmbeddedUser {
        id: "u2".into(),
        ..user.clone()
    };
    assert_eq!(store.embedded_add_user(&twin).await.unwrap(), user);
    assert_eq!(
        store.embedded_user_by_email("p", "ann@example.com").await.unwrap(),
        Some(user.clone())
    );
    assert_eq!(
        store.embedded_user("q", "u1").await.unwrap(),
        None,
        "users are per project"
    );
    let bob = EmbeddedUser {
        id: "u3".into(),
        email: "bob@example.com".into(),
        email_key: "bob@example.com".into(),
        ..user.clone()
    };
    store.embedded_add_user(&bob).await.unwrap();
    assert!(!store
        .embedded_set_email("p", "u3", "ann@example.com", "ann@example.com")
        .await
        .unwrap());
    assert!(store
        .embedded_set_email("p", "u3", "Rob@example.com", "rob@example.com")
        .await
        .unwrap());
    assert_eq!(
        store.embedded_user("p", "u3").await.unwrap().unwrap().email,
        "Rob@example.com"
    );

    assert!(!store.embedded_device_known("u1", "d").await.unwrap());
    store.embedded_add_device("u1", "d", 5).await.unwrap();
    store.embedded_add_device("u1", "d", 6).await.unwrap();
    assert!(store.embedded_device_known("u1", "d").await.unwrap());

    let code = EmbeddedCode {
        project_id: "p".into(),
        email_key: "ann@example.com".into(),
        purpose: "login".into(),
        code_hash: "h1".into(),
        device_hash: Some("d".into()),
        payload: None,
        attempts: 0,
        sent_at: 10,
        expires_at: 100,
    };
    store.embedded_put_code(&code).await.unwrap();
    assert_eq!(
        store
            .embedded_count_attempt("p", "ann@example.com", "login")
            .await
            .unwrap(),
        Some(1)
    );
    assert_eq!(
        store
            .embedded_count_attempt("p", "ann@example.com", "login")
            .await
            .unwrap(),
        Some(2)
    );
    assert_eq!(
        store
            .embedded_count_attempt("p", "x@example.com", "login")
            .await
            .unwrap(),
        None
    );
    // A new code replaces the pending one, attempts and all.
    let resent = EmbeddedCode {
        code_hash: "h2".into(),
        sent_at: 20,
        ..code.clone()
    };
    store.embedded_put_code(&resent).await.unwrap();
    assert_eq!(
        store.embedded_code("p", "ann@example.com", "login").await.unwrap(),
        Some(resent.clone())
    );
    assert!(!store
        .embedded_take_code("p", "ann@example.com", "login", "h1")
        .await
        .unwrap());
    assert!(store
        .embedded_take_code("p", "ann@example.com", "login", "h2")
        .await
        .unwrap());
    assert!(
        !store
            .embedded_take_code("p", "ann@example.com", "login", "h2")
            .await
            .unwrap(),
        "single use"
    );

    let link = EmbeddedCode {
        purpose: "device".into(),
        code_hash: "link".into(),
        ..code.clone()
    };
    store.embedded_put_code(&link).await.unwrap();
    assert_eq!(store.embedded_take_by_hash("login", "link").await.unwrap(), None);
    assert_eq!(store.embedded_take_by_hash("device", "link").await.unwrap(), Some(link));
    assert_eq!(store.embedded_take_by_hash("device", "link").await.unwrap(), None);
    store.embedded_put_code(&code).await.unwrap();
    store.embedded_drop_code("p", "ann@example.com", "login").await.unwrap();
    assert_eq!(
        store.embedded_code("p", "ann@example.com", "login").await.unwrap(),
        None
    );

    assert_eq!(store.embedded_count("email:a", 3).await.unwrap(), 1);
    assert_eq!(store.embedded_count("email:a", 3).await.unwrap(), 2);
    assert_eq!(store.embedded_count("email:a", 4).await.unwrap(), 1);

    let session = EmbeddedSession {
        token_hash: "t".into(),
        project_id: "p".into(),
        user_id: "u1".into(),
        created_at: 1,
        expires_at: 50,
    };
    store.embedded_add_session(&session).await.unwrap();
    assert_eq!(store.embedded_session("t", 49).await.unwrap(), Some(session.clone()));
    assert_eq!(store.embedded_session("t", 50).await.unwrap(), None, "expired");
    store.embedded_extend_session("t", 80).await.unwrap();
    store.embedded_extend_session("t", 70).await.unwrap();
    assert_eq!(store.embedded_session("t", 60).await.unwrap().unwrap().expires_at, 80);
    assert!(store.embedded_remove_session("t").await.unwrap());
    assert!(!store.embedded_remove_session("t").await.unwrap());
    assert_eq!(store.embedded_session("t", 60).await.unwrap(), None);

    let wallet = EmbeddedWallet {
        user_id: "u1".into(),
        auth_share: format!("0x02{}", "a".repeat(64)),
        envelopes: "[]".into(),
        evm_address: Some("0x0000000000000000000000000000000000000001".into()),
        solana_address: None,
        created_at: 7,
    };
    assert!(store.embedded_put_wallet(&wallet).await.unwrap());
    assert!(!store.embedded_put_wallet(&wallet).await.unwrap(), "once per user");
    assert_eq!(store.embedded_wallet("u1").await.unwrap(), Some(wallet.clone()));
    // Envelopes change only from the value the caller read (compare-and-set).
    assert!(
        !store.embedded_set_envelopes("u1", "[1]", "[2]").await.unwrap(),
        "stale"
    );
    assert!(
        !store.embedded_set_envelopes("u2", "[]", "[2]").await.unwrap(),
        "no wallet"
    );
    assert!(store.embedded_set_envelopes("u1", "[]", "[2]").await.unwrap());
    assert_eq!(store.embedded_wallet("u1").await.unwrap().unwrap().envelopes, "[2]");

    store.embedded_put_code(&code).await.unwrap();
    store
        .embedded_add_session(&EmbeddedSession {
            token_hash: "t2".into(),
            ..session
        })
        .await
        .unwrap();
    // Code (expires 100) and session (50) gone at 100, and day-3 and day-4 counters on day 5.
    assert_eq!(store.embedded_prune(5 * 86_400_000).await.unwrap(), 4);
    assert_eq!(
        store.embedded_code("p", "ann@example.com", "login").await.unwrap(),
        None
    );
}
