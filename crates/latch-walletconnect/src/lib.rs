//! The dapp side of WalletConnect Sign v2, in Rust, for the browser (through
//! wasm) and for native tests.
//!
//! - [`uri`]: `wc:` pairing URIs.
//! - [`crypto`]: X25519 + HKDF-SHA256 key agreement, topics, ChaCha20-Poly1305
//!   envelopes (type 0 and type 1).
//! - [`io`]: the platform traits (transport, clock, storage) and [`io::MemoryStorage`].
//! - [`json`]: JSON values, their reader and writer, typed reads and writes, all written by hand.
//! - [`map`]: [`map::Map`], the engine's one map type (a sorted vector).
//! - [`qr`]: QR codes for pairing links (byte mode, level M).
//! - [`relay`]: the relay client (JWT auth, `irn_*`, acks, reconnect and resubscribe).
//! - [`sign`]: the Sign engine, dapp side (propose, settle, request, events,
//!   update, extend, ping, delete, expirer, persistence).
//! - [`provider`]: an EIP-1193 provider over the engine (default chain,
//!   local answers, wallet or HTTP JSON-RPC routing, the documented messages).
//!
//! Architecture invariant: no IO of its own. Sockets, storage, clocks and
//! timers come in through traits, so the same engine runs under tokio in
//! tests and in the browser's event loop; the `native` feature adds the
//! tokio implementations, the `web` feature the browser's (WebSocket,
//! `setTimeout`, IndexedDB).

pub mod crypto;
mod error;
pub mod io;
#[cfg(feature = "native")]
pub mod native;
pub mod provider;
pub mod qr;
pub mod relay;
pub mod sign;
pub mod task;
pub mod uri;
#[cfg(feature = "web")]
pub mod web;

pub use error::{Error, Result};
// The JSON reader and map live in latch-core (one in the workspace; the wallet frame reads
// JSON through them too); the engine's paths (`crate::json`, `crate::map`) stay as they were.
pub use latch_core::json::{from_json, to_json};
pub use latch_core::{json, json_record, map, read_fields};
