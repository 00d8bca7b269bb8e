//! Real parts for the integration tests: a `latch serve` process (the binary
//! `make build` / `cargo build -p latch-server` makes) on a free port with its
//! own data directory, and relay clients on the native platform.

#![allow(dead_code, unreachable_pub)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::rc::Rc;
use std::time::Duration;

use latch_walletconnect::json::Value;
use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
use latch_walletconnect::relay::{Relay, RelayMessage, RelayOptions};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

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
    /// `--dev` with this configuration file (chains), or a plain relay.
    config: Option<PathBuf>,
    child: Option<Child>,
}

impl Latch {
    pub async fn start() -> Latch {
        Self::start_with(None).await
    }

    /// `latch serve --dev` (which creates the `demo` project) serving `chains`
    /// (CAIP-2 → upstream URL) through its RPC gateway.
    pub async fn start_dev(chains: &[(&str, &str)]) -> Latch {
        let data_dir = tempfile::tempdir().unwrap();
        let config = data_dir.path().join("latch.toml");
        let tables: String = chains
            .iter()
            .map(|(id, url)| format!("[[chains]]\nid = \"{id}\"\nupstreams = [\"{url}\"]\n"))
            .collect();
        std::fs::write(&config, tables).unwrap();
        let mut latch = Self::start_with(Some((data_dir, config))).await;
        latch.spawn().await;
        latch
    }

    async fn start_with(dev: Option<(tempfile::TempDir, PathBuf)>) -> Latch {
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let (data_dir, config) = match dev {
            Some((dir, config)) => (dir, Some(config)),
            None => (tempfile::tempdir().unwrap(), None),
        };
        let mut latch = Latch {
            port,
            data_dir,
            config,
            child: None,
        };
        if latch.config.is_none() {
            latch.spawn().await;
        }
        latch
    }

    pub fn relay_url(&self) -> String {
        format!("ws://127.0.0.1:{}/relay", self.port)
    }

    pub fn http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    async fn spawn(&mut self) {
        let mut command = Command::new(latch_binary());
        command.args(["serve", "--port", &self.port.to_string()]);
        match &self.config {
            Some(config) => {
                command.arg("--dev").env("LATCH_CONFIG", config);
            }
            // A plain relay serves known projects only; these tests are about the protocol (the
            // server's security suite attacks project gating), so its clients name none.
            None => {
                command.env("LATCH_RELAY", "{require_project=false}");
            }
        }
        let mut child = command
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
pub fn relay(url: &str, seed: u8) -> (Relay, latch_walletconnect::task::Receiver<RelayMessage>) {
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
pub async fn next<T: 'static>(stream: &mut latch_walletconnect::task::Receiver<T>, secs: u64) -> T {
    tokio::time::timeout(Duration::from_secs(secs), stream.recv())
        .await
        .expect("an item in time")
        .expect("stream open")
}

/// A bare anvil (no contracts) with chain id `chain_id`, killed when dropped.
pub struct Anvil {
    pub url: String,
    _child: Child,
}

impl Anvil {
    pub async fn start(chain_id: u64) -> Anvil {
        // The binary the root `npm ci` installs (@foundry-rs/anvil), else PATH.
        let bundled = root().join("node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil");
        let binary = std::env::var_os("ANVIL_PATH")
            .map(PathBuf::from)
            .or_else(|| bundled.exists().then_some(bundled))
            .unwrap_or_else(|| "anvil".into());
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new(&binary)
            .args(["--port", &port.to_string(), "--host", "127.0.0.1", "--silent"])
            .args(["--chain-id", &chain_id.to_string()])
            .stdout(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("starting {} failed ({e}); run `npm ci`", binary.display()));
        let url = format!("http://127.0.0.1:{port}");
        for _ in 0..400 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Anvil { url, _child: child };
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        panic!("anvil did not listen on {url}");
    }

    /// A JSON-RPC call straight to the node (bypassing what is under test).
    pub async fn rpc(&self, method: &str, params: Value) -> Value {
        use latch_walletconnect::io::{BodyKind, Http};
        let body = latch_walletconnect::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let text = latch_walletconnect::native::ReqwestHttp::default()
            .post(&self.url, body.to_string(), BodyKind::Json)
            .await
            .unwrap();
        let reply = Value::parse(&text).unwrap();
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        reply["result"].clone()
    }
}

/// The official wallet client in a Node process.
pub struct Wallet {
    _child: Child,
    pub stdin: ChildStdin,
    lines: Lines<BufReader<ChildStdout>>,
}

impl Wallet {
    /// `rpc`: where it sends transactions (see wallet.mjs).
    pub async fn start(relay_url: &str, rpc: Option<&str>) -> Wallet {
        let sdk = root().join("node_modules/@walletconnect/sign-client/package.json");
        assert!(
            sdk.exists(),
            "{} is missing: run `npm ci` (scripts/setup does)",
            sdk.display()
        );
        let script = root().join("crates/latch-walletconnect/tests/wallet.mjs");
        let mut child = Command::new("node")
            .arg(script)
            .arg(relay_url)
            .args(rpc)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true)
            .spawn()
            .expect("node runs (installed by scripts/setup)");
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let mut wallet = Wallet {
            _child: child,
            stdin,
            lines,
        };
        wallet.expect("ready").await;
        wallet
    }

    /// The next line whose `event` is `name` (failing on a reported error).
    pub async fn expect(&mut self, name: &str) -> Value {
        tokio::time::timeout(Duration::from_secs(30), async {
            loop {
                let line = self.lines.next_line().await.unwrap().expect("the wallet is running");
                let Ok(event) = Value::parse(&line) else {
                    continue; // a library's own console output
                };
                assert_ne!(event["event"], "error", "wallet: {event}");
                if event["event"] == name {
                    return event;
                }
            }
        })
        .await
        .unwrap_or_else(|_| panic!("wallet: no {name} within 30 s"))
    }

    /// Runs a command and waits until the wallet reports it done.
    pub async fn run(&mut self, command: &str) {
        self.stdin.write_all(format!("{command}\n").as_bytes()).await.unwrap();
        let cmd = command.split(' ').next().unwrap();
        loop {
            let done = self.expect("done").await;
            if done["cmd"] == cmd {
                return;
            }
        }
    }
}
