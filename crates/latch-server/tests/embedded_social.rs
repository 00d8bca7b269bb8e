//! Social login against a real OpenID Connect provider (npm `oidc-provider`,
//! started from `e2e/infra/oidc-provider.mjs`): the authorization URL `latch`
//! makes is followed through the provider's own login and consent forms, the
//! callback exchanges the code (PKCE, client secret) and checks the ID token,
//! and the frame's one-time login code opens a session.

mod common;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use latch_server::app;
use latch_server::config::Secret;
use latch_server::embedded::social::SocialProvider;
use serde_json::{json, Value};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

const VAULT: &str = "https://vault.example.com";
const CALLBACK: &str = "http://127.0.0.1:8787/v1/embedded/social/callback";

async fn start_provider(port: u16) -> Child {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    assert!(
        root.join("node_modules/oidc-provider").exists(),
        "npm oidc-provider is not installed: run scripts/setup (this test needs a real OpenID Connect provider)"
    );
    let mut child = Command::new("node")
        .arg(root.join("e2e/infra/oidc-provider.mjs"))
        .args([&port.to_string(), "latch-test", "latch-test-secret", CALLBACK])
        .current_dir(&root)
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .unwrap_or_else(|e| panic!("node could not start the OIDC provider ({e}): install Node.js >= 20"));
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let first = tokio::time::timeout(Duration::from_secs(15), lines.next_line())
        .await
        .expect("the provider listens within 15 s")
        .unwrap()
        .expect("the provider printed its address");
    assert!(first.contains("listening"), "{first}");
    // The provider prints notices on stdout too: keep reading, or its writes fail and it exits.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    child
}

/// The value of `name="…"` in a tag's text.
fn attribute(tag: &str, name: &str) -> Option<String> {
    let at = tag.find(&format!("{name}=\""))? + name.len() + 2;
    Some(tag[at..].split('"').next()?.to_owned())
}

/// A browser's part: follows the provider's redirects and submits its dev login and
/// consent forms (keeping its cookies), until it redirects to `latch`'s callback.
async fn log_in_at_provider(url: &str, login: &str) -> String {
    let http = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let base = url::Url::parse(url).unwrap();
    let mut cookies: BTreeMap<String, String> = BTreeMap::new();
    let mut next: (String, Option<Vec<(String, String)>>) = (url.to_owned(), None);
    for _ in 0..12 {
        let cookie = cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let request = match &next.1 {
            None => http.get(&next.0),
            Some(form) => http.post(&next.0).form(form),
        };
        let response = request.header(header::COOKIE, cookie).send().await.unwrap();
        for set in response.headers().get_all(header::SET_COOKIE) {
            let pair = set.to_str().unwrap().split(';').next().unwrap();
            let (name, value) = pair.split_once('=').unwrap();
            cookies.insert(name.to_owned(), value.to_owned());
        }
        if response.status().is_redirection() {
            let location = response.headers()[header::LOCATION].to_str().unwrap().to_owned();
            if location.starts_with(CALLBACK) {
                return location;
            }
            next = (base.join(&location).unwrap().to_string(), None);
            continue;
        }
        let status = response.status();
        let html = response.text().await.unwrap();
        assert_eq!(status, StatusCode::OK, "{html}");
        let form_at = html.find("<form").expect("a login or consent form");
        let form_tag = &html[form_at..form_at + html[form_at..].find('>').unwrap()];
        let action = attribute(form_tag, "action").unwrap();
        let mut fields = Vec::new();
        for input in html[form_at..].split("<input").skip(1) {
            let tag = &input[..input.find('>').unwrap_or(input.len())];
            let Some(name) = attribute(tag, "name") else { continue };
            let value = match name.as_str() {
                "login" => login.to_owned(),
                "password" => "any password".to_owned(),
                _ => attribute(tag, "value").unwrap_or_default(),
            };
            fields.push((name, value));
        }
        next = (base.join(&action).unwrap().to_string(), Some(fields));
    }
    panic!("the provider never redirected back to latch");
}

async fn send(router: &axum::Router, request: Request<Body>) -> (StatusCode, Option<String>, Value) {
    let reply = common::answer(router, request).await;
    (reply.status, reply.header(header::LOCATION), reply.body)
}

#[tokio::test]
async fn logs_in_through_a_real_openid_connect_provider() {
    let port = common::free_port();
    let _provider = start_provider(port).await;
    let (state, _dir) = common::state_with(vec![common::dead_upstream()], |config| {
        config.embedded.vault_origin = Some(VAULT.into());
        config.embedded.social = vec![SocialProvider {
            id: "local".into(),
            issuer: Some(format!("http://127.0.0.1:{port}")),
            authorization_endpoint: None,
            token_endpoint: None,
            userinfo_endpoint: None,
            client_id: "latch-test".into(),
            client_secret: Some(Secret("latch-test-secret".into())),
            scopes: vec!["openid".into(), "email".into(), "profile".into()],
            basic_auth: None,
        }];
    })
    .await;
    let router = app(state);
    let get = |uri: &str| {
        Request::get(uri)
            .header(header::ORIGIN, VAULT)
            .body(Body::empty())
            .unwrap()
    };

    let (status, _, body) = send(&router, get("/v1/embedded/social/nope/start?projectId=test")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::NOT_FOUND, Some("UNKNOWN_PROVIDER"))
    );

    let (status, _, body) = send(&router, get("/v1/embedded/social/local/start?projectId=test")).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let url = body["url"].as_str().unwrap();
    let parsed = url::Url::parse(url).unwrap();
    let query: BTreeMap<_, _> = parsed.query_pairs().into_owned().collect();
    assert_eq!(query["code_challenge_method"], "S256");
    assert_eq!(query["redirect_uri"], CALLBACK);
    assert!(query.contains_key("nonce") && query.contains_key("state"));

    let back = log_in_at_provider(url, "alice").await;
    let path = &back["http://127.0.0.1:8787".len()..];
    let (status, location, _) = send(&router, Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::SEE_OTHER);
    let location = location.unwrap();
    let fragment = location
        .strip_prefix(&format!("{VAULT}/social/callback#"))
        .unwrap_or_else(|| panic!("{location}"));
    assert!(!location.contains('?'), "nothing in the query: {location}");
    assert!(
        fragment.ends_with("&projectId=test"),
        "the callback page's project: {fragment}"
    );
    let login_code = fragment
        .split('&')
        .find_map(|p| p.strip_prefix("loginCode="))
        .unwrap()
        .to_owned();

    // The callback's state is single use.
    let (status, _, _) = send(&router, Request::get(path).body(Body::empty()).unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);

    let finish = |code: &str| {
        Request::post("/v1/embedded/social/finish?projectId=test")
            .header(header::ORIGIN, VAULT)
            .body(Body::from(json!({"loginCode": code}).to_string()))
            .unwrap()
    };
    let (status, _, body) = send(&router, finish(&login_code)).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["user"]["email"], "alice@example.com");
    assert_eq!(body["user"]["userName"], "alice");
    let token = body["token"].as_str().unwrap().to_owned();
    let (status, _, body) = send(&router, finish(&login_code)).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("LOGIN_CODE_INVALID"))
    );

    let user = Request::get("/v1/embedded/user?projectId=test")
        .header(header::ORIGIN, VAULT)
        .header(header::AUTHORIZATION, format!("Bearer {token}"))
        .body(Body::empty())
        .unwrap();
    let (status, _, body) = send(&router, user).await;
    assert_eq!(
        (status, body["email"].as_str()),
        (StatusCode::OK, Some("alice@example.com"))
    );
}
