//! WalletConnect, dapp side (latch_walletconnect): the Sign engine on the
//! browser's WebSocket, timers and IndexedDB. The class converts arguments
//! and results and forwards the engine's events to JS listeners; the protocol
//! lives in the crate.

use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use latch_walletconnect::io::{MemoryStorage, Storage};
use latch_walletconnect::json;
use latch_walletconnect::json::{FromValue, ToValue, Value};
use latch_walletconnect::relay::RelayOptions;
use latch_walletconnect::sign::{ConnectParams, Metadata, SignClient, SignEvent, SignOptions};
use latch_walletconnect::task::Receiver;
use latch_walletconnect::web::{BrowserClock, IndexedDbStorage, WebSocketTransport};
use wasm_bindgen::prelude::*;

use crate::listeners::Listeners;
use crate::{js_error, latch_error, to_promise};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** The dapp as wallets show it. */
export interface WalletConnectMetadata {
  name: string;
  description: string;
  url: string;
  icons?: string[];
}
export interface WalletConnectOptions {
  /** `ws://` or `wss://`, e.g. `wss://latch.example/relay`. */
  relayUrl: string;
  projectId?: string;
  metadata: WalletConnectMetadata;
  /** Where sessions and keys persist: IndexedDB `WALLET_CONNECT_V2_INDEXED_DB` (default), or memory only. */
  storage?: 'indexedDB' | 'memory';
  /** How long a relay request may wait, across reconnects (default 30 000). */
  requestTimeoutMs?: number;
}
/** A CAIP-25 namespace asked for (`chains` absent when the key is a chain, `eip155:1`). */
export interface ProposalNamespace {
  chains?: string[];
  methods: string[];
  events: string[];
}
/** A CAIP-25 namespace the wallet granted. */
export interface SessionNamespace {
  accounts: string[];
  chains?: string[];
  methods: string[];
  events: string[];
}
export interface WalletConnectConnectParams {
  requiredNamespaces?: Record<string, ProposalNamespace>;
  optionalNamespaces?: Record<string, ProposalNamespace>;
  sessionProperties?: Record<string, string>;
}
export interface WalletConnectSession {
  topic: string;
  pairingTopic: string;
  /** Unix seconds. */
  expiry: number;
  namespaces: Record<string, SessionNamespace>;
  requiredNamespaces: Record<string, ProposalNamespace>;
  optionalNamespaces: Record<string, ProposalNamespace>;
  /** The wallet. */
  peer: { publicKey: string; metadata: WalletConnectMetadata };
  selfPublicKey: string;
}
/** An outstanding proposal: show `uri` (QR code, deep link), await `approval`. */
export interface WalletConnectConnecting {
  uri: string;
  /** The proposal id. */
  id: number;
  /** The session once the wallet approves; rejects with the wallet's refusal or `Proposal expired`. */
  approval: Promise<WalletConnectSession>;
}
export interface WalletConnectRequest {
  topic: string;
  /** CAIP-2, e.g. `eip155:1`. */
  chainId: string;
  request: { method: string; params?: unknown };
  /** Seconds, 300 (default) to 604 800. */
  expiry?: number;
}
/** What each event's listener receives (the official client's shapes). */
export interface WalletConnectEvents {
  session_connect: { session: WalletConnectSession };
  session_event: { topic: string; params: { chainId: string; event: { name: string; data: unknown } } };
  session_update: { topic: string; params: { namespaces: Record<string, SessionNamespace> } };
  session_extend: { topic: string; params: { expiry: number } };
  session_ping: { topic: string };
  session_delete: { topic: string; params: { code: number; message: string } };
  session_expire: { topic: string };
  proposal_expire: { id: number };
  /** The relay refused the client (close 3000) or the connection loop ended with an error; nothing reconnects. */
  relay_error: { message: string; code: string };
}
"#;

enum StorageKind {
    IndexedDb,
    Memory,
}

pub(crate) struct Options {
    relay_url: String,
    pub(crate) project_id: Option<String>,
    metadata: Metadata,
    storage: Option<StorageKind>,
    request_timeout_ms: Option<u64>,
}

struct RequestBody {
    method: String,
    params: Value,
}

struct RequestArgs {
    topic: String,
    chain_id: String,
    request: RequestBody,
    expiry: Option<u64>,
}

struct TopicArgs {
    topic: String,
}

// Read by hand (latch_walletconnect::json), like the engine's types.
impl FromValue for StorageKind {
    fn from_value(value: &Value) -> Result<Self, String> {
        match value.as_str() {
            Some("indexedDB") => Ok(Self::IndexedDb),
            Some("memory") => Ok(Self::Memory),
            _ => Err(format!("unknown storage {value}, expected \"indexedDB\" or \"memory\"")),
        }
    }
}

