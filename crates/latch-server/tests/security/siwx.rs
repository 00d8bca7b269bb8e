//! Sign in with X bound to the app (SECURITY.md "Sign-in"): nonces only for the
//! project's own domains, sessions only from messages for this site, a served
//! chain and a fresh `Issued At`, bounded messages, sessions listed only to
//! their own account, `verify` bound to the host's domain, one session per
//! nonce under concurrency, a copied refresh token ending its session, and
//! expired rows pruned. Each attack against a real `latch` over HTTP, with a
//! normal sign-in alongside that must still work.

use latch_core::siwx::SiweMessage;
use latch_server::store::{SiwxNonce, SiwxSession};
use reqwest::header::{AUTHORIZATION, CACHE_CONTROL, ORIGIN as ORIGIN_HEADER};
use serde_json::{json, Value};

use crate::common::{personal_sign, rfc3339, Anvil};
use crate::harness::{client, ok_json, refused, Latch, ORIGIN, PROJECT};

/// The domain of [`ORIGIN`].
const DOMAIN: &str = "127.0.0.1:5173";
/// anvil's first two unlocked accounts.
const ALICE: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const BOB: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

async fn start() -> (Anvil, Latch) {
    let anvil = Anvil::start().await;
    let latch = Latch::start(vec![anvil.url.clone()], |_| {}).await;
    (anvil, latch)
}

fn url(latch: &Latch, path: &str) -> String {
    latch.url(&format!("{path}?projectId={PROJECT}"))
}

async fn nonce(latch: &Latch) -> String {
    let response = client()
        .post(url(latch, "/v1/siwx/nonce"))
        .header(ORIGIN_HEADER, ORIGIN)
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
    ok_json(response).await["nonce"].as_str().unwrap().to_owned()
}

fn message(address: &str, nonce: &str) -> SiweMessage {
    SiweMessage {
        scheme: None,
        domain: DOMAIN.into(),
        address: address.into(),
        statement: Some("Sign in to the app.".into()),
        uri: ORIGIN.into(),
        version: "1".into(),
        chain_id: 31337,
        nonce: nonce.into(),
        issued_at: rfc3339(latch_server::now_ms()),
        expiration_time: None,
        not_before: None,
        request_id: None,
        resources: None,
    }
}

async fn create(latch: &Latch, text: &str, signature: &str) -> reqwest::Response {
    client()
        .post(url(latch, "/v1/siwx/sessions"))
        .header(ORIGIN_HEADER, ORIGIN)
        .body(json!({"message": text, "signature": signature}).to_string())
        .send()
        .await
        .unwrap()
}

/// A normal sign-in of `address`: the answer's JSON.
async fn sign_in(anvil: &Anvil, latch: &Latch, address: &str) -> Value {
    let text = message(address, &nonce(latch).await).build().unwrap();
    let signature = personal_sign(anvil, address, &text).await;
    let response = create(latch, &text, &signature).await;
    assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
    ok_json(response).await
}

/// Signs `message` with `address` and tries to open a session with it.
async fn attempt(anvil: &Anvil, latch: &Latch, address: &str, message: &SiweMessage) -> reqwest::Response {
    let text = message.build().unwrap();
    create(latch, &text, &personal_sign(anvil, address, &text).await).await
}

