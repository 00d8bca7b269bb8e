//! Real parts for the integration tests: an anvil devnet process (installed
//! by `scripts/setup` from the `@foundry-rs/anvil` package) and a test state.

#![allow(dead_code, unreachable_pub)]

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;

use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use latch_server::config::{ChainConfig, Config};
use latch_server::store::Project;
use latch_server::AppState;
use tokio::process::{Child, Command};
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

/// A WebSocket client of the tests' servers.
pub type Client = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// The next text message on `client` as JSON (within 10 s).
pub async fn next_json(client: &mut Client) -> serde_json::Value {
    use futures_util::StreamExt;
    loop {
        let message = tokio::time::timeout(Duration::from_secs(10), client.next())
            .await
            .expect("a message within 10 s")
            .expect("the socket is open")
            .unwrap();
        if let tokio_tungstenite::tungstenite::Message::Text(text) = message {
            return serde_json::from_str(&text).unwrap();
        }
    }
}

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
    /// A JSON-RPC call to the node; its result (an error fails the test).
    pub async fn rpc(&self, method: &str, params: serde_json::Value) -> serde_json::Value {
        let reply: serde_json::Value = reqwest::Client::new()
            .post(&self.url)
            .json(&serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}))
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        assert!(reply.get("error").is_none(), "{method}: {reply}");
        reply["result"].clone()
    }

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

/// Sends a JSON-RPC request on a relay socket.
pub async fn relay_send(client: &mut Client, id: &str, method: &str, params: serde_json::Value) {
    use futures_util::SinkExt;
    let request = serde_json::json!({"id": id, "jsonrpc": "2.0", "method": method, "params": params});
    client
        .send(tokio_tungstenite::tungstenite::Message::text(request.to_string()))
        .await
        .unwrap();
}

/// [`relay_send`], then the next message: the answer, which must echo `id`.
pub async fn relay_call(client: &mut Client, id: &str, method: &str, params: serde_json::Value) -> serde_json::Value {
    relay_send(client, id, method, params).await;
    let answer = next_json(client).await;
    assert_eq!(answer["id"], serde_json::json!(id), "answers echo the id: {answer}");
    answer
}