latch_walletconnect::read_fields!(Options {
    relay_url: field("relayUrl"),
    project_id: optional("projectId"),
    metadata: field("metadata"),
    storage: optional("storage"),
    request_timeout_ms: optional("requestTimeoutMs"),
});

latch_walletconnect::read_fields!(RequestBody {
    method: field("method"),
    params: or_default("params"),
});

latch_walletconnect::read_fields!(RequestArgs {
    topic: field("topic"),
    chain_id: field("chainId"),
    request: field("request"),
    expiry: optional("expiry"),
});

latch_walletconnect::read_fields!(TopicArgs { topic: field("topic") });

// Values cross the boundary as JSON text (`JSON.stringify` / `JSON.parse`),
// read and written by the engine's own JSON code (latch_walletconnect::json):
// a serde backend (serde-wasm-bindgen) would add its code to the module.

/// `value` as JSON (`null` for what `JSON.stringify` cannot write).
pub(crate) fn json_of(value: &JsValue) -> Value {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|text| Value::parse(&text).ok())
        .unwrap_or(Value::Null)
}

/// Reads `value` as `T`; a wrong shape throws `Invalid {what}: …` naming the field.
pub(crate) fn read_value<T: FromValue>(what: &'static str, value: &Value) -> Result<T, JsValue> {
    T::from_value(value).map_err(|reason| js_error(latch_core::Error::InvalidInput { what, reason }))
}

/// Reads JS `value` as `T` (see [`read_value`]).
pub(crate) fn from_js<T: FromValue>(what: &'static str, value: &JsValue) -> Result<T, JsValue> {
    read_value(what, &json_of(value))
}

/// `value` as a plain JS value.
pub(crate) fn to_js<T: ToValue + ?Sized>(value: &T) -> Result<JsValue, JsValue> {
    js_sys::JSON::parse(&latch_walletconnect::to_json(value))
}

pub(crate) fn wc_error(err: latch_walletconnect::Error) -> JsValue {
    latch_error(&err.to_string(), err.code())
}

/// The event name and listener argument the official client uses for `event`.
pub(crate) fn event_to_js(event: SignEvent) -> (&'static str, Value) {
    match event {
        SignEvent::SessionConnected(session) => ("session_connect", json!({ "session": session })),
        SignEvent::SessionEvent {
            topic,
            chain_id,
            name,
            data,
        } => (
            "session_event",
            json!({ "topic": topic, "params": { "chainId": chain_id, "event": { "name": name, "data": data } } }),
        ),
        SignEvent::SessionUpdated { topic, namespaces } => (
            "session_update",
            json!({ "topic": topic, "params": { "namespaces": namespaces } }),
        ),
        SignEvent::SessionExtended { topic, expiry } => (
            "session_extend",
            json!({ "topic": topic, "params": { "expiry": expiry } }),
        ),
        SignEvent::SessionPing { topic } => ("session_ping", json!({ "topic": topic })),
        SignEvent::SessionDeleted { topic, reason } => ("session_delete", json!({ "topic": topic, "params": reason })),
        SignEvent::SessionExpired { topic } => ("session_expire", json!({ "topic": topic })),
        SignEvent::ProposalExpired { id } => ("proposal_expire", json!({ "id": id })),
    }
}

/// A promise of `future`'s value as JS (or its error as a `LatchError`).
pub(crate) fn promise<T: ToValue>(
    future: impl std::future::Future<Output = latch_walletconnect::Result<T>> + 'static,
) -> Promise {
    to_promise(async move { to_js(&future.await.map_err(wc_error)?) })
}

/// A Sign client on the browser's platform for `options`, its events, and its storage.
pub(crate) async fn sign_client(
    options: Options,
) -> Result<(SignClient, Receiver<SignEvent>, Rc<dyn Storage>), JsValue> {
    let storage: Rc<dyn Storage> = match options.storage.unwrap_or(StorageKind::IndexedDb) {
        StorageKind::IndexedDb => Rc::new(IndexedDbStorage::open().await.map_err(wc_error)?),
        StorageKind::Memory => Rc::new(MemoryStorage::default()),
    };
    let mut relay = RelayOptions::new(options.relay_url);
    relay.project_id = options.project_id;
    if let Some(ms) = options.request_timeout_ms {
        relay.request_timeout_ms = ms;
    }
    let sign_options = SignOptions {
        relay,
        metadata: options.metadata,
    };
    let (client, events) = SignClient::new(
        sign_options,
        Rc::new(WebSocketTransport),
        storage.clone(),
        Rc::new(BrowserClock),
    )
    .await
    .map_err(wc_error)?;
    Ok((client, events, storage))
}

/// The dapp side of WalletConnect Sign v2: pair with a wallet, send it
/// requests, hear its events. Restores persisted sessions on creation.
#[wasm_bindgen]
pub struct WalletConnectClient {
    client: SignClient,
    listeners: Listeners,
}

