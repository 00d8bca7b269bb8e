//! The browser platform (feature `web`): a `WebSocket` transport, a clock on
//! `Date.now()` and `setTimeout`, HTTP through `fetch`, and IndexedDB storage under the names the
//! official JS client uses (database `WALLET_CONNECT_V2_INDEXED_DB`, version 1,
//! store `keyvaluestorage`, values JSON text), so a browser profile looks the
//! same whichever client wrote it.
//!
//! Everything is reached through the global object, so it also runs in
//! workers and in Node where those globals exist.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{
    CloseEvent, IdbDatabase, IdbFactory, IdbOpenDbRequest, IdbRequest, IdbTransactionMode, MessageEvent, WebSocket,
};

use crate::io::{BodyKind, Clock, Http, Incoming, Socket, Storage, Transport};
use crate::task::{self, LocalBoxFuture};
use crate::{Error, Result};

/// The official client's IndexedDB database and store (behaviour 2.14).
pub const DB_NAME: &str = "WALLET_CONNECT_V2_INDEXED_DB";
/// The object store inside [`DB_NAME`].
pub const DB_STORE: &str = "keyvaluestorage";
/// The database version (the documented "version marker 1").
const DB_VERSION: u32 = 1;

#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The global `setTimeout` (window, worker or Node).
    #[wasm_bindgen(js_name = setTimeout)]
    fn set_timeout(handler: &Function, ms: f64) -> JsValue;

    /// The global `fetch` (window, worker or Node).
    #[wasm_bindgen(js_name = fetch)]
    fn fetch_with_init(input: &str, init: &web_sys::RequestInit) -> Promise;
}

/// A JS exception as text (its `message` when it is an `Error`).
fn js_text(value: &JsValue) -> String {
    match value.dyn_ref::<js_sys::Error>() {
        Some(error) => String::from(error.message()),
        None => value.as_string().unwrap_or_else(|| format!("{value:?}")),
    }
}

/// The browser's `WebSocket`. Its event handlers live as long as the
/// socket's writer task, which ends when the client drops its sender.
#[derive(Debug, Clone, Copy, Default)]
pub struct WebSocketTransport;

/// The handlers a socket needs while it is open; detached and dropped together.
struct Handlers {
    ws: WebSocket,
    _open: Closure<dyn FnMut()>,
    _error: Closure<dyn FnMut()>,
    _message: Closure<dyn FnMut(MessageEvent)>,
    _close: Closure<dyn FnMut(CloseEvent)>,
}

impl Handlers {
    fn detach(&self) {
        self.ws.set_onopen(None);
        self.ws.set_onerror(None);
        self.ws.set_onmessage(None);
        self.ws.set_onclose(None);
    }
}

impl Transport for WebSocketTransport {
    fn connect(&self, url: &str) -> LocalBoxFuture<'static, Result<Socket>> {
        let ws = WebSocket::new(url).map_err(|e| Error::Transport(js_text(&e)));
        Box::pin(async move {
            let ws = ws?;
            // Settled once: by `open`, or by an error or close before it.
            let (opened_tx, mut opened) = task::channel::<Result<()>>();
            let opened_tx = Rc::new(RefCell::new(Some(opened_tx)));
            let (received, incoming) = task::channel();

            let settle = opened_tx.clone();
            let open = Closure::<dyn FnMut()>::new(move || {
                if let Some(tx) = settle.borrow_mut().take() {
                    let _ = tx.send(Ok(()));
                }
            });
            let settle = opened_tx.clone();
            let error = Closure::<dyn FnMut()>::new(move || {
                // After `open` an error is always followed by `close`, which reports it.
                if let Some(tx) = settle.borrow_mut().take() {
                    let _ = tx.send(Err(Error::Transport("WebSocket error".into())));
                }
            });
            let texts = received.clone();
            let message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                // Binary frames are not part of the protocol.
                if let Some(text) = event.data().as_string() {
                    let _ = texts.send(Incoming::Text(text));
                }
            });
            let settle = opened_tx;
            let close = Closure::<dyn FnMut(CloseEvent)>::new(move |event: CloseEvent| {
                let (code, reason) = (event.code(), event.reason());
                match settle.borrow_mut().take() {
                    Some(tx) => {
                        let _ = tx.send(Err(Error::Transport(format!("closed before open ({code})"))));
                    }
                    None => {
                        let _ = received.send(Incoming::Closed { code, reason });
                    }
                }
            });
            ws.set_onopen(Some(open.as_ref().unchecked_ref()));
            ws.set_onerror(Some(error.as_ref().unchecked_ref()));
            ws.set_onmessage(Some(message.as_ref().unchecked_ref()));
            ws.set_onclose(Some(close.as_ref().unchecked_ref()));
            let handlers = Handlers {
                ws,
                _open: open,
                _error: error,
                _message: message,
                _close: close,
            };

