//! Sign in with X against the real devnet: EIP-4361 messages built by
//! latch-core and signed by anvil's own `personal_sign` (EOA), by the
//! fixture's smart wallet owner (ERC-1271), by the owner of a smart account
//! not deployed yet (ERC-6492, through the fixture's CREATE2 factory), and a
//! CAIP-122 Solana message signed with ed25519; sessions by token and cookie;
//! every refusal.

mod common;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use common::{answer as call, erc6492_sign, personal_sign as sign, rfc3339, serve_solana, state_with, Devnet, Reply};
use ed25519_dalek::Signer;
use latch_core::siwx::{SiweMessage, SiwxMessage};
use latch_server::app;
use serde_json::{json, Value};

const ORIGIN: &str = "http://127.0.0.1:5173";
const DOMAIN: &str = "127.0.0.1:5173";

fn post(uri: &str, body: Value) -> Request<Body> {
    Request::post(uri)
        .header(header::ORIGIN, ORIGIN)
        .body(Body::from(body.to_string()))
        .unwrap()
}

async fn nonce(router: &axum::Router) -> String {
    let reply = call(router, post("/v1/siwx/nonce?projectId=test", json!({}))).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    reply.body["nonce"].as_str().unwrap().to_owned()
}

fn siwe(address: &str, nonce: &str) -> SiweMessage {
    SiweMessage {
        scheme: None,
        domain: DOMAIN.into(),
        address: address.into(),
        statement: Some("Sign in to the Latch demo.".into()),
        uri: ORIGIN.into(),
        version: "1".into(),
        chain_id: 31337,
        nonce: nonce.into(),
        issued_at: rfc3339(latch_server::now_ms()),
        expiration_time: Some("2100-01-01T00:00:00Z".into()),
        not_before: None,
        request_id: None,
        resources: None,
    }
}

async fn sign_in(router: &axum::Router, message: &str, signature: &str) -> Reply {
    call(
        router,
        post(
            "/v1/siwx/sessions?projectId=test",
            json!({"message": message, "signature": signature}),
        ),
    )
    .await
}

fn code(reply: &Reply) -> (StatusCode, &str) {
    (reply.status, reply.body["code"].as_str().unwrap_or(""))
}