#[wasm_bindgen]
impl WalletConnectClient {
    /// A client connected to `relayUrl`, with the sessions persisted in its
    /// storage; throws for bad options or an unavailable IndexedDB.
    #[wasm_bindgen(unchecked_return_type = "Promise<WalletConnectClient>")]
    pub fn create(#[wasm_bindgen(unchecked_param_type = "WalletConnectOptions")] options: JsValue) -> Promise {
        to_promise(async move { Ok(Self::start(options).await?.into()) })
    }
}

impl WalletConnectClient {
    // create() returns a Promise by hand rather than being an `async fn`, so
    // that it shares the boxed promise machinery (see `to_promise`).
    async fn start(options: JsValue) -> Result<WalletConnectClient, JsValue> {
        let options: Options = from_js("WalletConnect options", &options)?;
        let (client, events, _) = sign_client(options).await?;
        let listeners = Listeners::default();
        let runner = client.clone();
        listeners.pump(async move { runner.run().await }, events, event_to_js);
        Ok(WalletConnectClient { client, listeners })
    }
}

#[wasm_bindgen]
impl WalletConnectClient {
    /// This client's relay identity (`did:key:z6Mk…`), stable across reloads.
    #[wasm_bindgen(getter, js_name = clientId)]
    pub fn client_id(&self) -> String {
        self.client.relay().client_id()
    }

    /// The settled sessions (restored ones included).
    #[wasm_bindgen(unchecked_return_type = "WalletConnectSession[]")]
    pub fn sessions(&self) -> Result<JsValue, JsValue> {
        to_js(&self.client.sessions())
    }

    /// Proposes a session over a new pairing; resolves once the proposal is
    /// published, with the URI to show and the approval to await.
    #[wasm_bindgen(unchecked_return_type = "Promise<WalletConnectConnecting>")]
    pub fn connect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "WalletConnectConnectParams")] params: JsValue,
    ) -> Result<Promise, JsValue> {
        let params: ConnectParams = from_js("connect params", &params)?;
        let client = self.client.clone();
        Ok(to_promise(async move {
            let connecting = client.connect(params).await.map_err(wc_error)?;
            let out = Object::new();
            Reflect::set(&out, &"uri".into(), &connecting.uri.to_string().into())?;
            Reflect::set(&out, &"id".into(), &(connecting.id as f64).into())?;
            Reflect::set(&out, &"approval".into(), &promise(connecting.approval).into())?;
            Ok(out.into())
        }))
    }

    /// Sends `request` to the wallet of session `topic` on `chainId`; resolves
    /// with the wallet's result, rejects with its error (`User rejected.`), a
    /// method or chain the session does not allow, or `Request expired. Please try again.`.
    #[wasm_bindgen(unchecked_return_type = "Promise<unknown>")]
    pub fn request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "WalletConnectRequest")] args: JsValue,
    ) -> Result<Promise, JsValue> {
        let args: RequestArgs = from_js("request", &args)?;
        let client = self.client.clone();
        Ok(promise(async move {
            client
                .request(
                    &args.topic,
                    &args.chain_id,
                    &args.request.method,
                    args.request.params,
                    args.expiry,
                )
                .await
        }))
    }

    /// Pings the wallet of session `topic`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn ping(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ topic: string }")] args: JsValue,
    ) -> Result<Promise, JsValue> {
        let TopicArgs { topic } = from_js("ping", &args)?;
        let client = self.client.clone();
        Ok(promise(async move { client.ping(&topic).await }))
    }

    /// Ends session `topic` (the wallet hears `6000 User disconnected.`) and forgets it.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn disconnect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ topic: string }")] args: JsValue,
    ) -> Result<Promise, JsValue> {
        let TopicArgs { topic } = from_js("disconnect", &args)?;
        let client = self.client.clone();
        Ok(promise(async move { client.disconnect(&topic).await }))
    }

    /// Calls `listener` with each `event` (see `WalletConnectEvents`).
    pub fn on(
        &self,
        #[wasm_bindgen(unchecked_param_type = "keyof WalletConnectEvents")] event: String,
        #[wasm_bindgen(unchecked_param_type = "(payload: never) => void")] listener: Function,
    ) {
        self.listeners.add(event, listener);
    }

    /// Stops calling `listener` for `event`.
    pub fn off(
        &self,
        #[wasm_bindgen(unchecked_param_type = "keyof WalletConnectEvents")] event: &str,
        #[wasm_bindgen(unchecked_param_type = "(payload: never) => void")] listener: &Function,
    ) {
        self.listeners.remove(event, listener);
    }

    /// Closes the relay connection; later calls reject with `Sign Client not initialized`.
    pub fn close(&self) {
        self.client.close();
    }
}

/// `free()` from JS: the engine's tasks hold their own handles, so stop them too.
impl Drop for WalletConnectClient {
    fn drop(&mut self) {
        self.client.close();
    }
}