            match opened.recv().await {
                Some(Ok(())) => {}
                Some(Err(error)) => {
                    handlers.detach();
                    return Err(error);
                }
                None => {
                    handlers.detach();
                    return Err(Error::Transport("WebSocket dropped".into()));
                }
            }
            let (outgoing, mut to_send) = task::channel::<String>();
            wasm_bindgen_futures::spawn_local(async move {
                while let Some(text) = to_send.recv().await {
                    if handlers.ws.send_with_str(&text).is_err() {
                        break;
                    }
                }
                // The client dropped its sender (or the socket broke): close
                // and let the handlers go; the reader has already had `Closed`
                // or no longer listens.
                let _ = handlers.ws.close();
                handlers.detach();
            });
            Ok(Socket { outgoing, incoming })
        })
    }
}

/// HTTP through the global `fetch`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FetchHttp;

impl Http for FetchHttp {
    fn post(&self, url: &str, body: String, kind: BodyKind) -> LocalBoxFuture<'static, Result<String>> {
        let init = web_sys::RequestInit::new();
        init.set_method("POST");
        init.set_body(&JsValue::from_str(&body));
        let content_type = match kind {
            BodyKind::Json => "application/json",
            BodyKind::PlainText => "text/plain",
        };
        let headers = js_sys::Object::new();
        let _ = Reflect::set(&headers, &"content-type".into(), &content_type.into());
        init.set_headers(&headers);
        let promise = fetch_with_init(url, &init);
        Box::pin(async move {
            let http_error = |e: JsValue| Error::Http(js_text(&e));
            let response: web_sys::Response = JsFuture::from(promise)
                .await
                .map_err(http_error)?
                .dyn_into()
                .map_err(|_| Error::Http("fetch did not give a Response".into()))?;
            if !response.ok() {
                return Err(Error::Http(format!("HTTP status code: {}", response.status())));
            }
            let text = JsFuture::from(response.text().map_err(http_error)?)
                .await
                .map_err(http_error)?;
            text.as_string()
                .ok_or_else(|| Error::Http("response body is not text".into()))
        })
    }
}

/// `Date.now()` and `setTimeout`.
#[derive(Debug, Clone, Copy, Default)]
pub struct BrowserClock;

impl Clock for BrowserClock {
    fn now_ms(&self) -> u64 {
        js_sys::Date::now() as u64
    }

    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()> {
        // setTimeout's delay is a signed 32-bit number of ms; longer waits fire at once.
        let ms = ms.min(i32::MAX as u64) as f64;
        let promise = Promise::new(&mut |resolve, _| {
            set_timeout(&resolve, ms);
        });
        Box::pin(async move {
            let _ = JsFuture::from(promise).await;
        })
    }
}

/// Key-value storage in IndexedDB (`WALLET_CONNECT_V2_INDEXED_DB` /
/// `keyvaluestorage`). Clones share the open database.
#[derive(Debug, Clone)]
pub struct IndexedDbStorage {
    db: IdbDatabase,
}

/// Resolves with `request`'s result once it succeeds.
async fn settled(request: &IdbRequest) -> Result<JsValue> {
    let promise = Promise::new(&mut |resolve, reject| {
        request.set_onsuccess(Some(&resolve));
        request.set_onerror(Some(&reject));
    });
    let outcome = JsFuture::from(promise).await;
    request.set_onsuccess(None);
    request.set_onerror(None);
    outcome.map_err(|_| {
        let why = request
            .error()
            .ok()
            .flatten()
            .map_or_else(|| "request failed".into(), |e| e.message());
        Error::Storage(why)
    })?;
    request.result().map_err(|e| Error::Storage(js_text(&e)))
}

