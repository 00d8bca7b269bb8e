//! A real `latch` on a loopback port, and the checks every attack shares.

#![allow(dead_code, unreachable_pub)]

use std::net::SocketAddr;

use latch_server::config::Config;
use latch_server::AppState;
use serde_json::Value;

use crate::common;

/// The project every test server knows, allowing `http://127.0.0.1:*`.
pub const PROJECT: &str = "test";
/// An origin the project allows.
pub const ORIGIN: &str = "http://127.0.0.1:5173";

/// A `latch` serving on `127.0.0.1:<port>` until dropped.
pub struct Latch {
    /// Where it listens.
    pub addr: SocketAddr,
    /// Its services, for looking behind the API (stored rows, counters).
    pub state: AppState,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    _data: tempfile::TempDir,
}

impl Latch {
    /// A server over `upstreams` for `eip155:31337`, with `adjust` applied to its configuration.
    pub async fn start(upstreams: Vec<String>, adjust: impl FnOnce(&mut Config)) -> Latch {
        let (state, data) = common::state_with(upstreams, adjust).await;
        Self::serve(state, data).await
    }

    /// Serves an already built state (for servers sharing a backend).
    pub async fn serve(state: AppState, data: tempfile::TempDir) -> Latch {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let served = state.clone();
        tokio::spawn(async move {
            latch_server::server::serve(served, listener, async move {
                let _ = stopped.await;
            })
            .await
            .unwrap();
        });
        Latch {
            addr,
            state,
            stop: Some(stop),
            _data: data,
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// `ws://127.0.0.1:<port><path>`.
    pub fn ws_url(&self, path: &str) -> String {
        format!("ws://{}{path}", self.addr)
    }
}

impl Drop for Latch {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}

/// An HTTP client that keeps no cookies and follows no redirects.
pub fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .build()
        .unwrap()
}

/// Asserts that `response` is a refusal with `status` in our JSON error body
/// (`{"status":"FAILED","code":…,"reasons":[{field,description}]}`) with
/// `code`; answers the body.
pub async fn refused(response: reqwest::Response, status: u16, code: &str) -> Value {
    let got = response.status().as_u16();
    let text = response.text().await.unwrap();
    assert_eq!(got, status, "expected {status} {code}, got {got}: {text}");
    let body: Value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not our JSON error body: {text}"));
    assert_eq!(body["status"], "FAILED", "{body}");
    assert_eq!(body["code"], code, "{body}");
    let reason = &body["reasons"][0];
    assert!(
        reason["field"].is_string() && reason["description"].as_str().is_some_and(|d| !d.is_empty()),
        "{body}"
    );
    body
}

/// Asserts a 200 and answers the JSON body.
pub async fn ok_json(response: reqwest::Response) -> Value {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    assert_eq!(status, 200, "{text}");
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"))
}

#[path = "../../src/store/fresh_postgres.rs"]
mod fresh_postgres;
pub(crate) use fresh_postgres::fresh_postgres_database as fresh_postgres;
