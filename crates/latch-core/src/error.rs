/// Why a value was refused. Display strings are the spec's exact messages
/// (§5, §8) because clients match on them; the rejected input travels in the
/// variant so logs and callers can still say what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A CAIP-2 network id that is not `namespace:reference` (§5).
    #[error("Invalid CAIP-2 network id")]
    InvalidCaipNetworkId {
        /// The rejected text.
        input: String,
    },
    /// A CAIP-10 account id that is not `namespace:reference:address` (§5).
    #[error("Invalid CAIP-10 address")]
    InvalidCaip10Address {
        /// The rejected text.
        input: String,
    },
    /// A CAIP address whose shape or namespace a connector may not report (§5).
    #[error("Invalid CAIP Address")]
    InvalidCaipAddress {
        /// The rejected text.
        input: String,
    },
    /// Text that is not an EVM address (`0x` optional, 40 hex digits).
    #[error("Invalid EVM address")]
    InvalidEvmAddress {
        /// The rejected text.
        input: String,
    },
    /// Text that is not a non-negative decimal or `0x` hexadecimal amount.
    #[error("Invalid amount: {reason}")]
    InvalidAmount {
        /// What is wrong with it, for the developer reading the error.
        reason: &'static str,
    },
    // Networks, lists and orders, RPC policy, links, timing rules.
    /// A CAIP-2 network id that is well formed but not in the catalogue (§8).
    #[error("Network not found")]
    NetworkNotFound {
        /// The id that was looked up.
        caip_network_id: String,
    },
    /// An argument of the wrong shape or value, e.g. a JS object missing a
    /// field; `what` names the argument and `reason` says what was expected.
    #[error("Invalid {what}: {reason}")]
    InvalidArgument {
        /// The argument, as the caller knows it (`feature`, `timestamp`, …).
        what: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// An RPC method that is neither safe nor approvable in the modal (§6).
    #[error("Requested RPC call is not allowed")]
    RpcMethodNotAllowed {
        /// The refused method name.
        method: String,
    },
    /// A wallet app link that cannot start a deep or universal link (§5).
    #[error("Invalid app URL: {reason}")]
    InvalidAppUrl {
        /// The rejected link.
        input: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// An e-mail login attempted within the cooldown of the last one (§4, §8).
    #[error("Please try again after {seconds} seconds")]
    EmailCooldown {
        /// Whole seconds left, rounded up.
        seconds: u64,
    },
}

impl Error {
    /// A stable machine-readable code, the same across Rust, JS and HTTP.
    pub fn code(&self) -> &'static str {
        match self {
            Error::InvalidCaipNetworkId { .. } => "INVALID_CAIP_NETWORK_ID",
            Error::InvalidCaip10Address { .. } => "INVALID_CAIP10_ADDRESS",
            Error::InvalidCaipAddress { .. } => "INVALID_CAIP_ADDRESS",
            Error::InvalidEvmAddress { .. } => "INVALID_EVM_ADDRESS",
            Error::InvalidAmount { .. } => "INVALID_AMOUNT",
            // Networks, lists and orders, RPC policy, links, timing rules.
            Error::NetworkNotFound { .. } => "NETWORK_NOT_FOUND",
            Error::InvalidArgument { .. } => "INVALID_ARGUMENT",
            Error::RpcMethodNotAllowed { .. } => "RPC_METHOD_NOT_ALLOWED",
            Error::InvalidAppUrl { .. } => "INVALID_APP_URL",
            Error::EmailCooldown { .. } => "EMAIL_COOLDOWN",
        }
    }
}

/// Result of every fallible rule in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