impl IndexedDbStorage {
    /// Opens (creating on first use) the database and its store; fails where
    /// the platform has no IndexedDB (Node, some private modes).
    pub async fn open() -> Result<Self> {
        let factory = Reflect::get(&js_sys::global(), &JsValue::from_str("indexedDB"))
            .ok()
            .and_then(|f| f.dyn_into::<IdbFactory>().ok())
            .ok_or_else(|| Error::Storage("IndexedDB is not available".into()))?;
        let request: IdbOpenDbRequest = factory
            .open_with_u32(DB_NAME, DB_VERSION)
            .map_err(|e| Error::Storage(js_text(&e)))?;
        let upgrade_request = request.clone();
        let upgrade = Closure::<dyn FnMut()>::new(move || {
            if let Ok(db) = upgrade_request.result().and_then(|db| db.dyn_into::<IdbDatabase>()) {
                if !db.object_store_names().contains(DB_STORE) {
                    if let Err(e) = db.create_object_store(DB_STORE) {
                        tracing::warn!(error = %js_text(&e), "walletconnect: creating the IndexedDB store failed");
                    }
                }
            }
        });
        request.set_onupgradeneeded(Some(upgrade.as_ref().unchecked_ref()));
        let opened = settled(&request).await;
        request.set_onupgradeneeded(None);
        drop(upgrade);
        let db: IdbDatabase = opened?
            .dyn_into()
            .map_err(|_| Error::Storage("open did not give a database".into()))?;
        if !db.object_store_names().contains(DB_STORE) {
            return Err(Error::Storage(format!("{DB_NAME} has no store {DB_STORE}")));
        }
        Ok(IndexedDbStorage { db })
    }

    /// Runs `op` on the store in a transaction of `mode` and returns its
    /// request's result; writes resolve only once the transaction committed.
    /// (`op` is a trait object so that this future is compiled once, not once
    /// per operation.)
    async fn run(
        &self,
        mode: IdbTransactionMode,
        op: &dyn Fn(&web_sys::IdbObjectStore) -> std::result::Result<IdbRequest, JsValue>,
    ) -> Result<JsValue> {
        let storage_error = |e: JsValue| Error::Storage(js_text(&e));
        let tx = self
            .db
            .transaction_with_str_and_mode(DB_STORE, mode)
            .map_err(storage_error)?;
        let done = Promise::new(&mut |resolve, reject| {
            tx.set_oncomplete(Some(&resolve));
            tx.set_onerror(Some(&reject));
            tx.set_onabort(Some(&reject));
        });
        let request = op(&tx.object_store(DB_STORE).map_err(storage_error)?).map_err(storage_error)?;
        let result = settled(&request).await?;
        if mode == IdbTransactionMode::Readwrite {
            JsFuture::from(done)
                .await
                .map_err(|_| Error::Storage("transaction did not commit".into()))?;
        }
        Ok(result)
    }
}

impl Storage for IndexedDbStorage {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>>> {
        let (this, key) = (self.clone(), JsValue::from_str(key));
        Box::pin(async move {
            let value = this.run(IdbTransactionMode::Readonly, &|store| store.get(&key)).await?;
            // The official client stores JSON text too; anything else is not ours to read.
            Ok(value.as_string())
        })
    }

    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<()>> {
        let (this, key) = (self.clone(), JsValue::from_str(key));
        Box::pin(async move {
            this.run(IdbTransactionMode::Readwrite, &|store| {
                store.put_with_key(&JsValue::from_str(&value), &key)
            })
            .await
            .map(drop)
        })
    }

    fn remove(&self, key: &str) -> LocalBoxFuture<'static, Result<()>> {
        let (this, key) = (self.clone(), JsValue::from_str(key));
        Box::pin(async move {
            this.run(IdbTransactionMode::Readwrite, &|store| store.delete(&key))
                .await
                .map(drop)
        })
    }
}