#[tokio::test]
async fn no_nonce_for_a_foreign_domain() {
    let (anvil, latch) = start().await;
    let post = |origin: Option<&str>, body: Value| {
        let request = client().post(url(&latch, "/v1/siwx/nonce")).body(body.to_string());
        match origin {
            Some(origin) => request.header(ORIGIN_HEADER, origin),
            None => request,
        }
    };
    // Server-to-server, asking for another site's domain.
    let response = post(None, json!({"domain": "evil.example"})).send().await.unwrap();
    assert_eq!(response.headers()[CACHE_CONTROL], "no-store", "refusals too");
    refused(response, 403, "DOMAIN_NOT_ALLOWED").await;
    // From our page, naming another domain than the Origin's.
    let response = post(Some(ORIGIN), json!({"domain": "evil.example"}))
        .send()
        .await
        .unwrap();
    refused(response, 403, "DOMAIN_NOT_ALLOWED").await;
    // From another site's page.
    let response = post(Some("https://evil.example"), json!({})).send().await.unwrap();
    refused(response, 403, "ORIGIN_NOT_ALLOWED").await;
    // Our own domain, with or without the Origin, still gets nonces, and signs in.
    ok_json(post(None, json!({"domain": DOMAIN})).send().await.unwrap()).await;
    let session = sign_in(&anvil, &latch, ALICE).await;
    assert_eq!(session["session"]["domain"], DOMAIN);
}

#[tokio::test]
async fn another_sites_signature_opens_no_session() {
    let (anvil, latch) = start().await;
    // A signature collected on evil.example (its domain and URI), with a nonce from here.
    let mut foreign = message(ALICE, &nonce(&latch).await);
    foreign.domain = "evil.example".into();
    foreign.uri = "https://evil.example/login".into();
    refused(attempt(&anvil, &latch, ALICE, &foreign).await, 401, "WRONG_DOMAIN").await;
    // Our domain line, but the wallet was on evil.example's page (its URI).
    let mut foreign_uri = message(ALICE, &nonce(&latch).await);
    foreign_uri.uri = "https://evil.example/login".into();
    refused(attempt(&anvil, &latch, ALICE, &foreign_uri).await, 401, "WRONG_URI").await;
    // A normal sign-in right after.
    sign_in(&anvil, &latch, ALICE).await;
}

#[tokio::test]
async fn unserved_chains_stale_messages_and_oversized_messages_are_refused() {
    let (anvil, latch) = start().await;
    let mut mainnet = message(ALICE, &nonce(&latch).await);
    mainnet.chain_id = 1;
    refused(attempt(&anvil, &latch, ALICE, &mainnet).await, 400, "UNSUPPORTED_CHAIN").await;

    let hour = 60 * 60 * 1000;
    for issued_at in [latch_server::now_ms() - hour, latch_server::now_ms() + hour] {
        let mut stale = message(ALICE, &nonce(&latch).await);
        stale.issued_at = rfc3339(issued_at);
        let body = refused(
            attempt(&anvil, &latch, ALICE, &stale).await,
            401,
            "ISSUED_AT_OUT_OF_WINDOW",
        )
        .await;
        assert!(body.to_string().contains("check the clock"), "{body}");
    }

    // 5 KiB of resources: over the 4 KiB cap, refused before any parsing or signature work.
    let mut large = message(ALICE, &nonce(&latch).await);
    large.resources = Some((0..100).map(|i| format!("https://{DOMAIN}/resource/{i:040}")).collect());
    let text = large.build().unwrap();
    assert!(text.len() > 5 * 1024);
    refused(create(&latch, &text, "0x00").await, 413, "MESSAGE_TOO_LARGE").await;

    sign_in(&anvil, &latch, ALICE).await;
}

