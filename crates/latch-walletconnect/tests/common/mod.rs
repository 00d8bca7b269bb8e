//! Real parts for the integration tests: a `latch` server (latch-server's own `app`, built in
//! this test's cargo graph, so never a stale binary) on a free port with its own data
//! directory, and relay clients on the native platform.

#![allow(dead_code, unreachable_pub)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::rc::Rc;
use std::time::Duration;

use latch_server::config::{ChainConfig, Config};
use latch_server::AppState;
use latch_walletconnect::json::Value;
use latch_walletconnect::native::{TokioClock, TungsteniteTransport};
use latch_walletconnect::relay::{Relay, RelayMessage, RelayOptions};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};
use tokio::sync::oneshot;

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A running `latch serve`, stopped when dropped. It runs on a thread and runtime of its own, as
/// the real one runs in its own process: the tests' clients share a current-thread runtime, and a
/// server that had to wait for them would hide timing bugs.
pub struct Latch {
    pub port: u16,
    data_dir: tempfile::TempDir,
    /// `--dev` serving these chains (CAIP-2, upstream URL), or a plain relay.
    dev_chains: Option<Vec<(String, String)>>,
    server: Option<Server>,
}

/// One start of the server: how to stop it and how to know it stopped.
struct Server {
    stop: oneshot::Sender<()>,
    stopped: oneshot::Receiver<()>,
}

impl Latch {
    pub async fn start() -> Latch {
        Self::start_with(None).await
    }

    /// `latch serve --dev` (which creates the `demo` project) serving `chains`
    /// (CAIP-2 → upstream URL) through its RPC gateway.
    pub async fn start_dev(chains: &[(&str, &str)]) -> Latch {
        let chains = chains
            .iter()
            .map(|(id, url)| (id.to_string(), url.to_string()))
            .collect();
        Self::start_with(Some(chains)).await
    }

    async fn start_with(dev_chains: Option<Vec<(String, String)>>) -> Latch {
        let mut latch = Latch {
            port: 0,
            data_dir: tempfile::tempdir().unwrap(),
            dev_chains,
            server: None,
        };
        latch.spawn().await;
        latch
    }

    pub fn relay_url(&self) -> String {
        format!("ws://127.0.0.1:{}/relay", self.port)
    }

    pub fn http_url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The configuration `latch serve` would read from the environment and flags.
    fn config(&self) -> Config {
        let mut config = Config {
            data_dir: self.data_dir.path().to_owned(),
            port: self.port,
            ..Config::default()
        };
        match &self.dev_chains {
            Some(chains) => {
                config.dev = true;
                config.chains = chains
                    .iter()
                    .map(|(id, url)| ChainConfig {
                        id: id.clone(),
                        upstreams: vec![url.clone()],
                        ..ChainConfig::default()
                    })
                    .collect();
            }
            // A plain relay serves known projects only; these tests are about the protocol (the
            // server's security suite attacks project gating), so its clients name none.
            None => config.relay.require_project = Some(false),
        }
        config.validated().expect("a valid configuration")
    }

    /// Starts the server on `self.port` (a free one when 0) and waits until it listens.
    async fn spawn(&mut self) {
        let config = self.config();
        let dev = config.dev;
        let port = self.port;
        let (ready, listening) = oneshot::channel();
        let (stop, stop_requested) = oneshot::channel::<()>();
        let (done, stopped) = oneshot::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .unwrap();
            runtime.block_on(async move {
                let state = AppState::new(config).await.expect("latch opens its state");
                if dev {
                    latch_server::server::ensure_dev_project(&state).await.unwrap();
                }
                state.gateway.spawn_ranking();
                let listener = tokio::net::TcpListener::bind(("127.0.0.1", port))
                    .await
                    .expect("latch binds its port");
                let _ = ready.send(listener.local_addr().unwrap().port());
                let stop = async move {
                    let _ = stop_requested.await;
                };
                latch_server::server::serve(state, listener, stop).await.unwrap();
            });
            // Background tasks (pruning, ranking) end with the runtime, as with the process.
            drop(runtime);
            let _ = done.send(());
        });
        self.port = tokio::time::timeout(Duration::from_secs(30), listening)
            .await
            .expect("latch serving within 30 s")
            .expect("latch started (see the panic above)");
        self.server = Some(Server { stop, stopped });
    }

    /// Stops like SIGTERM does (relay sockets get 1001) and waits until it has.
    pub async fn stop(&mut self) {
        if let Some(server) = self.server.take() {
            let _ = server.stop.send(());
            let _ = tokio::time::timeout(Duration::from_secs(10), server.stopped).await;
        }
    }

    /// Stops and starts again on the same port and database.
    pub async fn restart(&mut self) {
        self.stop().await;
        self.spawn().await;
    }
}

impl Drop for Latch {
    fn drop(&mut self) {
        if let Some(server) = self.server.take() {
            let _ = server.stop.send(());
        }
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
