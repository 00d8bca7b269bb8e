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
    // Addresses and sign-in messages (§3, §5, §8 sign-in).
    /// Text that is not 32 to 44 base58 characters decoding to 32 bytes (§5).
    #[error("Invalid Solana address")]
    InvalidSolanaAddress {
        /// The rejected text.
        input: String,
    },
    /// Text that is not a base58check or segwit address on mainnet, testnet or regtest.
    #[error("Invalid Bitcoin address")]
    InvalidBitcoinAddress {
        /// The rejected text.
        input: String,
    },
    /// Text that is not an SS58 address of a 32-byte account id with a correct checksum.
    #[error("Invalid SS58 address")]
    InvalidSs58Address {
        /// The rejected text.
        input: String,
    },
    /// An SS58 network prefix that is reserved (46, 47) or above 16383.
    #[error("Invalid SS58 network prefix")]
    InvalidSs58Prefix {
        /// The rejected prefix.
        prefix: u16,
    },
    /// A sign-in message (EIP-4361 / CAIP-122) that breaks the grammar or a field rule.
    #[error("Invalid sign-in message: {reason}")]
    InvalidSignInMessage {
        /// Which field or line is wrong, for the developer reading the error.
        reason: String,
    },
    /// A sign-in message whose expiration time has passed. The text is the
    /// spec's alert title (§8 "Session Expired"), which clients match on.
    #[error("Session Expired")]
    SignInExpired {
        /// The message's `Expiration Time`.
        expiration_time: String,
    },
    /// A sign-in message whose not-before time is still ahead: usually a wrong
    /// clock on one side (§8 "token not yet valid; check the clock and reconnect").
    #[error("Session not yet valid: check the clock and reconnect")]
    SignInNotYetValid {
        /// The message's `Not Before`.
        not_before: String,
    },
    /// A signature that is malformed or from which no signer can be recovered.
    #[error("Invalid signature: {reason}")]
    InvalidSignature {
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
            // Addresses and sign-in messages.
            Error::InvalidSolanaAddress { .. } => "INVALID_SOLANA_ADDRESS",
            Error::InvalidBitcoinAddress { .. } => "INVALID_BITCOIN_ADDRESS",
            Error::InvalidSs58Address { .. } => "INVALID_SS58_ADDRESS",
            Error::InvalidSs58Prefix { .. } => "INVALID_SS58_PREFIX",
            Error::InvalidSignInMessage { .. } => "INVALID_SIGN_IN_MESSAGE",
            Error::SignInExpired { .. } => "SIGN_IN_EXPIRED",
            Error::SignInNotYetValid { .. } => "SIGN_IN_NOT_YET_VALID",
            Error::InvalidSignature { .. } => "INVALID_SIGNATURE",
        }
    }
}

/// Result of every fallible rule in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
