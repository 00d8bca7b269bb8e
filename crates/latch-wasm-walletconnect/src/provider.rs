//! `WalletConnectProvider`: the EIP-1193 provider of latch_walletconnect on
//! the browser's platform (WebSocket, IndexedDB, `fetch`). Like
//! `WalletConnectClient`, it only converts values and forwards events; the
//! behaviour lives in `latch_walletconnect::provider`.

use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use latch_walletconnect::json;
use latch_walletconnect::json::Value;
use latch_walletconnect::provider::{Provider, ProviderEvent, ProviderOptions};
use latch_walletconnect::sign::ConnectParams;
use latch_walletconnect::web::FetchHttp;
use wasm_bindgen::prelude::*;

use crate::client::{event_to_js, from_js, json_of, read_value, sign_client, to_js, wc_error, Options};
use crate::listeners::Listeners;
use crate::{spawn, to_promise};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
export interface WalletConnectProviderOptions extends WalletConnectOptions {
  /** CAIP-2 → HTTP JSON-RPC URL for methods the wallet does not serve. */
  rpcMap?: Record<string, string>;
  /** The Latch server (e.g. `http://127.0.0.1:8787`): chains without an rpcMap entry use its gateway. */
  gatewayUrl?: string;
}
/**
 * What each provider event's listener receives. Errors the provider throws are `LatchError`s
 * whose `message` is the documented text; a wallet's or RPC node's JSON-RPC error keeps its numeric
 * `code` (`4001`, `5000` user rejected, `-32000`…), the others have a `WC_…` string `code`.
 */
export interface WalletConnectProviderEvents {
  connect: { session: WalletConnectSession };
  /** Hex addresses, EIP-55. */
  accountsChanged: string[];
  /** Hex chain id, e.g. `'0x7a69'`. */
  chainChanged: string;
  disconnect: { code: number; message: string };
  session_event: WalletConnectEvents['session_event'];
  session_update: WalletConnectEvents['session_update'];
  session_extend: WalletConnectEvents['session_extend'];
  session_ping: WalletConnectEvents['session_ping'];
  session_delete: WalletConnectEvents['session_delete'];
  session_expire: WalletConnectEvents['session_expire'];
  proposal_expire: WalletConnectEvents['proposal_expire'];
  relay_error: WalletConnectEvents['relay_error'];
}
"#;

// What the provider adds to the client's options and connect params, read
// from the same object as those.
struct ProviderOptionsJs {
    rpc_map: latch_walletconnect::map::Map<String, String>,
    gateway_url: Option<String>,
}

struct ConnectArgs {
    default_chain: Option<String>,
}

struct RequestArgs {
    method: String,
    params: Value,
}

// Read by hand (latch_walletconnect::json), like the engine's types.
latch_walletconnect::read_fields!(ProviderOptionsJs {
    rpc_map: or_default("rpcMap"),
    gateway_url: optional("gatewayUrl"),
});

latch_walletconnect::read_fields!(ConnectArgs {
    default_chain: optional("defaultChain")
});

latch_walletconnect::read_fields!(RequestArgs {
    method: field("method"),
    params: or_default("params"),
});

/// A `LatchError`; a wallet's or RPC node's refusal keeps its numeric JSON-RPC `code`.
fn provider_error(err: latch_walletconnect::Error) -> JsValue {
    let error = wc_error(err.clone());
    if let Some(code) = err.rpc_code() {
        let _ = Reflect::set(&error, &"code".into(), &(code as f64).into());
    }
    error
}

fn provider_promise<T: latch_walletconnect::json::ToValue>(
    future: impl std::future::Future<Output = latch_walletconnect::Result<T>> + 'static,
) -> Promise {
    to_promise(async move { to_js(&future.await.map_err(provider_error)?) })
}

/// The event name and listener argument of `event`.
fn provider_event_to_js(event: ProviderEvent) -> (&'static str, Value) {
    match event {
        ProviderEvent::Connect(session) => ("connect", json!({ "session": session })),
        ProviderEvent::AccountsChanged(accounts) => ("accountsChanged", json!(accounts)),
        ProviderEvent::ChainChanged(chain) => ("chainChanged", json!(chain)),
        ProviderEvent::Disconnect(reason) => ("disconnect", json!(reason)),
        ProviderEvent::Sign(event) => event_to_js(event),
    }
}

/// An EIP-1193 provider over WalletConnect: connect to a wallet, then
/// `request()` as from any injected wallet. Restores a persisted session.
#[wasm_bindgen]
pub struct WalletConnectProvider {
    provider: Provider,
    listeners: Listeners,
}

#[wasm_bindgen]
impl WalletConnectProvider {
    /// Restores a persisted session (and its default chain) before resolving;
    /// throws for bad options or an unavailable IndexedDB.
    #[wasm_bindgen(unchecked_return_type = "Promise<WalletConnectProvider>")]
    pub fn create(#[wasm_bindgen(unchecked_param_type = "WalletConnectProviderOptions")] options: JsValue) -> Promise {
        to_promise(async move { Ok(Self::start(options).await?.into()) })
    }
}

