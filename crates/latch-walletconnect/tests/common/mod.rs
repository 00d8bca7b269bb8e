//! Real parts for the integration tests: a `latch serve` process (the binary
//! `make build` / `cargo build -p latch-server` makes) on a free port with its
//! own data directory, and relay clients on the native platform.

#![allow(dead_code, unreachable_pub)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::rc::Rc;
use std::time::Duration;

use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
use latch_walletconnect::relay::{Relay, RelayMessage, RelayOptions};
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::{Child, Command};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The `latch` binary: `RELAY_LATCH_BIN` (as relay-conformance reads it) or target/debug/latch.
fn latch_binary() -> PathBuf {
    let path = std::env::var_os("RELAY_LATCH_BIN").map_or_else(|| root().join("target/debug/latch"), PathBuf::from);
    assert!(
        path.exists(),
        "{} is missing: build it first (`cargo build -p latch-server`, part of `make build`)",
        path.display()
    );
    path
}

/// A running `latch serve`, killed when dropped.
pub struct Latch {
    pub port: u16,
    data_dir: tempfile::TempDir,
    child: Option<Child>,
}

impl Latch {
    pub async fn start() -> Latch {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let mut latch = Latch {
            port,
            data_dir: tempfile::tempdir().unwrap(),
            child: None,
        };
        latch.spawn().await;
        latch
    }

    pub fn relay_url(&self) -> String {
        format!("ws://127.0.0.1:{}/relay", self.port)
    }

    async fn spawn(&mut self) {
        let mut child = Command::new(latch_binary())
            .args(["serve", "--port", &self.port.to_string()])
            .env("LATCH_DATA_DIR", self.data_dir.path())
            .env("LATCH_LOG", "warn")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("latch serve starts");
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        tokio::time::timeout(Duration::from_secs(30), async {
            while let Some(line) = lines.next_line().await.unwrap() {
                if line.contains("serving") {
                    return;
                }
            }
            panic!("latch exited before serving");
        })
        .await
        .expect("latch serving within 30 s");
        // Keep draining stdout so the server never blocks on a full pipe.
        tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
        self.child = Some(child);
    }

    /// SIGTERM (relay sockets get 1001) and wait for the exit.
    pub async fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            if let Some(pid) = child.id() {
                let _ = std::process::Command::new("kill")
                    .args(["-TERM", &pid.to_string()])
                    .status();
            }
            let _ = tokio::time::timeout(Duration::from_secs(10), child.wait()).await;
        }
    }

    /// Stops and starts again on the same port and database.
    pub async fn restart(&mut self) {
        self.stop().await;
        self.spawn().await;
    }
}

/// A relay client on `url` whose connection loop runs on the current `LocalSet`.
pub fn relay(url: &str, seed: u8) -> (Relay, futures_channel::mpsc::UnboundedReceiver<RelayMessage>) {
    let (relay, messages) = Relay::new(
        RelayOptions::new(url),
        [seed; 32],
        Rc::new(TungsteniteTransport),
        Rc::new(TokioClock),
    )
    .unwrap();
    let runner = relay.clone();
    tokio::task::spawn_local(async move { runner.run().await });
    (relay, messages)
}

/// The next item of `stream` within `secs` seconds.
pub async fn next<T>(stream: &mut futures_channel::mpsc::UnboundedReceiver<T>, secs: u64) -> T {
    use futures_util::StreamExt;
    tokio::time::timeout(Duration::from_secs(secs), stream.next())
        .await
        .expect("an item in time")
        .expect("stream open")
}
