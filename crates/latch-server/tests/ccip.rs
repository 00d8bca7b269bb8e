//! The CCIP-Read gateway (`/ccip`, EIP-3668's GET and POST forms): answers signed by the
//! configured key over latch-core's digest, for a registered name under the primary and the
//! legacy suffix; an unknown name's "no record" answer; bad requests in our JSON error body.
//! The resolver contract checking the same answers on a chain is devnet/ccip-check.js.

mod common;

use alloy_primitives::{hex, Address, U256};
use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::{call, dead_upstream, state_with};
use latch_core::ccip::{self, ResolverQuery};
use latch_server::app;
use latch_server::config::Secret;
use latch_server::store::NameRecord;
use serde_json::json;
use tower::ServiceExt;

/// Any key not the `--dev` one (which only `--dev` may use).
const KEY: [u8; 32] = [0x42; 32];
const RESOLVER: &str = "0x5FbDB2315678afecb367f032d93F642f64180aa3";
const OWNER: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const COIN_TYPE: i64 = 0x8000_0000 | 31337;
const AVATAR: &str = "https://example.test/alice.png";

async fn gateway() -> (axum::Router, tempfile::TempDir) {
    let (state, dir) = state_with(vec![dead_upstream()], |config| {
        config.ccip_signing_key = Some(Secret(hex::encode(KEY)));
        config.name_legacy_zone = Some("latch.eth".into());
    })
    .await;
    let record = NameRecord {
        name: "alice.latch.id".into(),
        attributes: json!({"avatar": AVATAR, "bio": "hi"}).to_string(),
        registered_at: 1,
        updated_at: 1,
        addresses: vec![(COIN_TYPE, OWNER.into(), 1)],
    };
    assert!(state.store.add_name(&record).await.unwrap());
    (app(state), dir)
}

/// Asks through GET (`/ccip/{sender}/{data}.json`) and POST; both answers must verify to the same
/// result, signed by the configured key for this resolver and request. Returns the result.
async fn resolve(router: &axum::Router, name: &str, query: ResolverQuery) -> Vec<u8> {
    let call_data = ccip::encode_resolve_request(name, &query).unwrap();
    let data = format!("0x{}", hex::encode(&call_data));
    let get = Request::get(format!("/ccip/{RESOLVER}/{data}.json"))
        .body(Body::empty())
        .unwrap();
    let post = Request::post("/ccip")
        .header("content-type", "application/json")
        .body(Body::from(json!({"sender": RESOLVER, "data": data}).to_string()))
        .unwrap();
    let resolver: Address = RESOLVER.parse().unwrap();
    let signer = ccip::signer_address(&KEY).unwrap();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let mut results = Vec::new();
    for request in [get, post] {
        let (status, body) = call(router, request).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let response = hex::decode(body["data"].as_str().unwrap()).unwrap();
        let (result, expires, recovered) = ccip::verify_response(resolver, &call_data, &response).unwrap();
        assert_eq!(recovered, signer, "{name} {query:?}");
        assert!(
            (now + 290..=now + 310).contains(&expires),
            "expires {expires} vs now {now}"
        );
        results.push(result);
    }
    assert_eq!(results[0], results[1], "GET and POST answer alike");
    results.remove(0)
}

fn address_word(address: &str) -> Vec<u8> {
    let mut word = vec![0u8; 12];
    word.extend_from_slice(address.parse::<Address>().unwrap().as_slice());
    word
}

/// `abi.encode(bytes)` / `abi.encode(string)` of `value`.
fn dynamic(value: &[u8]) -> Vec<u8> {
    let mut out = U256::from(32).to_be_bytes::<32>().to_vec();
    out.extend_from_slice(&U256::from(value.len()).to_be_bytes::<32>());
    out.extend_from_slice(value);
    out.resize(64 + value.len().div_ceil(32) * 32, 0);
    out
}

#[tokio::test]
async fn answers_a_registered_name_signed_under_both_suffixes() {
    let (router, _dir) = gateway().await;
    for name in ["alice.latch.id", "alice.latch.eth", "ALICE.latch.id"] {
        let name = name.to_ascii_lowercase();
        assert_eq!(
            resolve(&router, &name, ResolverQuery::Addr).await,
            address_word(OWNER),
            "{name}"
        );
        let owner = OWNER.parse::<Address>().unwrap();
        let coin = ResolverQuery::AddrCoin(U256::from(COIN_TYPE));
        assert_eq!(resolve(&router, &name, coin).await, dynamic(owner.as_slice()));
        let avatar = resolve(&router, &name, ResolverQuery::Text("avatar".into())).await;
        assert_eq!(avatar, dynamic(AVATAR.as_bytes()));
        assert_eq!(
            resolve(&router, &name, ResolverQuery::Text("bio".into())).await,
            dynamic(b"hi")
        );
    }
}

#[tokio::test]
async fn unknown_names_answer_the_resolvers_not_found() {
    let (router, _dir) = gateway().await;
    for name in ["nobody.latch.id", "alice.example.eth", "a.alice.latch.id"] {
        assert_eq!(
            resolve(&router, name, ResolverQuery::Addr).await,
            vec![0u8; 32],
            "{name}"
        );
        let coin = ResolverQuery::AddrCoin(U256::from(COIN_TYPE));
        assert_eq!(resolve(&router, name, coin).await, dynamic(&[]), "{name}");
        assert_eq!(
            resolve(&router, name, ResolverQuery::Text("avatar".into())).await,
            dynamic(b""),
            "{name}"
        );
    }
}

