//! One error type for the crate; every variant says which boundary failed.

/// Why a WalletConnect operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A `wc:` pairing URI that cannot be used; the text says which part.
    #[error("invalid pairing URI: {0}")]
    InvalidUri(String),
    /// A hex key or topic of the wrong length or alphabet.
    #[error("invalid {what}: expected {len} hex characters")]
    InvalidHex {
        /// Which value (`topic`, `symKey`, `publicKey`).
        what: &'static str,
        /// Expected number of hex characters.
        len: usize,
    },
    /// An envelope that is not base64 of a type 0 or type 1 envelope.
    #[error("invalid envelope: {0}")]
    InvalidEnvelope(&'static str),
    /// An envelope that does not open with the key (wrong key or tampered).
    #[error("envelope does not decrypt with this key")]
    Decrypt,
    /// The peer's X25519 key gives an all-zero shared secret (a low-order point).
    #[error("peer public key is not usable for key agreement")]
    WeakKey,
    /// No randomness from the platform.
    #[error("no randomness available: {0}")]
    Random(String),
    /// A frame or payload that is not the JSON expected.
    #[error("invalid JSON-RPC payload: {0}")]
    InvalidPayload(String),
    /// The transport could not connect, or the socket failed.
    #[error("transport: {0}")]
    Transport(String),
    /// The relay refused the connection (close 3000): bad token or project. Not retried.
    #[error("relay refused the connection: {0}")]
    Unauthorized(String),
    /// The relay answered a request with a JSON-RPC error.
    #[error("relay error {code}: {message}")]
    Relay {
        /// JSON-RPC error code.
        code: i64,
        /// Its message.
        message: String,
    },
    /// The peer (wallet) answered with a JSON-RPC error, e.g. `5000 User rejected.`.
    #[error("{message}")]
    Peer {
        /// The wallet's error code.
        code: i64,
        /// The wallet's message, verbatim.
        message: String,
    },
    /// No answer in time (relay request, or a proposal nobody approved).
    #[error("{0}")]
    Timeout(String),
    /// A storage backend failed.
    #[error("storage: {0}")]
    Storage(String),
    /// A topic that names no known session or pairing.
    #[error("no session or pairing with topic {0}")]
    UnknownTopic(String),
    /// A request whose chain or method the session's namespaces do not allow.
    #[error("{0}")]
    NotAllowed(String),
    /// The session ended (deleted by either side, or expired) before the answer came.
    #[error("session ended: {0}")]
    SessionEnded(String),
    /// The client was shut down (or never started): the documented words for a
    /// provider without a Sign client.
    #[error("Sign Client not initialized")]
    Closed,
    /// A provider `request()` with no session (behaviour 2.9 Sessions).
    #[error("Please call connect() before request()")]
    RequestBeforeConnect,
    /// A provider `enable()` (or `eth_requestAccounts`) with no session (behaviour 2.9 Sessions).
    #[error("Please call connect() before enable()")]
    EnableBeforeConnect,
    /// A chain whose namespace neither the session nor the connect() config has (behaviour 2.9 Sessions).
    #[error("Namespace '{0}' is not configured. Please call connect() first with namespace config.")]
    NamespaceNotConfigured(String),
    /// An HTTP JSON-RPC call for a chain (CAIP-2) the session does not include (behaviour 2.9 Sessions).
    #[error("JSON-RPC provider for {0} not found")]
    NoJsonRpcProvider(String),
    /// An HTTP JSON-RPC call for a chain with neither an rpcMap entry nor a
    /// gateway; the id is the CAIP-2 reference, as the official provider says it (behaviour 2.9 Sessions).
    #[error("No RPC url provided for chainId: {0}")]
    NoRpcUrl(String),
    /// A provider with no default chain, and none given (behaviour 2.9 Sessions).
    #[error("ChainId not found")]
    ChainIdNotFound,
    /// The HTTP JSON-RPC call failed: no answer, or a non-2xx status (`HTTP status code: 502`).
    #[error("{0}")]
    Http(String),
    /// The RPC node (rpcMap URL or the Latch gateway) answered with a JSON-RPC error.
    #[error("{message}")]
    Rpc {
        /// JSON-RPC error code.
        code: i64,
        /// Its message, verbatim.
        message: String,
    },
}

