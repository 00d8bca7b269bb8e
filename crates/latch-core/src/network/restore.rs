//! The network at start (behaviour 3.6 Networks): [`start_network`] over CAIP-2 ids (what the
//! modal's `core` wasm module calls) and [`restore_network`] over networks.

use serde::Deserialize;

use super::{unsupported_network_placeholder, Network, NetworkChoice};
use crate::caip::CaipNetworkId;
use crate::Result;

/// What [`restore_network`] chooses from.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreNetworkRequest {
    /// The CAIP-2 id persisted as the active network, if any. A value that is
    /// not a CAIP-2 id (corrupt storage) counts as nothing stored.
    #[serde(default)]
    pub stored: Option<String>,
    /// The networks the app asked for.
    pub requested: Vec<NetworkChoice>,
    /// The app's preferred network when nothing usable is stored.
    #[serde(default)]
    pub default_network: Option<NetworkChoice>,
    /// The namespaces the app has adapters for; by default those of `requested`.
    #[serde(default)]
    pub namespaces: Option<Vec<String>>,
}

/// Which network to make active at start (behaviour 3.6), from ids alone: what
/// [`start_network`] answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StartNetwork {
    /// The requested network at this index: the stored one.
    Requested(usize),
    /// The unsupported placeholder ([`unsupported_network_placeholder`]) for the
    /// stored id, whose namespace is known.
    Placeholder,
    /// The app's default network, else the first requested one.
    Default,
}

/// The rule of behaviour 3.6 over CAIP-2 ids, for callers that hold the networks
/// themselves (the modal, which must not load the catalogue to start): the
/// stored id if requested; else the placeholder if its namespace is among
/// `namespaces`; else the default. A stored value that is not a CAIP-2 id
/// (corrupt storage) counts as nothing stored. Builds no network: the modal's
/// `core` module stays small.
pub fn start_network<S: AsRef<str>>(stored: Option<&str>, requested: &[S], namespaces: &[S]) -> StartNetwork {
    let Some((stored, parsed)) = stored.and_then(|s| CaipNetworkId::parse(s).ok().map(|parsed| (s, parsed))) else {
        return StartNetwork::Default;
    };
    if let Some(index) = requested.iter().position(|id| id.as_ref() == stored) {
        return StartNetwork::Requested(index);
    }
    if namespaces
        .iter()
        .any(|namespace| namespace.as_ref() == parsed.namespace)
    {
        return StartNetwork::Placeholder;
    }
    StartNetwork::Default
}

/// The network to make active at start (behaviour 3.6 Networks): the stored one if it is
/// in the requested list; else the unsupported placeholder if its namespace is
/// known (the app has an adapter for it); else the default network; else the
/// first requested one; `None` when there is none.
pub fn restore_network(request: RestoreNetworkRequest) -> Result<Option<Network>> {
    let requested = request
        .requested
        .into_iter()
        .map(NetworkChoice::resolve)
        .collect::<Result<Vec<_>>>()?;
    let default_network = request.default_network.map(NetworkChoice::resolve).transpose()?;
    let ids: Vec<&str> = requested.iter().map(|n| n.caip_network_id.as_str()).collect();
    let namespaces: Vec<&str> = match &request.namespaces {
        Some(namespaces) => namespaces.iter().map(String::as_str).collect(),
        None => requested.iter().map(|n| n.chain_namespace.as_str()).collect(),
    };
    let stored = request.stored.as_deref();
    match start_network(stored, &ids, &namespaces) {
        StartNetwork::Requested(index) => Ok(requested.get(index).cloned()),
        StartNetwork::Placeholder => unsupported_network_placeholder(stored).map(Some),
        StartNetwork::Default => Ok(default_network.or_else(|| requested.into_iter().next())),
    }
}
