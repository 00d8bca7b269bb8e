//! Name registration against the real devnet: signatures made by anvil's own
//! `personal_sign` (an EOA), checked through ERC-1271 on the fixture's
//! smart wallet and through ERC-6492 for a smart account not deployed yet;
//! every refusal the API documents.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{call, erc6492_sign, get, personal_sign as sign, state_with, Devnet};
use latch_server::app;
use serde_json::{json, Value};

/// The devnet chain's ENSIP-11 coin type: 0x80000000 | 31337.
const COIN_TYPE: u32 = 0x8000_0000 | 31337;

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn message(name: &str, timestamp: i64, attributes: Value) -> String {
    json!({"name": name, "attributes": attributes, "timestamp": timestamp}).to_string()
}

async fn register(
    router: &axum::Router,
    message: &str,
    signature: &str,
    address: &str,
    coin_type: u32,
) -> (StatusCode, Value) {
    let body = json!({"message": message, "signature": signature, "coin_type": coin_type, "address": address});
    call(
        router,
        Request::post("/v1/profile/account?projectId=test")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

#[tokio::test]
async fn names_register_with_eoa_and_contract_signatures_and_resolve() {
    let devnet = Devnet::start().await;
    let (anvil, fixture) = (&devnet.anvil, &devnet.fixture);
    let (state, _data) = state_with(vec![anvil.url.clone()], |config| {
        config.name_legacy_zone = Some("latch.eth".into())
    })
    .await;
    let router = app(state);
    let one = fixture["accounts"][1]["address"].as_str().unwrap();
    let two = fixture["accounts"][2]["address"].as_str().unwrap();
    let wallet = fixture["contracts"]["smartWallet"]["address"].as_str().unwrap();
    // Read (and cached) before the name exists: registering must not leave this answer behind.
    let (status, identity) = get(&router, &format!("/v1/identity/{one}?projectId=test")).await;
    assert_eq!(
        (status, &identity["name"]),
        (StatusCode::OK, &Value::Null),
        "{identity}"
    );

    // An EOA registers alice.latch.id.
    let text = message("alice.latch.id", now(), json!({"bio": "hello"}));
    let signature = sign(anvil, one, &text).await;
    let (status, record) = register(&router, &text, &signature, one, COIN_TYPE).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["name"], "alice.latch.id");
    assert_eq!(record["attributes"], json!({"bio": "hello"}));
    assert_eq!(record["addresses"][COIN_TYPE.to_string()]["address"], one);

    // The same request again (a replay) is refused: the name is taken.
    let (status, body) = register(&router, &text, &signature, one, COIN_TYPE).await;
    assert_eq!(
        (status, body["reasons"][0]["description"].as_str()),
        (StatusCode::BAD_REQUEST, Some("alice.latch.id is already registered"))
    );

    // Resolution both ways, case-insensitively.
    let (status, found) = get(
        &router,
        "/v1/profile/account/Alice.latch.id?apiVersion=2&projectId=test",
    )
    .await;
    assert_eq!(
        (status, found["name"].as_str()),
        (StatusCode::OK, Some("alice.latch.id"))
    );
    let (_, reverse) = get(
        &router,
        &format!("/v1/profile/reverse/{}?apiVersion=2&projectId=test", one.to_lowercase()),
    )
    .await;
    assert_eq!(
        reverse
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["alice.latch.id"]
    );
    let (_, none) = get(&router, &format!("/v1/profile/reverse/{two}?projectId=test")).await;
    assert_eq!(none, json!([]));
    let (_, identity) = get(&router, &format!("/v1/identity/{one}?projectId=test")).await;
    assert_eq!(identity["name"], "alice.latch.id", "identity falls back to Latch names");
    // The legacy suffix (behaviour 7.10) finds the same record under its primary name.
    let (status, legacy) = get(&router, "/v1/profile/account/alice.latch.eth?projectId=test").await;
    assert_eq!(
        (status, legacy["name"].as_str()),
        (StatusCode::OK, Some("alice.latch.id")),
        "{legacy}"
    );
    // A name asked under the legacy suffix registers as the primary zone's, and is then taken
    // under both.
    let text = message("Robert.latch.eth", now(), json!({}));
    let (status, record) = register(&router, &text, &sign(anvil, two, &text).await, two, COIN_TYPE).await;
    assert_eq!(
        (status, record["name"].as_str()),
        (StatusCode::OK, Some("robert.latch.id")),
        "{record}"
    );
    let text = message("robert.latch.id", now(), json!({}));
    let (status, body) = register(&router, &text, &sign(anvil, one, &text).await, one, COIN_TYPE).await;
    assert_eq!(
        (status, body["reasons"][0]["description"].as_str()),
        (StatusCode::BAD_REQUEST, Some("robert.latch.id is already registered"))
    );
    let (status, _) = get(&router, "/v1/profile/account/nobody.latch.id?projectId=test").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Suggestions: the exact name first (taken), then four free variants.
    let (_, suggested) = get(&router, "/v1/profile/suggestions/alice?zone=latch.id&projectId=test").await;
    let list = suggested["suggestions"].as_array().unwrap();
    assert_eq!(list.len(), 5);
    assert_eq!(
        (list[0]["name"].as_str(), list[0]["registered"].as_bool()),
        (Some("alice.latch.id"), Some(true))
    );
    assert!(list[1..]
        .iter()
        .all(|s| s["registered"] == false && s["name"].as_str().unwrap().starts_with("alice")));

    // The fixture smart wallet registers with its owner's signature (ERC-1271)…
    let text = message("vault.latch.id", now(), json!({}));
    let (status, record) = register(&router, &text, &sign(anvil, one, &text).await, wallet, COIN_TYPE).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["addresses"][COIN_TYPE.to_string()]["address"], wallet);
    // …and not with anyone else's.
    let text = message("vault2.latch.id", now(), json!({}));
    let (status, body) = register(&router, &text, &sign(anvil, two, &text).await, wallet, COIN_TYPE).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("INVALID_SIGNATURE"))
    );

    // Every refusal, with its status.
    let fresh = |name: &str| message(name, now(), json!({}));
    let signed = |text: String| async {
        let s = sign(anvil, one, &text).await;
        (text, s)
    };
    let cases: Vec<(String, String, &str, u32, StatusCode, &str)> = vec![
        {
            let (t, s) = signed("not json".into()).await;
            (t, s, one, COIN_TYPE, StatusCode::UNPROCESSABLE_ENTITY, "body")
        },
        {
            let (t, s) = signed(fresh("abc.latch.id")).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "name")
        },
        {
            let (t, s) = signed(fresh("alice.eth")).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "name")
        },
        {
            let (t, s) = signed(fresh("bobby.latch.id")).await;
            (t, s, one, 60, StatusCode::BAD_REQUEST, "coin_type")
        },
        {
            let (t, s) = signed(message("stale.latch.id", now() - 60, json!({}))).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "message")
        },
        {
            let (t, s) = signed(message("biography.latch.id", now(), json!({"bio": "x".repeat(256)}))).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "message")
        },
        {
            let (t, s) = signed(message("website.latch.id", now(), json!({"website": "x"}))).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "message")
        },
        {
            let (t, s) = signed(message("avatar.latch.id", now(), json!({"avatar": "x".repeat(1025)}))).await;
            (t, s, one, COIN_TYPE, StatusCode::BAD_REQUEST, "message")
        },
        {
            // Signed by #2 for #1's address.
            let t = fresh("mallory.latch.id");
            let s = sign(anvil, two, &t).await;
            (t, s, one, COIN_TYPE, StatusCode::UNAUTHORIZED, "signature")
        },
        {
            let t = fresh("garbage.latch.id");
            (
                t,
                "0x1234".into(),
                one,
                COIN_TYPE,
                StatusCode::UNAUTHORIZED,
                "signature",
            )
        },
    ];
    for (text, signature, address, coin_type, status, field) in cases {
        let (got, body) = register(&router, &text, &signature, address, coin_type).await;
        assert_eq!(
            (got, body["reasons"][0]["field"].as_str()),
            (status, Some(field)),
            "{text}: {body}"
        );
    }
    // Nothing refused was stored.
    for name in ["mallory.latch.id", "stale.latch.id", "vault2.latch.id"] {
        let (status, _) = get(&router, &format!("/v1/profile/account/{name}?projectId=test")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{name}");
    }
}

#[tokio::test]
async fn a_counterfactual_account_registers_with_an_erc6492_signature() {
    let devnet = Devnet::start().await;
    let anvil = &devnet.anvil;
    let (state, _data) = state_with(vec![anvil.url.clone()], |_| {}).await;
    let router = app(state);
    let (four, five) = (devnet.account(4), devnet.account(5));
    let account = devnet.counterfactual_account(&four, 9).await;

    let text = message("future.latch.id", now(), json!({}));
    let signature = erc6492_sign(anvil, &account, &four, &text).await;
    let (status, record) = register(&router, &text, &signature, &account.address, COIN_TYPE).await;
    assert_eq!(status, StatusCode::OK, "{record}");
    assert_eq!(record["addresses"][COIN_TYPE.to_string()]["address"], account.address);
    assert!(!devnet.has_code(&account.address).await, "checking deployed nothing");

    let text = message("future2.latch.id", now(), json!({}));
    let signature = erc6492_sign(anvil, &account, &five, &text).await;
    let (status, body) = register(&router, &text, &signature, &account.address, COIN_TYPE).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("INVALID_SIGNATURE")),
        "another key's signature in the wrapper"
    );
}
