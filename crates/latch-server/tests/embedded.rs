//! Embedded-wallet sign-up and login through the whole router: codes read from
//! the `--dev` outbox, every refusal (schemas, cooldown, attempts, expiry, daily
//! caps, origins, token binding), the wallet's shares, e-mail update, and what
//! the database keeps. `embedded_smtp.rs` does the same over real SMTP.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{answer as call, Reply};
use latch_server::store::Project;
use latch_server::{app, AppState};
use serde_json::{json, Value};
use tower::ServiceExt;

const ORIGIN: &str = "http://127.0.0.1:5173";
const VAULT: &str = "https://vault.example.com";
const DEVICE: &str = "device-aaaaaaaaaaaaaaaa";
const OTHER_DEVICE: &str = "device-bbbbbbbbbbbbbbbb";

fn request(method: &str, uri: &str, origin: &str, token: Option<&str>, body: Option<Value>) -> Request<Body> {
    let mut builder = Request::builder()
        .method(method)
        .uri(uri)
        .header(header::ORIGIN, origin);
    if let Some(token) = token {
        builder = builder.header(header::AUTHORIZATION, format!("Bearer {token}"));
    }
    builder
        .body(body.map_or_else(Body::empty, |b| Body::from(b.to_string())))
        .unwrap()
}

fn post(uri: &str, body: Value) -> Request<Body> {
    request("POST", uri, ORIGIN, None, Some(body))
}

async fn dev_state(adjust: impl FnOnce(&mut latch_server::config::Config)) -> (AppState, tempfile::TempDir) {
    common::state_with(vec![common::dead_upstream()], |config| {
        config.dev = true;
        config.embedded.vault_origin = Some(VAULT.into());
        adjust(config);
    })
    .await
}

/// The newest mail the outbox holds for `to`.
/// `PUT /v1/embedded/wallet` with `wallet` in the session `token`.
async fn put_wallet(router: &axum::Router, token: &str, wallet: Value) -> Reply {
    call(
        router,
        request(
            "PUT",
            "/v1/embedded/wallet?projectId=test",
            ORIGIN,
            Some(token),
            Some(wallet),
        ),
    )
    .await
}

/// Adds project `id`, allowing `origin`.
async fn add_project(state: &AppState, id: &str, origin: &str) {
    let project = Project {
        id: id.into(),
        allowed_origins: vec![origin.into()],
        created_at: 0,
        analytics_enabled: true,
    };
    state.store.put_project(&project).await.unwrap();
}

async fn last_mail(router: &axum::Router, to: &str) -> Value {
    let reply = call(router, request("GET", "/v1/embedded/dev/outbox", ORIGIN, None, None)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    reply.body["mails"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|m| m["to"].as_str().is_some_and(|t| t.eq_ignore_ascii_case(to)))
        .cloned()
        .unwrap_or_else(|| panic!("a mail to {to} in {}", reply.body))
}

fn code_in(mail: &Value) -> String {
    let text = mail["text"].as_str().unwrap();
    let at = text.find(": ").unwrap() + 2;
    let code = &text[at..at + 6];
    assert!(code.bytes().all(|b| b.is_ascii_digit()), "{text}");
    assert!(mail["subject"].as_str().unwrap().starts_with(code));
    code.to_owned()
}

async fn start(router: &axum::Router, email: &str, device: &str) -> Reply {
    call(
        router,
        post(
            "/v1/embedded/email/start?projectId=test",
            json!({"email": email, "deviceId": device}),
        ),
    )
    .await
}

async fn verify(router: &axum::Router, email: &str, otp: &str, device: &str) -> Reply {
    call(
        router,
        post(
            "/v1/embedded/email/verify?projectId=test",
            json!({"email": email, "otp": otp, "deviceId": device}),
        ),
    )
    .await
}

/// Signs `email` up on [`DEVICE`]; the session token.
async fn sign_up(router: &axum::Router, email: &str) -> String {
    let reply = start(router, email, DEVICE).await;
    assert_eq!(
        (reply.status, &reply.body),
        (StatusCode::OK, &json!({"action": "VERIFY_OTP"}))
    );
    let code = code_in(&last_mail(router, email).await);
    let reply = verify(router, email, &code, DEVICE).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["token"].as_str().unwrap().to_owned()
}

fn wrong(code: &str) -> String {
    format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000)
}