impl Error {
    /// A stable, machine-readable name for the variant (what JS sees as `LatchError.code`).
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidUri(_) => "WC_INVALID_URI",
            Error::InvalidHex { .. } => "WC_INVALID_HEX",
            Error::InvalidEnvelope(_) => "WC_INVALID_ENVELOPE",
            Error::Decrypt => "WC_DECRYPT",
            Error::WeakKey => "WC_WEAK_KEY",
            Error::Random(_) => "WC_RANDOM",
            Error::InvalidPayload(_) => "WC_INVALID_PAYLOAD",
            Error::Transport(_) => "WC_TRANSPORT",
            Error::Unauthorized(_) => "WC_UNAUTHORIZED",
            Error::Relay { .. } => "WC_RELAY",
            Error::Peer { .. } => "WC_PEER",
            Error::Timeout(_) => "WC_TIMEOUT",
            Error::Storage(_) => "WC_STORAGE",
            Error::UnknownTopic(_) => "WC_UNKNOWN_TOPIC",
            Error::NotAllowed(_) => "WC_NOT_ALLOWED",
            Error::SessionEnded(_) => "WC_SESSION_ENDED",
            Error::Closed => "WC_CLOSED",
            Error::RequestBeforeConnect => "WC_REQUEST_BEFORE_CONNECT",
            Error::EnableBeforeConnect => "WC_ENABLE_BEFORE_CONNECT",
            Error::NamespaceNotConfigured(_) => "WC_NAMESPACE_NOT_CONFIGURED",
            Error::NoJsonRpcProvider(_) => "WC_NO_JSON_RPC_PROVIDER",
            Error::NoRpcUrl(_) => "WC_NO_RPC_URL",
            Error::ChainIdNotFound => "WC_CHAIN_ID_NOT_FOUND",
            Error::Http(_) => "WC_HTTP",
            Error::Rpc { .. } => "WC_RPC",
        }
    }

    /// The JSON-RPC error code of a wallet's or an RPC node's refusal
    /// (`5000 User rejected.`, `4001`, `-32000`…), so callers can tell a user rejection.
    pub fn rpc_code(&self) -> Option<i64> {
        match self {
            Error::Peer { code, .. } | Error::Rpc { code, .. } => Some(*code),
            _ => None,
        }
    }
}

/// This crate's result.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::Error;

    #[test]
    fn codes_are_distinct_and_closed_speaks_the_spec() {
        let all = [
            Error::InvalidUri(String::new()),
            Error::InvalidHex { what: "topic", len: 64 },
            Error::InvalidEnvelope(""),
            Error::Decrypt,
            Error::WeakKey,
            Error::Random(String::new()),
            Error::InvalidPayload(String::new()),
            Error::Transport(String::new()),
            Error::Unauthorized(String::new()),
            Error::Relay {
                code: 0,
                message: String::new(),
            },
            Error::Peer {
                code: 5000,
                message: "User rejected.".into(),
            },
            Error::Timeout(String::new()),
            Error::Storage(String::new()),
            Error::UnknownTopic(String::new()),
            Error::NotAllowed(String::new()),
            Error::SessionEnded(String::new()),
            Error::Closed,
            Error::RequestBeforeConnect,
            Error::EnableBeforeConnect,
            Error::NamespaceNotConfigured(String::new()),
            Error::NoJsonRpcProvider(String::new()),
            Error::NoRpcUrl(String::new()),
            Error::ChainIdNotFound,
            Error::Http(String::new()),
            Error::Rpc {
                code: -32000,
                message: String::new(),
            },
        ];
        let codes: std::collections::BTreeSet<_> = all.iter().map(Error::code).collect();
        assert_eq!(codes.len(), all.len());
        assert!(codes.iter().all(|c| c.starts_with("WC_")));
        // The documented words for a provider without a Sign client (behaviour 2.9 Sessions).
        assert_eq!(Error::Closed.to_string(), "Sign Client not initialized");
        // A wallet's refusal is shown as the wallet said it.
        assert_eq!(all[10].to_string(), "User rejected.");
        assert_eq!(all[10].rpc_code(), Some(5000));
        assert_eq!(all[24].rpc_code(), Some(-32000));
        assert_eq!(Error::Closed.rpc_code(), None);
        // The provider's messages, verbatim (behaviour 2.9 Sessions).
        let spec = [
            (Error::RequestBeforeConnect, "Please call connect() before request()"),
            (Error::EnableBeforeConnect, "Please call connect() before enable()"),
            (
                Error::NamespaceNotConfigured("solana".into()),
                "Namespace 'solana' is not configured. Please call connect() first with namespace config.",
            ),
            (
                Error::NoJsonRpcProvider("eip155:10".into()),
                "JSON-RPC provider for eip155:10 not found",
            ),
            (Error::NoRpcUrl("10".into()), "No RPC url provided for chainId: 10"),
            (Error::ChainIdNotFound, "ChainId not found"),
        ];
        for (error, text) in spec {
            assert_eq!(error.to_string(), text);
        }
    }
}