impl WalletConnectProvider {
    // Not an `async fn` export, for the reason given at WalletConnectClient::start.
    async fn start(options: JsValue) -> Result<WalletConnectProvider, JsValue> {
        const WHAT: &str = "WalletConnect provider options";
        let options = json_of(&options);
        let client: Options = read_value(WHAT, &options)?;
        let extra: ProviderOptionsJs = read_value(WHAT, &options)?;
        let provider_options = ProviderOptions {
            rpc_map: extra.rpc_map,
            gateway_url: extra.gateway_url,
            project_id: client.project_id.clone(),
        };
        let (client, sign_events, storage) = sign_client(client).await?;
        let (provider, events) = Provider::new(client, sign_events, Rc::new(FetchHttp), storage, provider_options)
            .await
            .map_err(wc_error)?;
        let listeners = Listeners::default();
        let runner = provider.clone();
        listeners.pump(async move { runner.run().await }, events, provider_event_to_js);
        Ok(WalletConnectProvider { provider, listeners })
    }
}

#[wasm_bindgen]
impl WalletConnectProvider {
    /// The current session, if any.
    #[wasm_bindgen(getter, unchecked_return_type = "WalletConnectSession | undefined")]
    pub fn session(&self) -> Result<JsValue, JsValue> {
        match self.provider.session() {
            Some(session) => to_js(&session),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The default chain, CAIP-2 (`eip155:31337`), if connected.
    #[wasm_bindgen(getter, js_name = chainId)]
    pub fn chain_id(&self) -> Option<String> {
        self.provider.chain_id()
    }

    /// Cleans pending pairings, then proposes; `approval` resolves to the session (also emitted as `connect`).
    #[wasm_bindgen(unchecked_return_type = "Promise<WalletConnectConnecting>")]
    pub fn connect(
        &self,
        #[wasm_bindgen(unchecked_param_type = "WalletConnectConnectParams & { defaultChain?: string }")]
        params: JsValue,
    ) -> Result<Promise, JsValue> {
        let params = json_of(&params);
        let connect: ConnectParams = read_value("connect params", &params)?;
        let ConnectArgs { default_chain } = read_value("connect params", &params)?;
        let provider = self.provider.clone();
        Ok(to_promise(async move {
            let connecting = provider.connect(connect, default_chain).await.map_err(provider_error)?;
            let out = Object::new();
            Reflect::set(&out, &"uri".into(), &connecting.uri.to_string().into())?;
            Reflect::set(&out, &"id".into(), &(connecting.id as f64).into())?;
            Reflect::set(&out, &"approval".into(), &provider_promise(connecting.approval).into())?;
            Ok(out.into())
        }))
    }

    /// The default chain's accounts; rejects with `Please call connect() before enable()` when not connected.
    #[wasm_bindgen(unchecked_return_type = "Promise<string[]>")]
    pub fn enable(&self) -> Promise {
        let provider = self.provider.clone();
        provider_promise(async move { provider.enable().await })
    }

    /// EIP-1193. `chainId` (CAIP-2) overrides the default chain for this call.
    #[wasm_bindgen(unchecked_return_type = "Promise<unknown>")]
    pub fn request(
        &self,
        #[wasm_bindgen(unchecked_param_type = "{ method: string; params?: unknown }")] args: JsValue,
        #[wasm_bindgen(js_name = chainId)] chain_id: Option<String>,
    ) -> Result<Promise, JsValue> {
        let args: RequestArgs = from_js("request", &args)?;
        let provider = self.provider.clone();
        Ok(provider_promise(async move {
            provider.request(&args.method, args.params, chain_id.as_deref()).await
        }))
    }

    /// Makes `chainId` (CAIP-2) the default chain (emits `chainChanged` and `accountsChanged`);
    /// throws `Namespace '…' is not configured…` for a namespace nobody asked for.
    #[wasm_bindgen(js_name = setDefaultChain)]
    pub fn set_default_chain(&self, #[wasm_bindgen(js_name = chainId)] chain_id: String) -> Result<(), JsValue> {
        self.provider.check_namespace(&chain_id).map_err(provider_error)?;
        let provider = self.provider.clone();
        // Checked above; what is left (persisting) logs its own failure.
        spawn(async move {
            let _ = provider.set_default_chain(&chain_id).await;
        });
        Ok(())
    }

    /// Ends the session (the wallet hears `6000 User disconnected.`), clears what was stored, emits `disconnect`.
    #[wasm_bindgen(unchecked_return_type = "Promise<void>")]
    pub fn disconnect(&self) -> Promise {
        let provider = self.provider.clone();
        provider_promise(async move { provider.disconnect().await })
    }

    /// Calls `listener` with each `event` (see `WalletConnectProviderEvents`).
    pub fn on(
        &self,
        #[wasm_bindgen(unchecked_param_type = "keyof WalletConnectProviderEvents")] event: String,
        #[wasm_bindgen(unchecked_param_type = "(payload: never) => void")] listener: Function,
    ) {
        self.listeners.add(event, listener);
    }

    /// Stops calling `listener` for `event`.
    #[wasm_bindgen(js_name = removeListener)]
    pub fn remove_listener(
        &self,
        #[wasm_bindgen(unchecked_param_type = "keyof WalletConnectProviderEvents")] event: &str,
        #[wasm_bindgen(unchecked_param_type = "(payload: never) => void")] listener: &Function,
    ) {
        self.listeners.remove(event, listener);
    }

    /// Closes the relay connection; later calls reject with `Sign Client not initialized`.
    pub fn close(&self) {
        self.provider.close();
    }
}

/// `free()` from JS: the provider's tasks hold their own handles, so stop them too.
impl Drop for WalletConnectProvider {
    fn drop(&mut self) {
        self.provider.close();
    }
}