fn refusal(reply: &Reply) -> (StatusCode, &str, &str, &str) {
    (
        reply.status,
        reply.body["code"].as_str().unwrap_or_default(),
        reply.body["reasons"][0]["field"].as_str().unwrap_or_default(),
        reply.body["reasons"][0]["description"].as_str().unwrap_or_default(),
    )
}

#[tokio::test]
async fn inputs_are_checked_with_the_schema_messages() {
    let (state, _dir) = dev_state(|_| {}).await;
    let router = app(state);
    let cases = [
        (json!({"deviceId": DEVICE}), "email", "Required"),
        (
            json!({"email": "not-an-address", "deviceId": DEVICE}),
            "email",
            "Invalid input",
        ),
        (json!({"email": "a@example.com"}), "deviceId", "Required"),
        (
            json!({"email": "a@example.com", "deviceId": "short"}),
            "deviceId",
            "Invalid input",
        ),
    ];
    for (body, field, message) in cases {
        let reply = call(&router, post("/v1/embedded/email/start?projectId=test", body.clone())).await;
        assert_eq!(
            refusal(&reply),
            (StatusCode::BAD_REQUEST, "INVALID_INPUT", field, message),
            "{body}"
        );
    }
    let reply = call(
        &router,
        post("/v1/embedded/email/start?projectId=test", json!({"email": 1})),
    )
    .await;
    assert_eq!(reply.status, StatusCode::UNPROCESSABLE_ENTITY);
    let reply = verify(&router, "a@example.com", "12345", DEVICE).await;
    assert_eq!(
        refusal(&reply),
        (StatusCode::BAD_REQUEST, "INVALID_INPUT", "otp", "Invalid input")
    );
    let reply = verify(&router, "a@example.com", "123456", DEVICE).await;
    assert_eq!(refusal(&reply).1, "OTP_EXPIRED", "no code was sent");
    let reply = call(&router, post("/v1/embedded/email/start?projectId=nope", json!({}))).await;
    assert_eq!(reply.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn sign_up_session_wallet_and_sign_out() {
    let (state, _dir) = dev_state(|_| {}).await;
    add_project(&state, "other", "http://127.0.0.1:*").await;
    let router = app(state);
    let token = sign_up(&router, "Ann@Example.com").await;

    let user = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(user.status, StatusCode::OK, "{}", user.body);
    assert_eq!(user.body["email"], "Ann@example.com");
    assert_eq!(user.body["accounts"], json!([]));
    assert_eq!(user.body["userName"], Value::Null);
    let user_id = user.body["userId"].as_str().unwrap().to_owned();

    // Bound to its project, and bearer only.
    let elsewhere = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=other", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(refusal(&elsewhere).0, StatusCode::UNAUTHORIZED);
    assert_eq!(refusal(&elsewhere).1, "SESSION_INVALID");
    let anonymous = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, None, None),
    )
    .await;
    assert_eq!(refusal(&anonymous).1, "SESSION_INVALID");
    let made_up = call(
        &router,
        request(
            "GET",
            "/v1/embedded/user?projectId=test",
            ORIGIN,
            Some(&"0".repeat(64)),
            None,
        ),
    )
    .await;
    assert_eq!(refusal(&made_up).1, "SESSION_INVALID");

    // The wallet's shares: validated, stored once, read back by the session only.
    let share = format!("0x02{}", "5a".repeat(32));
    let wallet = json!({
        "authShare": share,
        "envelopes": [{"kind": "password", "salt": "00", "box": "ff"}],
        "accounts": {"eip155": "0x52908400098527886e0f7030069857d2e4169ee7", "solana": "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"}
    });
    for (change, field) in [
        (json!({"authShare": format!("0x03{}", "5a".repeat(32))}), "authShare"),
        (json!({"authShare": format!("0x02{}", "5A".repeat(32))}), "authShare"),
        (json!({"envelopes": [{"kind": "pin"}]}), "envelopes"),
        (
            json!({"envelopes": [{"kind": "password", "x": "f".repeat(2100)}]}),
            "envelopes",
        ),
        (
            json!({"accounts": {"eip155": "0x52908400098527886E0F7030069857D2E4169Ee7"}}),
            "accounts",
        ),
        (
            json!({"accounts": {"eip155": "0x52908400098527886e0f7030069857d2e4169ee7", "solana": "0OIl"}}),
            "accounts",
        ),
        (json!({"accounts": {"bip122": "x"}}), "accounts"),
    ] {
        let mut body = wallet.clone();
        for (k, v) in change.as_object().unwrap() {
            body[k] = v.clone();
        }
        let reply = put_wallet(&router, &token, body).await;
        assert_eq!(refusal(&reply).0, StatusCode::BAD_REQUEST, "{change}: {}", reply.body);
        assert_eq!(refusal(&reply).2, field, "{change}");
    }
    let none = call(
        &router,
        request("GET", "/v1/embedded/wallet?projectId=test", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(refusal(&none).1, "NO_WALLET");
    let put = put_wallet(&router, &token, wallet.clone()).await;
    assert_eq!(put.status, StatusCode::CREATED, "{}", put.body);
    assert_eq!(
        put.body["accounts"],
        json!([
            {"address": "0x52908400098527886E0F7030069857D2E4169EE7", "type": "eoa", "namespace": "eip155"},
            {"address": "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T", "type": "eoa", "namespace": "solana"}
        ])
    );
    let again = put_wallet(&router, &token, wallet).await;
    assert_eq!(
        (again.status, refusal(&again).1),
        (StatusCode::CONFLICT, "WALLET_EXISTS")
    );
    let read = call(
        &router,
        request("GET", "/v1/embedded/wallet?projectId=test", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(read.body["authShare"], share);
    assert_eq!(read.body["envelopes"][0]["kind"], "password");
    assert_eq!(
        read.body["accounts"]["eip155"],
        "0x52908400098527886E0F7030069857D2E4169EE7"
    );
    let anonymous = call(
        &router,
        request("GET", "/v1/embedded/wallet?projectId=test", ORIGIN, None, None),
    )
    .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);

    // Logging in again (no code pending: no cooldown) finds the same user, with a second session.
    let second = sign_up(&router, "ann@example.com").await;
    assert_ne!(second, token);
    let again = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, Some(&second), None),
    )
    .await;
    assert_eq!(again.body["userId"], user_id.as_str());
    assert_eq!(again.body["accounts"].as_array().unwrap().len(), 2);
    // Sign-out ends that session only.
    let out = call(
        &router,
        request(
            "POST",
            "/v1/embedded/signout?projectId=test",
            ORIGIN,
            Some(&second),
            None,
        ),
    )
    .await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    let after = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, Some(&second), None),
    )
    .await;
    assert_eq!(refusal(&after).1, "SESSION_INVALID", "revoked on sign-out");
    let first = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(first.status, StatusCode::OK);
}