#[tokio::test]
async fn bad_requests_get_our_error_body() {
    let (router, _dir) = gateway().await;
    let good = format!(
        "0x{}",
        hex::encode(ccip::encode_resolve_request("alice.latch.id", &ResolverQuery::Addr).unwrap())
    );
    let cases = [
        (format!("/ccip/not-an-address/{good}.json"), "sender"),
        (format!("/ccip/{RESOLVER}/0xzz.json"), "data"),
        (format!("/ccip/{RESOLVER}/0x12345678.json"), "data"),
        (format!("/ccip/{RESOLVER}/{}.json", &good[..200]), "data"),
    ];
    for (uri, field) in cases {
        let (status, body) = call(&router, Request::get(&uri).body(Body::empty()).unwrap()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        assert_eq!(body["status"], "FAILED");
        assert_eq!(body["reasons"][0]["field"], field, "{uri}: {body}");
    }
    let post = |body: &str| {
        Request::post("/ccip")
            .header("content-type", "application/json")
            .body(Body::from(body.to_owned()))
            .unwrap()
    };
    let (status, body) = call(&router, post("{\"sender\":1}")).await;
    assert_eq!(
        (status, body["status"].as_str()),
        (StatusCode::UNPROCESSABLE_ENTITY, Some("FAILED")),
        "{body}"
    );
}

/// The gateway names no project, yet each answer costs a store read and a signature: the
/// client's per-IP budget applies, and a body is a lookup's few fields, not megabytes.
#[tokio::test]
async fn the_gateway_is_bounded_per_client_and_per_body() {
    let (state, _dir) = state_with(vec![dead_upstream()], |config| {
        config.ccip_signing_key = Some(Secret(hex::encode(KEY)));
        config.ip_rate_limit = latch_server::ratelimit::Limit {
            per_second: 0.001,
            burst: 2.0,
        };
    })
    .await;
    let router = app(state);
    let data = hex::encode(ccip::encode_resolve_request("alice.latch.id", &ResolverQuery::Addr).unwrap());
    let from = |ip: [u8; 4]| {
        let mut request = Request::get(format!("/ccip/{RESOLVER}/0x{data}.json"))
            .body(Body::empty())
            .unwrap();
        request
            .extensions_mut()
            .insert(axum::extract::ConnectInfo(std::net::SocketAddr::from((ip, 40000))));
        request
    };
    for _ in 0..2 {
        assert_eq!(call(&router, from([10, 0, 0, 1])).await.0, StatusCode::OK);
    }
    let (status, body) = call(&router, from([10, 0, 0, 1])).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::TOO_MANY_REQUESTS, Some("RATE_LIMITED")),
        "{body}"
    );
    assert_eq!(call(&router, from([10, 0, 0, 2])).await.0, StatusCode::OK);

    let huge = json!({"sender": RESOLVER, "data": format!("0x{}", "00".repeat(64 * 1024))});
    let post = Request::post("/ccip")
        .header("content-type", "application/json")
        .body(Body::from(huge.to_string()))
        .unwrap();
    let (status, body) = call(&router, post).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
}

#[tokio::test]
async fn without_a_key_the_gateway_says_it_is_not_configured() {
    let (state, _dir) = state_with(vec![dead_upstream()], |_| {}).await;
    let data = hex::encode(ccip::encode_resolve_request("alice.latch.id", &ResolverQuery::Addr).unwrap());
    let uri = format!("/ccip/{RESOLVER}/0x{data}.json");
    let (status, body) = call(&app(state), Request::get(&uri).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["reasons"][0]["description"]
        .as_str()
        .unwrap()
        .contains("ccip_signing_key"));
}

/// EIP-3668: a gateway answers any origin, so an ENS library on any page can resolve the zone
/// (the answers are public and signed); the rest of the API keeps its per-project allowlist.
#[tokio::test]
async fn any_origin_may_ask_the_gateway_and_no_other_route() {
    let (router, _dir) = gateway().await;
    let data = hex::encode(ccip::encode_resolve_request("alice.latch.id", &ResolverQuery::Addr).unwrap());
    let uri = format!("/ccip/{RESOLVER}/0x{data}.json");
    let preflight = Request::options("/ccip")
        .header("origin", "https://any.example")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(preflight).await.unwrap();
    assert_eq!(response.status(), StatusCode::NO_CONTENT);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    assert!(response.headers()["access-control-allow-methods"]
        .to_str()
        .unwrap()
        .contains("POST"));

    let get = Request::get(&uri)
        .header("origin", "https://any.example")
        .body(Body::empty())
        .unwrap();
    let response = router.clone().oneshot(get).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");

    // A project route still refuses an origin that is not on the project's allowlist.
    let other = Request::options("/v1/profile/suggestions/alice?projectId=demo")
        .header("origin", "https://any.example")
        .header("access-control-request-method", "GET")
        .body(Body::empty())
        .unwrap();
    let response = router.oneshot(other).await.unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    assert!(!response.headers().contains_key("access-control-allow-origin"));
}
