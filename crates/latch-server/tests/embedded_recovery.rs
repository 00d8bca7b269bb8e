//! Issue 28 recovery through the whole router: the frame seals the recovery share and adds the
//! envelope to the wallet (`POST /v1/embedded/wallet/envelope`, every refusal), a new device reads
//! it back with the auth share; and, on everything the database then holds, no key can be rebuilt
//! without the user's password.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use latch_server::{app, AppState};
use latch_vault::{combine, Argon2Cost, Envelope, Share, ShareKind, Wallet};
use serde_json::{json, Value};

const ORIGIN: &str = "http://127.0.0.1:5173";
const DEVICE: &str = "device-aaaaaaaaaaaaaaaa";
const PASSWORD: &[u8] = b"correct horse battery staple";

async fn call(
    router: &axum::Router,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut builder = Request::builder()
        .method(method)
        .uri(format!("/v1/embedded/{path}?projectId=test"))
        .header(header::ORIGIN, ORIGIN);
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    let request = builder
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap();
    common::call(router, request).await
}

/// `POST wallet/envelope` of `envelope` with the session `token`.
async fn add_envelope(router: &axum::Router, token: Option<&str>, envelope: &Value) -> (StatusCode, Value) {
    call(
        router,
        "POST",
        "wallet/envelope",
        token,
        Some(json!({ "envelope": envelope })),
    )
    .await
}

async fn dev_state() -> (AppState, tempfile::TempDir) {
    common::state_with(vec![common::dead_upstream()], |config| {
        config.dev = true;
        config.embedded.vault_origin = Some("https://vault.example.com".into());
    })
    .await
}