#[tokio::test]
async fn cooldown_attempts_and_expiry() {
    let (state, _dir) = dev_state(|_| {}).await;
    let router = app(state.clone());
    let email = "bob@example.com";
    assert_eq!(start(&router, email, DEVICE).await.status, StatusCode::OK);
    let code = code_in(&last_mail(&router, email).await);

    // Behaviour 7.1: one send per 30 s, with behaviour 5.16's text and the seconds left.
    let again = start(&router, email, DEVICE).await;
    let (status, kind, field, text) = refusal(&again);
    assert_eq!(
        (status, kind, field),
        (StatusCode::TOO_MANY_REQUESTS, "EMAIL_COOLDOWN", "email")
    );
    let seconds: u64 = text
        .strip_prefix("Please try again after ")
        .and_then(|t| t.strip_suffix(" seconds"))
        .unwrap()
        .parse()
        .unwrap();
    assert!((29..=30).contains(&seconds), "{text}");
    assert_eq!(
        again.header(header::RETRY_AFTER).as_deref(),
        Some(seconds.to_string().as_str())
    );

    // Five wrong guesses burn the code; the right one no longer works.
    for left in (1..=4).rev() {
        let reply = verify(&router, email, &wrong(&code), DEVICE).await;
        assert_eq!(
            refusal(&reply),
            (
                StatusCode::BAD_REQUEST,
                "OTP_INVALID",
                "otp",
                format!("wrong code; {left} attempts left").as_str()
            )
        );
    }
    let fifth = verify(&router, email, &wrong(&code), DEVICE).await;
    assert_eq!(refusal(&fifth).1, "OTP_ATTEMPTS_EXCEEDED");
    let late = verify(&router, email, &code, DEVICE).await;
    assert_eq!(refusal(&late).1, "OTP_EXPIRED");

    // A code past its ten minutes is refused (the stored expiry moved back, as time would).
    let carol = "carol@example.com";
    assert_eq!(start(&router, carol, DEVICE).await.status, StatusCode::OK);
    let code = code_in(&last_mail(&router, carol).await);
    let mut row = state
        .store
        .embedded_code("test", carol, "login")
        .await
        .unwrap()
        .unwrap();
    row.expires_at = latch_server::now_ms() - 1;
    state.store.embedded_put_code(&row).await.unwrap();
    assert_eq!(refusal(&verify(&router, carol, &code, DEVICE).await).1, "OTP_EXPIRED");

    // A code asked for on one device does not open a session on another; it stays usable on its own.
    let dan = "dan@example.com";
    assert_eq!(start(&router, dan, DEVICE).await.status, StatusCode::OK);
    let code = code_in(&last_mail(&router, dan).await);
    let reply = verify(&router, dan, &code, OTHER_DEVICE).await;
    assert_eq!(
        refusal(&reply),
        (
            StatusCode::BAD_REQUEST,
            "OTP_INVALID",
            "deviceId",
            "this code was asked for on another device"
        )
    );
    let reply = verify(&router, dan, &code, DEVICE).await;
    assert_eq!(reply.status, StatusCode::OK);
    let reused = verify(&router, dan, &code, DEVICE).await;
    assert_eq!(refusal(&reused).1, "OTP_EXPIRED", "single use");
}

