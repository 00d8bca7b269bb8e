//! What the client needs from its platform, as traits: a WebSocket
//! ([`Transport`]), a clock and timers ([`Clock`]), key-value
//! persistence ([`Storage`]) and, for the provider's calls to RPC nodes,
//! HTTP ([`Http`]). Natively (feature `native`) tokio provides
//! them; in the browser `web-sys` does. Futures are not `Send`: the browser
//! has one thread, and native users run the client on a `LocalSet`.

use std::cell::RefCell;
use std::rc::Rc;

use crate::task::{LocalBoxFuture, Receiver, Sender};
use crate::Result;

/// What the socket hands up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Incoming {
    /// A text frame.
    Text(String),
    /// The socket closed (code 1006 when it dropped without a close frame). Nothing follows.
    Closed {
        /// The WebSocket close code.
        code: u16,
        /// The close reason.
        reason: String,
    },
}

/// An open socket: text frames go out through `outgoing` (dropping it closes
/// the socket) and come in through `incoming`.
#[derive(Debug)]
pub struct Socket {
    /// Frames to send.
    pub outgoing: Sender<String>,
    /// Frames received, ending with [`Incoming::Closed`].
    pub incoming: Receiver<Incoming>,
}

/// Opens WebSockets.
pub trait Transport {
    /// Connects to `url` (which carries the auth token in its query).
    fn connect(&self, url: &str) -> LocalBoxFuture<'static, Result<Socket>>;
}

/// Wall-clock time and timers.
pub trait Clock {
    /// Milliseconds since the Unix epoch.
    fn now_ms(&self) -> u64;
    /// Resolves after `ms` milliseconds.
    fn sleep(&self, ms: u64) -> LocalBoxFuture<'static, ()>;
}

/// Key-value persistence (IndexedDB `WALLET_CONNECT_V2_INDEXED_DB` /
/// `keyvaluestorage` in the browser). Values are JSON text.
pub trait Storage {
    /// The value under `key`.
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>>>;
    /// Stores `value` under `key`.
    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<()>>;
    /// Removes `key` (absent keys are fine).
    fn remove(&self, key: &str) -> LocalBoxFuture<'static, Result<()>>;
}

/// How a JSON-RPC body is labelled on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyKind {
    /// `application/json`: RPC nodes (rpcMap URLs).
    Json,
    /// `text/plain`: the Latch gateway reads JSON whatever the label, and a
    /// "simple" request spares the browser a CORS preflight.
    PlainText,
}

/// HTTP POST, for the provider's JSON-RPC calls that do not go to the wallet.
pub trait Http {
    /// POSTs `body` to `url` and returns the response body of a 2xx answer;
    /// other statuses are [`crate::Error::Http`] `HTTP status code: N`.
    fn post(&self, url: &str, body: String, kind: BodyKind) -> LocalBoxFuture<'static, Result<String>>;
}

/// Storage in memory: tests, and a fallback where nothing persists. Clones share the map.
#[derive(Debug, Clone, Default)]
pub struct MemoryStorage {
    map: Rc<RefCell<crate::map::Map<String, String>>>,
}

impl MemoryStorage {
    /// Every stored key, sorted.
    pub fn keys(&self) -> Vec<String> {
        self.map.borrow().keys().cloned().collect()
    }
}

impl Storage for MemoryStorage {
    fn get(&self, key: &str) -> LocalBoxFuture<'static, Result<Option<String>>> {
        let value = self.map.borrow().get(key).cloned();
        Box::pin(async move { Ok(value) })
    }

    fn set(&self, key: &str, value: String) -> LocalBoxFuture<'static, Result<()>> {
        self.map.borrow_mut().insert(key.to_owned(), value);
        Box::pin(async { Ok(()) })
    }

    fn remove(&self, key: &str) -> LocalBoxFuture<'static, Result<()>> {
        self.map.borrow_mut().remove(key);
        Box::pin(async { Ok(()) })
    }
}
