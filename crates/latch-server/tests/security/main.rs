//! `make test-security`: attacks on a real `latch`, served on a loopback
//! socket in this process (the same `server::serve` as `latch serve`), with
//! real HTTP and WebSocket clients, the anvil devnet and real SQLite (Postgres
//! where a case needs it). Each module takes one item of SECURITY.md: the
//! attack, the refusal with our JSON error body, and a normal client's traffic
//! alongside that must be unaffected.

#[path = "../common/mod.rs"]
mod common;
mod edge;
mod fetch;
mod gateway;
mod harness;
mod relay;
mod siwx;