#[tokio::test]
async fn daily_caps() {
    let (state, _dir) = dev_state(|config| config.embedded.daily_per_email = 2).await;
    let router = app(state.clone());
    let email = "erin@example.com";
    for _ in 0..2 {
        assert_eq!(start(&router, email, DEVICE).await.status, StatusCode::OK);
        // Past the cooldown, as 30 s later.
        state.store.embedded_drop_code("test", email, "login").await.unwrap();
    }
    let third = start(&router, email, DEVICE).await;
    assert_eq!(refusal(&third).0, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(refusal(&third).1, "DAILY_LIMIT");
}

/// One client asking codes for many addresses: capped per IP (its /64 for IPv6), whatever the address.
#[tokio::test]
async fn daily_cap_per_client() {
    let (state, _dir) = dev_state(|config| config.embedded.daily_per_ip = 2).await;
    let router = app(state);
    let from = |ip: std::net::IpAddr, email: &str| {
        let mut request = post(
            "/v1/embedded/email/start?projectId=test",
            json!({"email": email, "deviceId": DEVICE}),
        );
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::new(ip, 40000)));
        request
    };
    let one: std::net::IpAddr = "2001:db8::1".parse().unwrap();
    let same_64: std::net::IpAddr = "2001:db8::ffff".parse().unwrap();
    let other: std::net::IpAddr = "192.0.2.7".parse().unwrap();
    for email in ["a1@example.com", "a2@example.com"] {
        assert_eq!(call(&router, from(one, email)).await.status, StatusCode::OK);
    }
    let third = call(&router, from(same_64, "a3@example.com")).await;
    assert_eq!(
        (refusal(&third).0, refusal(&third).1, refusal(&third).2),
        (StatusCode::TOO_MANY_REQUESTS, "DAILY_LIMIT", "email"),
        "{}",
        third.text
    );
    assert!(third.text.contains("from this address today"), "{}", third.text);
    assert_eq!(
        call(&router, from(other, "a3@example.com")).await.status,
        StatusCode::OK,
        "another client is not charged"
    );
}