/// The close frame the server ends `client` with (within 10 s): its code and reason.
pub async fn close_of(client: &mut Client) -> (CloseCode, String) {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    loop {
        match tokio::time::timeout(Duration::from_secs(10), client.next())
            .await
            .expect("closed within 10 s")
        {
            Some(Ok(Message::Close(Some(frame)))) => return (frame.code, frame.reason.to_string()),
            Some(Ok(_)) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

/// An address nothing listens on, for a dead upstream.
pub fn dead_upstream() -> String {
    format!("http://127.0.0.1:{}", free_port())
}

/// A fresh anvil with the fixture world deployed by `devnet/` itself.
pub struct Devnet {
    pub anvil: Anvil,
    /// The fixture file (`devnet_file` in the configuration).
    pub file: PathBuf,
    /// Its contents.
    pub fixture: serde_json::Value,
    _dir: tempfile::TempDir,
}

impl Devnet {
    pub async fn start() -> Devnet {
        Self::start_with(&[]).await
    }

    /// [`Devnet::start`] with more options of `devnet/index.js` (e.g. `--nft-base-uri`).
    pub async fn start_with(options: &[&str]) -> Devnet {
        let anvil = Anvil::start().await;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("addresses.json");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let status = Command::new("node")
            .arg(root.join("devnet/index.js"))
            .args(["--deploy-only", "--rpc", &anvil.url, "--out"])
            .arg(&file)
            .args(options)
            .stdout(Stdio::null())
            .status()
            .await
            .unwrap();
        assert!(status.success(), "deploying the fixture world failed");
        let fixture = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        Devnet {
            anvil,
            file,
            fixture,
            _dir: dir,
        }
    }

    /// Account `index`'s address.
    pub fn account(&self, index: usize) -> String {
        self.fixture["accounts"][index]["address"].as_str().unwrap().to_owned()
    }

    /// A fixture contract's address, by its path under `contracts` (`["usdc", "address"]`).
    pub fn contract(&self, path: &[&str]) -> &str {
        path.iter()
            .fold(&self.fixture["contracts"], |value, key| &value[*key])
            .as_str()
            .unwrap()
    }

    /// A [`state_with`] serving this devnet, its fixture file configured; `adjust` after that.
    pub async fn state_with(&self, adjust: impl FnOnce(&mut Config)) -> (AppState, tempfile::TempDir) {
        state_with(vec![self.anvil.url.clone()], |config| {
            config.devnet_file = Some(self.file.clone());
            adjust(config);
        })
        .await
    }

    /// [`Devnet::state_with`] as it is.
    pub async fn state(&self) -> (AppState, tempfile::TempDir) {
        self.state_with(|_| {}).await
    }

    /// An `eth_call` to `to` at the latest block; the bytes it returned.
    pub async fn eth_call(&self, to: Address, data: Vec<u8>) -> Vec<u8> {
        let result = self
            .rpc(
                "eth_call",
                serde_json::json!([{"to": to.to_string(), "data": alloy_primitives::hex::encode_prefixed(data)}, "latest"]),
            )
            .await;
        alloy_primitives::hex::decode(result.as_str().unwrap()).unwrap()
    }

    /// `owner`'s balance of the ERC-20 `token`, read from the token itself.
    pub async fn token_balance(&self, token: Address, owner: Address) -> U256 {
        let raw = self.eth_call(token, balanceOfCall { owner }.abi_encode()).await;
        balanceOfCall::abi_decode_returns(&raw).unwrap()
    }

    /// A JSON-RPC call to the node; its result (an error fails the test).
    pub async fn rpc(&self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.anvil.rpc(method, params).await
    }

    /// Sends a transaction from an unlocked account and waits until it is in a block; its hash.
    pub async fn send(&self, tx: serde_json::Value) -> String {
        let hash = self
            .rpc("eth_sendTransaction", serde_json::json!([tx]))
            .await
            .as_str()
            .unwrap()
            .to_owned();
        for _ in 0..200 {
            if !self
                .rpc("eth_getTransactionReceipt", serde_json::json!([hash]))
                .await
                .is_null()
            {
                return hash;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("{hash} was not mined");
    }
}

/// A devnet and the app serving it (its fixture file configured): what the tests that swap on
/// chain through the API drive.
pub struct DevnetApp {
    pub devnet: Devnet,
    pub router: axum::Router,
    _data: tempfile::TempDir,
}

impl DevnetApp {
    /// The devnet's own configuration.
    pub async fn start() -> DevnetApp {
        Self::start_with(|_, _| {}).await
    }

    /// A fresh devnet, and the app over it configured by `configure` (given the devnet).
    pub async fn start_with(configure: impl FnOnce(&Devnet, &mut Config)) -> DevnetApp {
        let devnet = Devnet::start().await;
        let (state, data) = devnet.state_with(|config| configure(&devnet, config)).await;
        DevnetApp {
            devnet,
            router: latch_server::app(state),
            _data: data,
        }
    }

    /// A fixture contract's address, by its path under `contracts` (`["usdc", "address"]`).
    pub fn contract(&self, path: &[&str]) -> Address {
        self.devnet.contract(path).parse().unwrap()
    }

    /// Sends the API's `tx` from its `from` (an unlocked anvil account); the receipt (status
    /// checked by the caller).
    pub async fn execute(&self, tx: &serde_json::Value) -> serde_json::Value {
        let hash = self
            .devnet
            .send(serde_json::json!({
                "from": tx["from"], "to": tx["to"], "data": tx["data"], "value": tx["value"], "gas": "0x7a120"
            }))
            .await;
        self.devnet
            .rpc("eth_getTransactionReceipt", serde_json::json!([hash]))
            .await
    }
}

/// The litesvm-backed Solana devnet (`scripts/solana-devnet`) on free ports, killed when dropped.
pub struct SolanaDevnet {
    pub url: String,
    /// Its fixture file (`.devnet/solana.json` format; `solana_devnet_file` in the configuration).
    pub file: PathBuf,
    /// The file's contents.
    pub fixture: serde_json::Value,
    pub child: Child,
    _dir: tempfile::TempDir,
}

impl SolanaDevnet {
    pub async fn start() -> SolanaDevnet {
        use tokio::io::AsyncBufReadExt;
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("solana.json");
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut child = Command::new(root.join("scripts/solana-devnet"))
            .args(["--port", "0", "--out"])
            .arg(&file)
            .stdout(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("starting scripts/solana-devnet failed ({e}); run npm ci"));
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        let mut reader = tokio::io::BufReader::new(stdout);
        tokio::time::timeout(Duration::from_secs(30), reader.read_line(&mut line))
            .await
            .unwrap()
            .unwrap();
        let mut words = line.split_whitespace();
        assert_eq!(
            (words.next(), words.next()),
            (Some("solana-devnet"), Some("ready")),
            "{line}"
        );
        let url = words.next().unwrap().to_owned();
        let fixture = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        SolanaDevnet {
            url,
            file,
            fixture,
            child,
            _dir: dir,
        }
    }
}

/// `personal_sign` by an unlocked anvil account: a real EIP-191 signature.
pub async fn personal_sign(anvil: &Anvil, signer: &str, message: &str) -> String {
    let params = serde_json::json!([format!("0x{}", hex::encode(message)), signer]);
    anvil
        .rpc("personal_sign", params)
        .await
        .as_str()
        .expect("a signature")
        .to_owned()
}

alloy_sol_types::sol! {
    function balanceOf(address owner) returns (uint256 balance);
    function getAddress(address owner, uint256 salt) returns (address account);
    function createAccount(address owner, uint256 salt) returns (address account);
}

/// A smart account of the fixture's CREATE2 factory that is not deployed yet.
pub struct CounterfactualAccount {
    /// Where `createAccount` will put it (EIP-55).
    pub address: String,
    /// The owner EOA whose signatures it accepts.
    pub owner: String,
    /// The factory.
    pub factory: alloy_primitives::Address,
    /// `createAccount(owner, salt)`, the call that deploys it.
    pub factory_calldata: Vec<u8>,
}

impl Devnet {
    /// Account `owner`'s smart account for `salt`, as the factory predicts it.
    pub async fn counterfactual_account(&self, owner: &str, salt: u64) -> CounterfactualAccount {
        use alloy_sol_types::SolCall;
        let factory: alloy_primitives::Address = self.fixture["contracts"]["accountFactory"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        let owner_address: alloy_primitives::Address = owner.parse().unwrap();
        let salt = alloy_primitives::U256::from(salt);
        let call = getAddressCall {
            owner: owner_address,
            salt,
        };
        let answer = self
            .rpc(
                "eth_call",
                serde_json::json!([{"to": factory.to_string(), "data": format!("0x{}", hex::encode(call.abi_encode()))}, "latest"]),
            )
            .await;
        let answer = hex::decode(answer.as_str().unwrap().trim_start_matches("0x")).unwrap();
        let address = getAddressCall::abi_decode_returns(&answer).unwrap().to_string();
        CounterfactualAccount {
            address,
            owner: owner.to_owned(),
            factory,
            factory_calldata: createAccountCall {
                owner: owner_address,
                salt,
            }
            .abi_encode(),
        }
    }

    /// Whether `address` holds contract code.
    pub async fn has_code(&self, address: &str) -> bool {
        self.rpc("eth_getCode", serde_json::json!([address, "latest"])).await != "0x"
    }

    /// Deploys `account` through its factory (a transaction from #0).
    pub async fn deploy_account(&self, account: &CounterfactualAccount) {
        let tx = serde_json::json!({
            "from": self.account(0),
            "to": account.factory.to_string(),
            "data": format!("0x{}", hex::encode(&account.factory_calldata)),
        });
        self.send(tx).await;
        assert!(
            self.has_code(&account.address).await,
            "{} was not deployed",
            account.address
        );
    }
}

/// `signer`'s `personal_sign` of `message`, wrapped in ERC-6492 with `account`'s factory call.
pub async fn erc6492_sign(anvil: &Anvil, account: &CounterfactualAccount, signer: &str, message: &str) -> String {
    let inner = personal_sign(anvil, signer, message).await;
    let wrapped = latch_server::signatures::Counterfactual {
        factory: account.factory,
        factory_calldata: account.factory_calldata.clone(),
        signature: hex::decode(inner.trim_start_matches("0x")).unwrap(),
    }
    .wrap();
    format!("0x{}", hex::encode(wrapped))
}

/// `unix_ms` as an RFC 3339 UTC date-time (`2026-01-01T00:00:00.000Z`), for sign-in messages made now.
pub fn rfc3339(unix_ms: i64) -> String {
    latch_core::siwx::unix_ms_rfc3339(unix_ms)
}

/// The Solana mainnet chain, served (with a dead upstream) so Solana sign-ins are for a served chain.
pub const SOLANA_MAINNET: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

/// Adds [`SOLANA_MAINNET`] to `config`'s chains.
pub fn serve_solana(config: &mut Config) {
    config.chains.push(ChainConfig {
        id: SOLANA_MAINNET.into(),
        upstreams: vec![dead_upstream()],
        ..ChainConfig::default()
    });
}

/// What `router` answered a request: [`answer`].
pub struct Reply {
    pub status: axum::http::StatusCode,
    pub headers: axum::http::HeaderMap,
    /// The body as JSON; null when it is not JSON.
    pub body: serde_json::Value,
    /// The body as text.
    pub text: String,
}

impl Reply {
    /// The header `name`'s value, when it is there.
    pub fn header(&self, name: axum::http::HeaderName) -> Option<String> {
        self.headers.get(name).map(|value| value.to_str().unwrap().to_owned())
    }
}

/// `request` through `router` in-process (`oneshot`): the whole answer.
pub async fn answer(router: &axum::Router, request: axum::http::Request<axum::body::Body>) -> Reply {
    use http_body_util::BodyExt;
    use tower::ServiceExt;
    let response = router.clone().oneshot(request).await.unwrap();
    let status = response.status();
    let headers = response.headers().clone();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        headers,
        body: serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    }
}

/// [`answer`]'s status and JSON body.
pub async fn call(
    router: &axum::Router,
    request: axum::http::Request<axum::body::Body>,
) -> (axum::http::StatusCode, serde_json::Value) {
    let reply = answer(router, request).await;
    (reply.status, reply.body)
}

/// `GET uri` through `router`.
pub async fn get(router: &axum::Router, uri: &str) -> (axum::http::StatusCode, serde_json::Value) {
    call(
        router,
        axum::http::Request::get(uri).body(axum::body::Body::empty()).unwrap(),
    )
    .await
}

/// `POST uri` with a JSON `body` through `router`.
pub async fn post(
    router: &axum::Router,
    uri: &str,
    body: serde_json::Value,
) -> (axum::http::StatusCode, serde_json::Value) {
    let request = axum::http::Request::post(uri)
        .header("content-type", "application/json")
        .body(axum::body::Body::from(body.to_string()))
        .unwrap();
    call(router, request).await
}