#[tokio::test]
async fn sign_in_sessions_and_every_refusal() {
    let devnet = Devnet::start().await;
    let (anvil, fixture) = (&devnet.anvil, &devnet.fixture);
    let (state, _data) = state_with(vec![anvil.url.clone()], serve_solana).await;
    let router = app(state);
    let one = fixture["accounts"][1]["address"].as_str().unwrap();
    let two = fixture["accounts"][2]["address"].as_str().unwrap();
    let wallet = fixture["contracts"]["smartWallet"]["address"].as_str().unwrap();

    // An EOA signs in: a short-lived access token, a refresh token, the
    // long-lived token only in an HTTP-only cookie, and the session.
    let text = siwe(one, &nonce(&router).await).build().unwrap();
    let signature = sign(anvil, one, &text).await;
    let reply = sign_in(&router, &text, &signature).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert!(
        reply.body.get("token").is_none(),
        "no long-lived token in script-readable JSON"
    );
    let token = reply.body["accessToken"].as_str().unwrap().to_owned();
    let refresh_token = reply.body["refreshToken"].as_str().unwrap().to_owned();
    let access_expires_at = reply.body["accessExpiresAt"].as_i64().unwrap();
    let now = latch_server::now_ms();
    assert!(
        (now + 14 * 60_000..=now + 15 * 60_000).contains(&access_expires_at),
        "15 minutes"
    );
    let session = reply.body["session"].clone();
    assert_eq!(session["account"], format!("eip155:31337:{one}"));
    assert_eq!(session["domain"], DOMAIN);
    assert_eq!(session["message"], text);
    assert!(
        session.get("tokenHash").is_none(),
        "the token's hash stays on the server"
    );
    let cookie = reply.header(header::SET_COOKIE).expect("a session cookie");
    assert!(
        cookie.starts_with("latch_siwx=") && cookie.contains("HttpOnly") && !cookie.contains(&token),
        "{cookie}"
    );
    let session_token = cookie["latch_siwx=".len()..].split(';').next().unwrap().to_owned();

    // The same message again (a replay): its nonce is used up.
    assert_eq!(
        code(&sign_in(&router, &text, &signature).await),
        (StatusCode::UNAUTHORIZED, "NONCE_UNKNOWN")
    );

    // The browser's cookie and the host's verification both see the session.
    let current = call(
        &router,
        Request::get("/v1/siwx/session?projectId=test")
            .header(header::COOKIE, format!("other=1; latch_siwx={session_token}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(current.body["session"]["id"], session["id"], "{}", current.body);
    let verified = call(
        &router,
        post(
            "/v1/siwx/verify?projectId=test",
            json!({"token": token, "domain": DOMAIN}),
        ),
    )
    .await;
    assert_eq!(
        (
            verified.status,
            verified.body["session"]["account"].clone(),
            verified.body["domain"].clone()
        ),
        (StatusCode::OK, session["account"].clone(), json!(DOMAIN))
    );
    assert!(
        verified.body["session"].get("message").is_none(),
        "no message to the host"
    );
    let by_cookie = call(
        &router,
        post("/v1/siwx/verify?projectId=test", json!({"token": session_token})),
    )
    .await;
    assert_eq!(by_cookie.status, StatusCode::OK, "{}", by_cookie.body);
    let listed = call(
        &router,
        Request::get(format!(
            "/v1/siwx/sessions?projectId=test&account=eip155:31337:{}",
            one.to_lowercase()
        ))
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap(),
    )
    .await;
    assert_eq!(
        listed.body["sessions"].as_array().map(Vec::len),
        Some(1),
        "{}",
        listed.body
    );
    assert!(listed.body["sessions"][0].get("signature").is_none(), "summaries only");

    // A refresh rotates both tokens; the old access token keeps counting until it expires.
    let refreshed = call(
        &router,
        post(
            "/v1/siwx/refresh?projectId=test",
            json!({"refreshToken": refresh_token}),
        ),
    )
    .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.body);
    let token = refreshed.body["accessToken"].as_str().unwrap().to_owned();
    assert_eq!(refreshed.body["session"]["id"], session["id"]);
    let verified = call(&router, post("/v1/siwx/verify?projectId=test", json!({"token": token}))).await;
    assert_eq!(verified.status, StatusCode::OK, "{}", verified.body);

    // Refusals, each with its code.
    let fresh = |mut message: SiweMessage, nonce: String| {
        message.nonce = nonce;
        message
    };
    let mut tampered = siwe(one, &nonce(&router).await);
    let signed = sign(anvil, one, &tampered.build().unwrap()).await;
    tampered.statement = Some("Sign in and send everything to me.".into());
    assert_eq!(
        code(&sign_in(&router, &tampered.build().unwrap(), &signed).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE")
    );

    let mut expired = fresh(siwe(one, ""), nonce(&router).await);
    expired.expiration_time = Some("2020-01-02T00:00:00Z".into());
    let text = expired.build().unwrap();
    let reply = sign_in(&router, &text, &sign(anvil, one, &text).await).await;
    assert_eq!(code(&reply), (StatusCode::UNAUTHORIZED, "SESSION_EXPIRED"));
    assert!(reply.body["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .starts_with("Session Expired"));

    let mut early = fresh(siwe(one, ""), nonce(&router).await);
    early.not_before = Some("2099-01-01T00:00:00Z".into());
    let text = early.build().unwrap();
    let reply = sign_in(&router, &text, &sign(anvil, one, &text).await).await;
    assert_eq!(code(&reply), (StatusCode::UNAUTHORIZED, "SESSION_EXPIRED"));
    assert!(reply.body["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .contains("not yet valid"));

    let mut elsewhere = fresh(siwe(one, ""), nonce(&router).await);
    elsewhere.domain = "evil.example".into();
    elsewhere.uri = "https://evil.example/".into();
    let text = elsewhere.build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &sign(anvil, one, &text).await).await),
        (StatusCode::UNAUTHORIZED, "WRONG_DOMAIN")
    );

    let text = siwe(one, "neverissued123").build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &sign(anvil, one, &text).await).await),
        (StatusCode::UNAUTHORIZED, "NONCE_UNKNOWN")
    );

    let text = siwe(one, &nonce(&router).await).build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &sign(anvil, two, &text).await).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE"),
        "someone else's signature"
    );
    assert_eq!(
        code(&sign_in(&router, "not a sign-in message", "0x00").await).0,
        StatusCode::BAD_REQUEST
    );
    let garbage = call(&router, post("/v1/siwx/sessions?projectId=test", json!(["no"]))).await;
    assert_eq!(garbage.status, StatusCode::UNPROCESSABLE_ENTITY);
    let foreign = call(
        &router,
        Request::post("/v1/siwx/nonce?projectId=test")
            .header(header::ORIGIN, "https://evil.example")
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(
        foreign.status,
        StatusCode::FORBIDDEN,
        "an origin off the allowlist gets no nonce"
    );

    // The fixture smart wallet signs in with its owner's signature (ERC-1271 through the gateway).
    let text = siwe(wallet, &nonce(&router).await).build().unwrap();
    let reply = sign_in(&router, &text, &sign(anvil, one, &text).await).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(reply.body["session"]["account"], format!("eip155:31337:{wallet}"));

    // A Solana account signs a CAIP-122 message with ed25519.
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let address = bs58::encode(key.verifying_key().as_bytes()).into_string();
    let solana = SiwxMessage {
        scheme: None,
        domain: DOMAIN.into(),
        address: address.clone(),
        statement: Some("Sign in to the Latch demo.".into()),
        uri: ORIGIN.into(),
        version: "1".into(),
        chain_id: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into(),
        nonce: nonce(&router).await,
        issued_at: rfc3339(latch_server::now_ms()),
        expiration_time: None,
        not_before: None,
        request_id: None,
        resources: None,
    };
    let text = solana.build().unwrap();
    let signature = bs58::encode(key.sign(text.as_bytes()).to_bytes()).into_string();
    let reply = sign_in(&router, &text, &signature).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(
        reply.body["session"]["account"],
        format!("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp:{address}")
    );

    // Revoking takes the account's signature over latch-core's revoke message.
    let id = session["id"].as_str().unwrap();
    let revoke_text = latch_core::siwx::revoke_message(DOMAIN, id);
    let uri = format!("/v1/siwx/sessions/{id}/revoke?projectId=test");
    let wrong = call(
        &router,
        post(&uri, json!({"signature": sign(anvil, two, &revoke_text).await})),
    )
    .await;
    assert_eq!(code(&wrong), (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE"));
    let revoked = call(
        &router,
        post(&uri, json!({"signature": sign(anvil, one, &revoke_text).await})),
    )
    .await;
    assert_eq!(revoked.body, json!({"revoked": true}));
    let verified = call(&router, post("/v1/siwx/verify?projectId=test", json!({"token": token}))).await;
    assert_eq!(code(&verified), (StatusCode::UNAUTHORIZED, "SESSION_INVALID"));

    // Signing out with the bearer token ends the Solana session and clears the cookie.
    let solana_token = reply.body["accessToken"].as_str().unwrap();
    let out = call(
        &router,
        Request::delete("/v1/siwx/session?projectId=test")
            .header(header::AUTHORIZATION, format!("Bearer {solana_token}"))
            .body(Body::empty())
            .unwrap(),
    )
    .await;
    assert_eq!(out.status, StatusCode::OK, "{}", out.body);
    assert!(out.header(header::SET_COOKIE).unwrap().contains("Max-Age=0"));
    let again = call(
        &router,
        post("/v1/siwx/verify?projectId=test", json!({"token": solana_token})),
    )
    .await;
    assert_eq!(code(&again), (StatusCode::UNAUTHORIZED, "SESSION_INVALID"));
}

#[tokio::test]
async fn counterfactual_accounts_sign_in_with_erc6492() {
    let devnet = Devnet::start().await;
    let anvil = &devnet.anvil;
    let (state, _data) = state_with(vec![anvil.url.clone()], |_| {}).await;
    let router = app(state);
    let (four, five) = (devnet.account(4), devnet.account(5));
    let account = devnet.counterfactual_account(&four, 1).await;
    assert!(!devnet.has_code(&account.address).await, "counterfactual: no code yet");

    // Signed by the owner and wrapped with the factory call: the deployless
    // validator deploys it inside one eth_call and asks it.
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    let reply = sign_in(&router, &text, &erc6492_sign(anvil, &account, &four, &text).await).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    assert_eq!(
        reply.body["session"]["account"],
        format!("eip155:31337:{}", account.address)
    );
    assert!(!devnet.has_code(&account.address).await, "checking deployed nothing");

    // Tampered: someone else's inner signature, or a factory call that
    // deploys another account (salt 2), are refused.
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &erc6492_sign(anvil, &account, &five, &text).await).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE")
    );
    let mut elsewhere = devnet.counterfactual_account(&four, 2).await;
    elsewhere.address.clone_from(&account.address);
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &erc6492_sign(anvil, &elsewhere, &four, &text).await).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE")
    );
    // A signature that merely ends in the magic bytes is refused, not a server error.
    let junk = format!("0x{}{}", "ab".repeat(40), "6492".repeat(16));
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &junk).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE")
    );

    // Once deployed, the same kind of wrapped signature is checked by the account itself (ERC-1271).
    devnet.deploy_account(&account).await;
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    let reply = sign_in(&router, &text, &erc6492_sign(anvil, &account, &four, &text).await).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.body);
    let text = siwe(&account.address, &nonce(&router).await).build().unwrap();
    assert_eq!(
        code(&sign_in(&router, &text, &erc6492_sign(anvil, &account, &five, &text).await).await),
        (StatusCode::UNAUTHORIZED, "INVALID_SIGNATURE"),
        "and still refuses another key"
    );
}