#[tokio::test]
async fn a_new_device_is_approved_by_mail_first() {
    let (state, _dir) = dev_state(|_| {}).await;
    let router = app(state.clone());
    let email = "fay@example.com";
    sign_up(&router, email).await;
    let reply = start(&router, email, OTHER_DEVICE).await;
    assert_eq!(reply.body, json!({"action": "VERIFY_DEVICE"}));
    let mail = last_mail(&router, email).await;
    let text = mail["text"].as_str().unwrap();
    let link = text
        .split_whitespace()
        .find(|w| w.contains("/v1/embedded/device/approve?token="))
        .unwrap();
    let path = &link[link.find("/v1/").unwrap()..];
    let bad = call(
        &router,
        Request::get("/v1/embedded/device/approve?token=00")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    let opened = call(&router, Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(opened.status, StatusCode::OK, "{}", opened.text);
    assert!(opened.text.contains("Device approved"));
    let reopened = call(&router, Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(reopened.status, StatusCode::BAD_REQUEST, "one use");
    let reply = start(&router, email, OTHER_DEVICE).await;
    assert_eq!(reply.body, json!({"action": "VERIFY_OTP"}));
    let code = code_in(&last_mail(&router, email).await);
    assert_eq!(verify(&router, email, &code, OTHER_DEVICE).await.status, StatusCode::OK);
}

#[tokio::test]
async fn the_vault_origin_is_allowed_besides_the_projects() {
    let (state, _dir) = dev_state(|_| {}).await;
    add_project(&state, "strict", "https://app.example.com").await;
    let router = app(state);
    let body = json!({"email": "gil@example.com", "deviceId": DEVICE});
    let evil = call(
        &router,
        request(
            "POST",
            "/v1/embedded/email/start?projectId=strict",
            "https://evil.example.com",
            None,
            Some(body.clone()),
        ),
    )
    .await;
    assert_eq!(evil.status, StatusCode::FORBIDDEN);
    let vault = call(
        &router,
        request(
            "POST",
            "/v1/embedded/email/start?projectId=strict",
            VAULT,
            None,
            Some(body),
        ),
    )
    .await;
    assert_eq!(vault.status, StatusCode::OK, "{}", vault.body);
    // CORS: the vault's preflight passes for embedded routes only.
    let preflight = |path: &str| {
        Request::builder()
            .method("OPTIONS")
            .uri(path)
            .header(header::ORIGIN, VAULT)
            .header(header::ACCESS_CONTROL_REQUEST_METHOD, "POST")
            .body(Body::empty())
            .unwrap()
    };
    let ok = router
        .clone()
        .oneshot(preflight("/v1/embedded/email/verify?projectId=strict"))
        .await
        .unwrap();
    assert_eq!(ok.headers()[header::ACCESS_CONTROL_ALLOW_ORIGIN], VAULT);
    let other = router
        .clone()
        .oneshot(preflight("/v1/siwx/nonce?projectId=strict"))
        .await
        .unwrap();
    assert_eq!(other.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn update_email_needs_both_codes() {
    let (state, _dir) = dev_state(|_| {}).await;
    let router = app(state);
    let token = sign_up(&router, "hal@example.com").await;
    sign_up(&router, "ivy@example.com").await;
    let update = |new: &str| {
        request(
            "POST",
            "/v1/embedded/email/update?projectId=test",
            ORIGIN,
            Some(&token),
            Some(json!({"newEmail": new})),
        )
    };
    let taken = call(&router, update("ivy@example.com")).await;
    assert_eq!((taken.status, refusal(&taken).1), (StatusCode::CONFLICT, "EMAIL_TAKEN"));
    let bad = call(&router, update("nope")).await;
    assert_eq!(
        refusal(&bad),
        (StatusCode::BAD_REQUEST, "INVALID_INPUT", "newEmail", "Invalid input")
    );
    let reply = call(&router, update("hal.new@example.com")).await;
    assert_eq!(reply.body, json!({"action": "VERIFY_PRIMARY_OTP"}), "{}", reply.text);
    let primary = code_in(&last_mail(&router, "hal@example.com").await);
    let secondary = code_in(&last_mail(&router, "hal.new@example.com").await);
    let check = |p: &str, s: &str| {
        request(
            "POST",
            "/v1/embedded/email/update/verify?projectId=test",
            ORIGIN,
            Some(&token),
            Some(json!({"primaryOtp": p, "secondaryOtp": s})),
        )
    };
    let swapped = call(&router, check(&primary, &wrong(&secondary))).await;
    assert_eq!(refusal(&swapped).1, "OTP_INVALID");
    assert_eq!(refusal(&swapped).2, "secondaryOtp");
    let done = call(&router, check(&primary, &secondary)).await;
    assert_eq!(done.status, StatusCode::OK, "{}", done.body);
    assert_eq!(done.body["email"], "hal.new@example.com");
    // The new address logs in to the same user; the old one would sign up anew.
    let user = call(
        &router,
        request("GET", "/v1/embedded/user?projectId=test", ORIGIN, Some(&token), None),
    )
    .await;
    assert_eq!(user.body["email"], "hal.new@example.com");
}

#[tokio::test]
async fn the_database_keeps_no_secret_but_hashes_and_opaque_shares() {
    use sqlx::{Column, Row};
    let (state, dir) = dev_state(|_| {}).await;
    let router = app(state);
    let email = "jo@example.com";
    let token = sign_up(&router, email).await;
    let share = format!("0x02{}", "c3".repeat(32));
    let envelope = json!({"kind": "passkey", "credentialId": "cred", "box": "sealed"});
    let wallet = json!({"authShare": share, "envelopes": [envelope], "accounts": {"eip155": "0x52908400098527886E0F7030069857D2E4169EE7"}});
    let put = put_wallet(&router, &token, wallet).await;
    assert_eq!(put.status, StatusCode::CREATED);
    // A pending code and a pending device link too.
    let update = request(
        "POST",
        "/v1/embedded/email/update?projectId=test",
        ORIGIN,
        Some(&token),
        Some(json!({"newEmail": "jo2@example.com"})),
    );
    assert_eq!(call(&router, update).await.status, StatusCode::OK);
    let pending = code_in(&last_mail(&router, email).await);
    assert_eq!(
        start(&router, email, OTHER_DEVICE).await.body,
        json!({"action": "VERIFY_DEVICE"})
    );
    let link = last_mail(&router, email).await["text"].as_str().unwrap().to_owned();
    let link_token = link
        .split("token=")
        .nth(1)
        .unwrap()
        .split_whitespace()
        .next()
        .unwrap()
        .to_owned();

    let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", dir.path().join("latch.db").display()))
        .await
        .unwrap();
    let mut everything = String::new();
    for table in [
        "embedded_users",
        "embedded_devices",
        "embedded_codes",
        "embedded_counters",
        "embedded_sessions",
        "embedded_wallets",
    ] {
        for row in sqlx::query(&format!("SELECT * FROM {table}"))
            .fetch_all(&pool)
            .await
            .unwrap()
        {
            for (i, column) in row.columns().iter().enumerate() {
                let value: Option<String> = row.try_get(i).ok().flatten();
                if let Some(value) = value {
                    everything.push_str(&format!("{table}.{}={value}\n", column.name()));
                }
            }
        }
    }
    assert!(everything.contains("embedded_sessions.token_hash="), "{everything}");
    for secret in [
        token.as_str(),
        pending.as_str(),
        link_token.as_str(),
        DEVICE,
        OTHER_DEVICE,
    ] {
        assert!(
            !everything.contains(secret),
            "{secret} is stored in clear:\n{everything}"
        );
    }
    // The shares are kept as given, in the wallet row alone: the auth share and a sealed envelope.
    let share_rows = everything
        .lines()
        .filter(|l| l.contains(&share[4..]))
        .collect::<Vec<_>>();
    assert_eq!(
        share_rows,
        vec![format!("embedded_wallets.auth_share={share}").as_str()]
    );
    assert!(everything.contains("embedded_wallets.envelopes=[{"));
}

#[tokio::test]
async fn codes_are_stored_keyed_and_still_verify_after_a_restart() {
    use sha2::{Digest, Sha256};
    let (state, dir) = dev_state(|_| {}).await;
    let config = (*state.config).clone();
    let email = "kai@example.com";
    let router = app(state.clone());
    assert_eq!(start(&router, email, DEVICE).await.status, StatusCode::OK);
    let code = code_in(&last_mail(&router, email).await);
    let stored = state
        .store
        .embedded_code("test", email, "login")
        .await
        .unwrap()
        .unwrap()
        .code_hash;
    // Neither the code's plain hash nor its context's: a copy of the database cannot try the
    // million codes without the key, which lives in the data directory, not in the database.
    assert_ne!(stored, hex::encode(Sha256::digest(&code)));
    assert_ne!(
        stored,
        hex::encode(Sha256::digest(format!("test\n{email}\nlogin\n{code}")))
    );
    assert_eq!(stored.len(), 64);
    let key = std::fs::read_to_string(dir.path().join("embedded-code-secret")).unwrap();
    assert_eq!(key.len(), 64);
    assert!(!stored.contains(&key) && !format!("{config:?}").contains(&key));

    // A restart on the same data directory reads the same key: the pending code still verifies.
    drop(router);
    drop(state);
    let restarted = AppState::new(config).await.unwrap();
    let router = app(restarted);
    let reply = verify(&router, email, &code, DEVICE).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert!(reply.body["token"].is_string());
}

#[tokio::test]
async fn a_configured_code_secret_is_used_and_nothing_is_written() {
    let secret = "5a".repeat(32);
    let (state, dir) = dev_state(|config| {
        config.embedded.code_secret = Some(latch_server::config::Secret(secret.clone()));
    })
    .await;
    assert!(!format!("{:?}", state.config).contains(&secret), "redacted");
    assert!(!dir.path().join("embedded-code-secret").exists());
    let router = app(state);
    let token = sign_up(&router, "lee@example.com").await;
    assert_eq!(token.len(), 64);
}
