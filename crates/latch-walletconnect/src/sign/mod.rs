//! The Sign engine, dapp side: propose a session over a new pairing, take the
//! wallet's settlement, send requests and take their answers, take events,
//! updates, extensions, pings and deletions, and expire what outlives its time.
//!
//! [`SignClient::run`] drives everything (relay connection, incoming
//! messages, the expirer); the host spawns it once. What the wallet does
//! arrives as [`SignEvent`]s on the receiver [`SignClient::new`] returns.
//!
//! - `wire`: the records the protocol carries, the app's events and options,
//!   each message's ttl and tag.
//! - `calls`: what the app asks (connect, request, ping, disconnect).
//! - `inbound`: what the wallet sends, decided without awaiting, then carried out.
//! - `expirer`: what outlives its time (sessions, proposals, requests).
//! - `persist`: what survives a reload, in the JS client's storage keys.

mod calls;
mod expirer;
mod inbound;
mod persist;
mod wire;

use std::cell::RefCell;
use std::rc::Rc;

pub use wire::{
    ConnectParams, Connecting, Metadata, Peer, ProposalNamespace, Reason, Session, SessionNamespace, SignEvent,
    SignOptions,
};

use latch_core::validate::ExpirerTarget;

use self::expirer::Expirer;
use crate::crypto::{random_bytes, KeyPair, SymKey};
use crate::io::{Clock, Storage, Transport};
use crate::json::Value;
use crate::map::Map;
use crate::relay::{Relay, RelayMessage};
use crate::task::{self, select, Either, Receiver, Sender};
use crate::{Error, Result};

/// Seconds.
const FIVE_MINUTES: u64 = 300;
const ONE_DAY: u64 = 86_400;
const SEVEN_DAYS: u64 = 7 * ONE_DAY;
/// The JS client's message when a request outlives its expiry.
pub const REQUEST_EXPIRED: &str = "Request expired. Please try again.";
/// The JS client's message when nobody approved a proposal in time.
pub const PROPOSAL_EXPIRED: &str = "Proposal expired";

struct Proposal {
    pairing_topic: String,
    key_pair: KeyPair,
    params: ConnectParams,
    done: Sender<Result<Session>>,
}

struct Waiting {
    topic: String,
    done: Sender<Result<Value>>,
}

#[derive(Default)]
struct State {
    /// Topic → key, for every pairing and session.
    keys: Map<String, SymKey>,
    proposals: Map<u64, Proposal>,
    /// Session topic → proposal id, between the proposal's answer and the settlement.
    settling: Map<String, u64>,
    sessions: Map<String, Session>,
    /// Our requests awaiting the peer's answer, by id.
    waiting: Map<u64, Waiting>,
    expirer: Expirer,
    last_id: u64,
    closed: bool,
}

struct Inner {
    relay: Relay,
    storage: Rc<dyn Storage>,
    clock: Rc<dyn Clock>,
    metadata: Metadata,
    /// The keychain's `client_ed25519_seed` entry, as stored: written back
    /// with the session keys, so persisting need not read the keychain again.
    client_seed: String,
    state: RefCell<State>,
    events: Sender<SignEvent>,
    messages: RefCell<Option<Receiver<RelayMessage>>>,
}

/// The dapp's Sign client; clones share it.
#[derive(Clone)]
pub struct SignClient {
    inner: Rc<Inner>,
}

impl std::fmt::Debug for SignClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SignClient").field("relay", &self.inner.relay).finish()
    }
}

impl SignClient {
    /// A client restored from `storage` (its relay identity, keys, sessions
    /// and expiries; a new identity when there is none), and its event receiver.
    pub async fn new(
        options: SignOptions,
        transport: Rc<dyn Transport>,
        storage: Rc<dyn Storage>,
        clock: Rc<dyn Clock>,
    ) -> Result<(Self, Receiver<SignEvent>)> {
        let restored = persist::restore(&*storage).await?;
        let (relay, messages) = Relay::new(options.relay, restored.seed, transport, clock.clone())?;
        let (events, received) = task::channel();
        let inner = Inner {
            relay,
            storage,
            clock,
            metadata: options.metadata,
            client_seed: restored.client_seed,
            state: RefCell::new(restored.state),
            events,
            messages: RefCell::new(Some(messages)),
        };
        Ok((SignClient { inner: Rc::new(inner) }, received))
    }

    /// The relay connection (its client id, connection state).
    pub fn relay(&self) -> &Relay {
        &self.inner.relay
    }

    /// The settled sessions.
    pub fn sessions(&self) -> Vec<Session> {
        self.inner.state.borrow().sessions.values().cloned().collect()
    }

    /// Runs the relay connection, the message handler and the expirer until
    /// [`SignClient::close`] (or the relay refuses the client). Spawn it once.
    pub async fn run(&self) -> Result<()> {
        let Some(mut messages) = self.inner.messages.borrow_mut().take() else {
            return Err(Error::Closed);
        };
        let relay = self.inner.relay.run();
        let this = self.clone();
        let handle = async move {
            // Restored sessions: listen again (the relay pushes what waited).
            let restored: Vec<String> = this.inner.state.borrow().sessions.keys().cloned().collect();
            for topic in restored {
                if let Err(error) = this.inner.relay.subscribe(&topic).await {
                    tracing::warn!(%error, "sign: resubscribing a restored session failed");
                }
            }
            while let Some(message) = messages.recv().await {
                if let Err(error) = this.on_message(message).await {
                    tracing::warn!(%error, "sign: message not handled");
                }
            }
        };
        match select(relay, task::join(handle, self.run_expirer())).await {
            Either::Left(result) => result,
            Either::Right(_) => Ok(()),
        }
    }

    /// Closes the relay connection; [`SignClient::run`] returns.
    pub fn close(&self) {
        self.inner.state.borrow_mut().closed = true;
        self.inner.relay.close();
    }

    /// A JSON-RPC id as the JS client makes them: ms × 1000 + 3 random digits, increasing.
    fn next_id(&self) -> Result<u64> {
        let random = u64::from(u16::from_le_bytes(random_bytes::<2>()?) % 1000);
        let mut state = self.inner.state.borrow_mut();
        let id = (self.inner.clock.now_ms() * 1000 + random).max(state.last_id.saturating_add(1));
        state.last_id = id;
        Ok(id)
    }

    fn now_secs(&self) -> u64 {
        self.inner.clock.now_ms() / 1000
    }

    fn emit(&self, event: SignEvent) {
        let _ = self.inner.events.send(event);
    }

    fn forget_proposal(&self, id: u64) -> Option<Proposal> {
        let mut state = self.inner.state.borrow_mut();
        state.expirer.remove(&ExpirerTarget::Id(id));
        let proposal = state.proposals.remove(&id)?;
        state.keys.remove(&proposal.pairing_topic);
        Some(proposal)
    }
}
