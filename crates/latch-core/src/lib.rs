//! Every rule of Latch's behaviour (`docs/behaviour/`), implemented once.
//!
//! Architecture invariant: this crate is pure. It does no IO, reads no clock and
//! draws no randomness; callers pass such values in. That keeps every rule
//! deterministic, testable from a table, and buildable for `wasm32-unknown-unknown`
//! so the browser (through `latch-wasm`) and the server agree byte for byte.

pub mod address;
pub mod analytics;
pub mod base64;
pub mod caip;
pub mod catalogue;
pub mod ccip;
pub mod constants;
pub mod eip712;
pub mod embedded;
pub mod ens;
mod error;
pub mod evm_tx;
pub mod format;
pub mod history;
pub mod json;
pub mod link;
pub mod map;
pub mod network;
pub mod onramp;
pub mod origin;
pub mod policy;
pub mod relay_auth;
pub mod send;
pub mod siwx;
pub mod solana_transfer;
pub mod swap;
pub mod timing;
pub mod transport;
pub mod validate;

pub use error::{Error, Result};
