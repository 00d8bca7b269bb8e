//! What survives a reload: the relay identity, settled sessions, their keys
//! and expiries, under the JS client's storage keys and shapes (so a browser
//! profile reads like one).

use super::expirer::Expirer;
use super::{Session, SignClient, State};
use crate::crypto::{self, random_bytes, SymKey};
use crate::io::Storage;
use crate::json::FromValue;
use crate::map::Map;
use crate::{to_json, Error, Result};

const STORE_SESSIONS: &str = "wc@2:client:0.3//session";
const STORE_KEYCHAIN: &str = "wc@2:core:0.3//keychain";
const STORE_EXPIRER: &str = "wc@2:core:0.3//expirer";
const CLIENT_SEED: &str = "client_ed25519_seed";

/// What [`restore`] read back.
pub(super) struct Restored {
    /// The relay identity's Ed25519 seed.
    pub(super) seed: [u8; 32],
    /// The keychain's `client_ed25519_seed` entry, as stored.
    pub(super) client_seed: String,
    /// Sessions with their keys and expiries.
    pub(super) state: State,
}

/// What [`SignClient::persist`] writes, taken from the state in one borrow.
struct Snapshot {
    /// Topic → key hex, and the client seed.
    keychain: Map<String, String>,
    sessions: Vec<Session>,
    /// Session expiries only.
    expirer: Map<String, u64>,
}

/// The relay identity (a new one, written down, when there is none or it
/// does not read) and the sessions whose keys are stored.
pub(super) async fn restore(storage: &dyn Storage) -> Result<Restored> {
    let mut keychain: Map<String, String> = load(storage, STORE_KEYCHAIN).await?;
    let seed = match keychain.get(CLIENT_SEED).map(|s| crypto::parse_hex32(s, "client seed")) {
        Some(Ok(seed)) => seed,
        _ => {
            let seed = random_bytes::<32>()?;
            keychain.insert(CLIENT_SEED.into(), hex::encode(seed));
            storage.set(STORE_KEYCHAIN, to_json(&keychain)).await?;
            seed
        }
    };
    let client_seed = keychain.get(CLIENT_SEED).cloned().unwrap_or_default();
    let sessions: Vec<Session> = load(storage, STORE_SESSIONS).await?;
    let expirer: Map<String, u64> = load(storage, STORE_EXPIRER).await?;
    let mut state = State::default();
    for session in sessions {
        if let Some(Ok(key)) = keychain.get(&session.topic).map(|k| SymKey::from_hex(k)) {
            state.keys.insert(session.topic.clone(), key);
            state.sessions.insert(session.topic.clone(), session);
        }
    }
    state.expirer = Expirer::restore(expirer, &state.sessions);
    Ok(Restored {
        seed,
        client_seed,
        state,
    })
}

impl SignClient {
    /// Writes sessions, their keys (with the client seed) and session expiries.
    pub(super) async fn persist(&self) -> Result<()> {
        let storage = &self.inner.storage;
        let snapshot = self.snapshot();
        storage.set(STORE_KEYCHAIN, to_json(&snapshot.keychain)).await?;
        storage.set(STORE_SESSIONS, to_json(&snapshot.sessions)).await?;
        storage.set(STORE_EXPIRER, to_json(&snapshot.expirer)).await
    }

    fn snapshot(&self) -> Snapshot {
        let mut keychain = Map::new();
        keychain.insert(CLIENT_SEED.to_owned(), self.inner.client_seed.clone());
        let state = self.inner.state.borrow();
        for topic in state.sessions.keys() {
            if let Some(key) = state.keys.get(topic) {
                keychain.insert(topic.clone(), key.to_hex());
            }
        }
        Snapshot {
            keychain,
            sessions: state.sessions.values().cloned().collect(),
            expirer: state.expirer.sessions(),
        }
    }
}

/// A stored JSON value, or the default when absent.
async fn load<T: FromValue + Default>(storage: &dyn Storage, key: &str) -> Result<T> {
    match storage.get(key).await? {
        None => Ok(T::default()),
        Some(text) => crate::from_json(&text).map_err(|e| Error::Storage(format!("{key}: {e}"))),
    }
}