/// Signs `email` up with the code from the `--dev` outbox; the session token and the user id.
async fn sign_up(router: &axum::Router, email: &str) -> (String, String) {
    let (status, _) = call(
        router,
        "POST",
        "email/start",
        None,
        Some(json!({"email": email, "deviceId": DEVICE})),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (_, outbox) = call(router, "GET", "dev/outbox", None, None).await;
    let text = outbox["mails"].as_array().unwrap().last().unwrap()["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let at = text.find(": ").unwrap() + 2;
    let otp = &text[at..at + 6];
    let (status, verified) = call(
        router,
        "POST",
        "email/verify",
        None,
        Some(json!({"email": email, "otp": otp, "deviceId": DEVICE})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{verified}");
    let token = verified["token"].as_str().unwrap().to_owned();
    let (_, user) = call(router, "GET", "user", Some(&token), None).await;
    (token, user["userId"].as_str().unwrap().to_owned())
}

fn refusal(reply: &(StatusCode, Value)) -> (StatusCode, &str, &str) {
    (
        reply.0,
        reply.1["code"].as_str().unwrap_or_default(),
        reply.1["reasons"][0]["description"].as_str().unwrap_or_default(),
    )
}

/// What the frame does at sign-up: a wallet from fresh randomness (fixed here), the auth share and
/// accounts stored first, then the recovery share sealed and added. Returns the EVM address.
async fn sign_up_with_wallet(router: &axum::Router, token: &str, user_id: &str) -> (String, Share) {
    let created = Wallet::create([0x5c; 32], [0xa7; 32]).unwrap();
    let [device, auth, recovery] = &created.shares;
    let address = created.wallet.evm_address().to_checksum(None);
    let (status, body) = call(
        router,
        "PUT",
        "wallet",
        Some(token),
        Some(json!({"authShare": auth.to_text(), "envelopes": [],
            "accounts": {"eip155": address, "solana": created.wallet.solana_address()}})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let sealed =
        Envelope::seal_with_password(recovery, user_id, PASSWORD, Argon2Cost::default(), [7; 16], [9; 12]).unwrap();
    let envelope: Value = serde_json::from_str(&sealed.to_json()).unwrap();
    let (status, body) = add_envelope(router, Some(token), &envelope).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["envelopes"], json!([envelope]));
    (address, device.clone())
}

#[tokio::test]
async fn the_envelope_is_added_replaced_and_read_back_by_the_session_only() {
    let (state, _dir) = dev_state().await;
    let router = app(state);
    let (token, user_id) = sign_up(&router, "rae@example.com").await;
    let envelope = json!({"v": 1, "kind": "password", "sealed": "a"});

    // No wallet yet: nothing to add to.
    let reply = add_envelope(&router, Some(&token), &envelope).await;
    assert_eq!(refusal(&reply).1, "NO_WALLET");
    assert_eq!(reply.0, StatusCode::NOT_FOUND);
    let (address, _) = sign_up_with_wallet(&router, &token, &user_id).await;

    // Refused: no session, a missing, unknown-kind, oversized or non-object envelope, extra fields.
    let reply = add_envelope(&router, None, &envelope).await;
    assert_eq!(reply.0, StatusCode::UNAUTHORIZED);
    for (body, description) in [
        (json!({}), "Required"),
        (json!({"envelope": null}), "Required"),
        (json!({"envelope": {"kind": "sms"}}), "Invalid input"),
        (json!({"envelope": "password"}), "Invalid input"),
        (
            json!({"envelope": {"kind": "password", "box": "f".repeat(2048)}}),
            "Invalid input",
        ),
    ] {
        let reply = call(&router, "POST", "wallet/envelope", Some(&token), Some(body.clone())).await;
        assert_eq!(reply.0, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(reply.1["reasons"][0]["field"], "envelope", "{body}");
        assert_eq!(refusal(&reply).2, description, "{body}");
    }
    let reply = call(
        &router,
        "POST",
        "wallet/envelope",
        Some(&token),
        Some(json!({"envelope": envelope, "x": 1})),
    )
    .await;
    assert_eq!(reply.0, StatusCode::UNPROCESSABLE_ENTITY);

    // A second envelope of the same kind replaces the first (a new password); another kind is added.
    let (status, body) = add_envelope(&router, Some(&token), &envelope).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(body["envelopes"], json!([envelope]));
    let passkey = json!({"v": 1, "kind": "passkey", "credentialId": "cred"});
    let (_, body) = add_envelope(&router, Some(&token), &passkey).await;
    assert_eq!(body["envelopes"], json!([envelope, passkey]));
    assert_eq!(body["accounts"]["eip155"], address.as_str());

    // Another user's session sees its own wallet only.
    let (other, _) = sign_up(&router, "sam@example.com").await;
    let reply = call(&router, "GET", "wallet", Some(&other), None).await;
    assert_eq!(refusal(&reply).1, "NO_WALLET");
    let reply = add_envelope(&router, Some(&other), &envelope).await;
    assert_eq!(refusal(&reply).1, "NO_WALLET");
}

/// Every share-shaped value in `text`: each run of at least 64 hex digits read from its start and
/// to its end (`0x02…` shares, hashes, ciphertexts), as each kind of share.
fn share_candidates(text: &str) -> Vec<Share> {
    let bytes = text.as_bytes();
    let mut found = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let run = bytes[start..].iter().take_while(|b| b.is_ascii_hexdigit()).count();
        if run >= 64 {
            for at in [start, start + run - 64] {
                let value: [u8; 32] = hex::decode(&text[at..at + 64]).unwrap().try_into().unwrap();
                for kind in ShareKind::ALL {
                    let share = Share::new(kind, value);
                    if !found.contains(&share) {
                        found.push(share);
                    }
                }
            }
        }
        start += run.max(1);
    }
    found
}

/// Issue 28 "a test that reads everything the server stores for a user and shows that no key can
/// be rebuilt from it": after a sign-up whose recovery share is sealed, every row of every table
/// (not only the embedded ones; all but sqlx's migration ledger) is read; every pair of share-shaped values in it rebuilds some
/// other account, the envelope opens with no guess, and only the user's password opens it.
#[tokio::test]
async fn everything_the_server_stores_rebuilds_no_key() {
    use sqlx::{Column, Row};
    let (state, dir) = dev_state().await;
    let router = app(state);
    let (token, user_id) = sign_up(&router, "kim@example.com").await;
    let (address, device) = sign_up_with_wallet(&router, &token, &user_id).await;

    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.path().join("latch.db").display()))
        .await
        .unwrap();
    let tables: Vec<String> = sqlx::query_scalar("SELECT name FROM sqlite_master WHERE type = 'table'")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert!(tables.iter().any(|t| t == "embedded_wallets"), "{tables:?}");
    let mut everything = String::new();
    // sqlx's migration ledger holds only the schema files' names and checksums, the same in every
    // install and public in the source; its hash-shaped values (one per file) would only multiply
    // the pairs below.
    for table in tables.iter().filter(|t| *t != "_sqlx_migrations") {
        for row in sqlx::query(&format!("SELECT * FROM \"{table}\""))
            .fetch_all(&pool)
            .await
            .unwrap()
        {
            for (i, column) in row.columns().iter().enumerate() {
                let text = row
                    .try_get::<Option<String>, _>(i)
                    .ok()
                    .flatten()
                    .or_else(|| row.try_get::<Option<Vec<u8>>, _>(i).ok().flatten().map(hex::encode));
                if let Some(value) = text {
                    everything.push_str(&format!("{table}.{}={value}\n", column.name()));
                }
            }
        }
    }
    let stored_envelopes: Vec<Envelope> = everything
        .lines()
        .filter_map(|line| line.strip_prefix("embedded_wallets.envelopes="))
        .flat_map(|json| serde_json::from_str::<Vec<Value>>(json).unwrap())
        .map(|envelope| Envelope::parse(&envelope.to_string()).unwrap())
        .collect();
    assert_eq!(stored_envelopes.len(), 1, "{everything}");

    // The device share is nowhere; the auth share is among the candidates (so they are read right).
    assert!(!everything.contains(&device.to_text()[4..]));
    let candidates = share_candidates(&everything);
    let auth = candidates
        .iter()
        .find(|s| s.kind() == ShareKind::Auth && everything.contains(&s.to_text()));
    let auth = auth.expect("the auth share is stored").clone();
    // Every pair of different stored values, as every pair of kinds: never the account.
    let mut pairs = 0;
    for (i, a) in candidates.iter().enumerate() {
        for b in &candidates[i + 1..] {
            if a.kind() == b.kind() {
                continue;
            }
            let seed = combine(a, b).unwrap();
            let wallet = Wallet::from_seed(&seed).unwrap();
            assert_ne!(wallet.evm_address().to_checksum(None), address);
            pairs += 1;
        }
    }
    assert!(pairs > 0);
    // The envelope's own bytes as a share, and guessed passwords, give nothing either.
    let envelope = &stored_envelopes[0];
    let ciphertext: [u8; 32] = envelope.ciphertext[..32].try_into().unwrap();
    let wallet = Wallet::from_shares(&auth, &Share::new(ShareKind::Recovery, ciphertext)).unwrap();
    assert_ne!(wallet.evm_address().to_checksum(None), address);
    for guess in [
        &b""[..],
        b"password",
        b"kim@example.com",
        user_id.as_bytes(),
        token.as_bytes(),
    ] {
        assert!(envelope.open_with_password(&user_id, guess).is_err());
    }

    // Control: the same rows plus the password are the account, as on a new device.
    let recovery = envelope.open_with_password(&user_id, PASSWORD).unwrap();
    let wallet = Wallet::from_shares(&auth, &recovery).unwrap();
    assert_eq!(wallet.evm_address().to_checksum(None), address);
}
