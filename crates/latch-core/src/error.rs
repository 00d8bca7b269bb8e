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
        }
    }
}

/// Result of every fallible rule in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
