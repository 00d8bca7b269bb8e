//! Real parts for the integration tests: an anvil devnet process (installed
//! by `scripts/setup` from the `@foundry-rs/anvil` package) and a test state.

#![allow(dead_code, unreachable_pub)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use latch_server::config::{ChainConfig, Config};
use latch_server::store::Project;
use latch_server::AppState;
use tokio::process::{Child, Command};

/// A running anvil, killed when dropped.
pub struct Anvil {
    pub url: String,
    pub child: Child,
}

fn anvil_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("ANVIL_PATH") {
        return path.into();
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let bundled = root.join("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
    if bundled.exists() {
        return bundled;
    }
    "anvil".into()
}

/// A loopback port nobody listens on right now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Anvil {
    pub async fn start() -> Anvil {
        let port = free_port();
        let binary = anvil_binary();
        let child = Command::new(&binary)
            .args(["--port", &port.to_string(), "--host", "127.0.0.1", "--silent"])
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "starting {} failed ({e}); run scripts/setup to install anvil",
                    binary.display()
                )
            });
        let url = format!("http://127.0.0.1:{port}");
        let client = reqwest::Client::new();
        for _ in 0..200 {
            let probe = client
                .post(&url)
                .json(&serde_json::json!({"jsonrpc":"2.0","id":1,"method":"eth_chainId"}))
                .send()
                .await;
            if probe.is_ok() {
                return Anvil { url, child };
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("anvil did not answer on {url}");
    }
}

/// A state on a fresh SQLite file serving eip155:31337 through `upstreams`,
/// with project `test` allowing `http://127.0.0.1:*`.
pub async fn state(upstreams: Vec<String>) -> (AppState, tempfile::TempDir) {
    state_with(upstreams, |_| {}).await
}

/// [`state`] with `adjust` applied to the configuration first.
pub async fn state_with(upstreams: Vec<String>, adjust: impl FnOnce(&mut Config)) -> (AppState, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let mut config = Config {
        data_dir: dir.path().to_owned(),
        chains: vec![ChainConfig {
            id: "eip155:31337".into(),
            upstreams,
            ..ChainConfig::default()
        }],
        upstream_timeout_ms: 2_000,
        ..Config::default()
    };
    adjust(&mut config);
    let state = AppState::new(config.validated().unwrap()).await.unwrap();
    let project = Project {
        id: "test".into(),
        allowed_origins: vec!["http://127.0.0.1:*".into()],
        created_at: 0,
        analytics_enabled: true,
    };
    state.store.put_project(&project).await.unwrap();
    (state, dir)
}

/// An address nothing listens on, for a dead upstream.
pub fn dead_upstream() -> String {
    format!("http://127.0.0.1:{}", free_port())
}