#[tokio::test]
async fn sessions_are_listed_only_to_their_own_account() {
    let (anvil, latch) = start().await;
    let alice = sign_in(&anvil, &latch, ALICE).await;
    let bob = sign_in(&anvil, &latch, BOB).await;
    let list = |token: Option<&str>| {
        let request = client().get(format!(
            "{}&account=eip155:31337:{}",
            url(&latch, "/v1/siwx/sessions"),
            ALICE.to_lowercase()
        ));
        match token {
            Some(token) => request.header(AUTHORIZATION, format!("Bearer {token}")),
            None => request,
        }
    };
    refused(list(None).send().await.unwrap(), 401, "SESSION_INVALID").await;
    refused(list(Some("0123abcd")).send().await.unwrap(), 401, "SESSION_INVALID").await;
    let bobs = bob["accessToken"].as_str().unwrap();
    refused(list(Some(bobs)).send().await.unwrap(), 403, "WRONG_ACCOUNT").await;

    let response = list(Some(alice["accessToken"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(response.headers()[CACHE_CONTROL], "no-store");
    let listed = ok_json(response).await;
    let sessions = listed["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{listed}");
    let summary = sessions[0].as_object().unwrap();
    let mut keys: Vec<_> = summary.keys().map(String::as_str).collect();
    keys.sort_unstable();
    assert_eq!(
        keys,
        ["account", "chainId", "createdAt", "domain", "expiresAt", "id"],
        "summaries: no message, signature or token hash"
    );
    for answer in [&alice, &bob] {
        let text = answer.to_string();
        assert!(!text.contains("tokenHash") && !text.contains("refreshHash") && !text.contains("accessHash"));
    }
}

#[tokio::test]
async fn verify_refuses_another_domain() {
    let (anvil, latch) = start().await;
    let alice = sign_in(&anvil, &latch, ALICE).await;
    let token = alice["accessToken"].as_str().unwrap();
    let verify = |body: Value| {
        client()
            .post(url(&latch, "/v1/siwx/verify"))
            .body(body.to_string())
            .send()
    };
    let response = verify(json!({"token": token, "domain": "evil.example"})).await.unwrap();
    refused(response, 401, "WRONG_DOMAIN").await;
    let verified = ok_json(verify(json!({"token": token, "domain": DOMAIN})).await.unwrap()).await;
    assert_eq!(verified["domain"], DOMAIN);
    assert_eq!(verified["session"]["account"], format!("eip155:31337:{ALICE}"));
    assert!(verified["session"].get("signature").is_none());
    let unbound = ok_json(verify(json!({"token": token})).await.unwrap()).await;
    assert_eq!(unbound["domain"], DOMAIN, "the host is told the domain to compare");
}

#[tokio::test]
async fn one_nonce_opens_one_session_under_concurrency() {
    let (anvil, latch) = start().await;
    let text = message(ALICE, &nonce(&latch).await).build().unwrap();
    let signature = personal_sign(&anvil, ALICE, &text).await;
    let attempts: Vec<_> = (0..12).map(|_| create(&latch, &text, &signature)).collect();
    let (normal, answers) = tokio::join!(sign_in(&anvil, &latch, BOB), futures_util::future::join_all(attempts));
    assert_eq!(normal["session"]["account"], format!("eip155:31337:{BOB}"));
    let mut opened = 0;
    for response in answers {
        if response.status() == 200 {
            opened += 1;
        } else {
            refused(response, 401, "NONCE_UNKNOWN").await;
        }
    }
    assert_eq!(opened, 1, "exactly one session from one nonce");
}

#[tokio::test]
async fn a_copied_refresh_token_ends_the_session() {
    let (anvil, latch) = start().await;
    let alice = sign_in(&anvil, &latch, ALICE).await;
    let refresh = |token: &str| {
        client()
            .post(url(&latch, "/v1/siwx/refresh"))
            .body(json!({"refreshToken": token}).to_string())
            .send()
    };
    let stolen = alice["refreshToken"].as_str().unwrap();
    let rotated = ok_json(refresh(stolen).await.unwrap()).await;
    let fresh_access = rotated["accessToken"].as_str().unwrap();
    // The copy is presented again: refused, and the whole session ends.
    refused(refresh(stolen).await.unwrap(), 401, "REFRESH_REUSED").await;
    let verify = client()
        .post(url(&latch, "/v1/siwx/verify"))
        .body(json!({"token": fresh_access}).to_string())
        .send()
        .await
        .unwrap();
    refused(verify, 401, "SESSION_INVALID").await;
    refused(
        refresh(rotated["refreshToken"].as_str().unwrap()).await.unwrap(),
        401,
        "REFRESH_INVALID",
    )
    .await;
    // Someone else's session is untouched, and new sign-ins work.
    sign_in(&anvil, &latch, BOB).await;
}

#[tokio::test]
async fn expired_nonces_and_sessions_are_pruned() {
    let (anvil, latch) = start().await;
    let store = latch.state.store.clone();
    let now = latch_server::now_ms();
    let grace_ms = i64::try_from(latch.state.config.siwx.prune_grace_secs * 1000).unwrap();
    let expired_nonce = SiwxNonce {
        nonce: "expired0123456789".into(),
        project_id: PROJECT.into(),
        domain: DOMAIN.into(),
        expires_at: now - 1,
    };
    store.siwx_add_nonce(&expired_nonce).await.unwrap();
    let old = |id: &str, expires_at: i64, revoked_at: Option<i64>| SiwxSession {
        id: id.into(),
        token_hash: format!("token-{id}"),
        access_hash: format!("access-{id}"),
        access_expires_at: 0,
        refresh_hash: format!("refresh-{id}"),
        project_id: PROJECT.into(),
        account: format!("eip155:31337:{ALICE}"),
        chain_id: "eip155:31337".into(),
        domain: DOMAIN.into(),
        message: "m".into(),
        signature: "s".into(),
        created_at: 0,
        expires_at,
        revoked_at,
    };
    store
        .siwx_add_session(&old("expired", now - grace_ms - 1, None))
        .await
        .unwrap();
    store.siwx_add_session(&old("recent", now - 1, None)).await.unwrap();
    let live = sign_in(&anvil, &latch, ALICE).await;
    let live_id = live["session"]["id"].as_str().unwrap();
    let live_nonce = nonce(&latch).await;

    latch_server::siwx::prune(store.as_ref(), &latch.state.config.siwx, latch_server::now_ms())
        .await
        .unwrap();
    assert!(store
        .siwx_take_nonce(PROJECT, &expired_nonce.nonce)
        .await
        .unwrap()
        .is_none());
    assert!(
        store.siwx_session(PROJECT, "expired").await.unwrap().is_none(),
        "past the grace"
    );
    assert!(
        store.siwx_session(PROJECT, "recent").await.unwrap().is_some(),
        "within the grace"
    );
    assert!(store.siwx_session(PROJECT, live_id).await.unwrap().is_some());
    // The live nonce is still good: a normal sign-in with it works.
    let text = message(ALICE, &live_nonce).build().unwrap();
    ok_json(create(&latch, &text, &personal_sign(&anvil, ALICE, &text).await).await).await;
}

#[tokio::test]
async fn one_nonce_opens_one_session_across_two_nodes() {
    // Two nodes sharing Postgres: a nonce is taken once in the shared store, so a signed
    // message raced to both opens one session.
    let Some(database) = crate::harness::fresh_postgres("security_siwx_nodes").await else {
        return;
    };
    let anvil = Anvil::start().await;
    let shared =
        |c: &mut latch_server::config::Config| c.database_url = Some(latch_server::config::Secret(database.clone()));
    let node_a = Latch::start(vec![anvil.url.clone()], shared).await;
    let node_b = Latch::start(vec![anvil.url.clone()], shared).await;
    let text = message(ALICE, &nonce(&node_a).await).build().unwrap();
    let signature = personal_sign(&anvil, ALICE, &text).await;
    let attempts: Vec<_> = (0..12)
        .map(|n| create(if n % 2 == 0 { &node_a } else { &node_b }, &text, &signature))
        .collect();
    let mut opened = 0;
    for response in futures_util::future::join_all(attempts).await {
        if response.status() == 200 {
            opened += 1;
        } else {
            refused(response, 401, "NONCE_UNKNOWN").await;
        }
    }
    assert_eq!(opened, 1, "exactly one session from one nonce, whichever node");
    // Both nodes keep signing people in.
    sign_in(&anvil, &node_b, BOB).await;
    sign_in(&anvil, &node_a, BOB).await;
}
