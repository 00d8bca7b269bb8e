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
    // Formatting and validation (format, history, validate).
    /// A structured input (transaction, token balance, send draft…) whose
    /// shape is not the documented one; `reason` says which field.
    #[error("Invalid {what}: {reason}")]
    InvalidInput {
        /// What was being read, e.g. `transaction`.
        what: &'static str,
        /// What is wrong with it, as the deserializer saw it.
        reason: String,
    },
    /// A millisecond timestamp that is not a finite number in the JS `Date` range.
    #[error("Invalid timestamp")]
    InvalidTimestamp,
    /// A name to register that breaks §5 "at least 4 characters, letters,
    /// digits, hyphen only"; the message says which part.
    #[error("{reason}")]
    InvalidName {
        /// The user-facing explanation.
        reason: &'static str,
    },
    /// An EVM chain id without an ENSIP-11 coin type (§5: at or above 2^31).
    #[error("Invalid chainId")]
    InvalidChainId,
    /// A send draft missing what the send needs (§5); the message is shown to the user.
    #[error("{reason}")]
    IncompleteSendDraft {
        /// The user-facing explanation, the spec's exact text where it gives one.
        reason: &'static str,
    },
    /// A send on a namespace that has no send flow (§8 "Unsupported chain").
    #[error("Unsupported chain")]
    UnsupportedSendChain {
        /// The namespace of the draft.
        namespace: String,
    },
    /// An expirer target that is neither `topic:<string>` nor `id:<number>`.
    #[error("Invalid target, expected id:number or topic:string")]
    InvalidExpirerTarget {
        /// The rejected text.
        input: String,
    },
    /// An expirer target built from a value of the wrong type for its kind (§8).
    #[error("Value must be \"{expected}\" for expirer target type: {kind}")]
    ExpirerValueType {
        /// `topic` or `id`.
        kind: &'static str,
        /// `string` or `number`.
        expected: &'static str,
    },
    /// Both sign-in options were given; only one may drive sign-in (§5).
    #[error("Cannot set both `siweConfig` and `siwx` options")]
    SiwxConflict,
    /// No project id was configured (§5, §8).
    #[error("Project ID Not Configured")]
    ProjectIdNotConfigured,
    /// An e-mail login attempted within the cooldown (§4, §8, §9 30 s).
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
            Error::RpcMethodNotAllowed { .. } => "RPC_METHOD_NOT_ALLOWED",
            Error::InvalidAppUrl { .. } => "INVALID_APP_URL",
            // Formatting and validation (format, history, validate).
            Error::InvalidInput { .. } => "INVALID_INPUT",
            Error::InvalidTimestamp => "INVALID_TIMESTAMP",
            Error::InvalidName { .. } => "INVALID_NAME",
            Error::InvalidChainId => "INVALID_CHAIN_ID",
            Error::IncompleteSendDraft { .. } => "INCOMPLETE_SEND_DRAFT",
            Error::UnsupportedSendChain { .. } => "UNSUPPORTED_SEND_CHAIN",
            Error::InvalidExpirerTarget { .. } => "INVALID_EXPIRER_TARGET",
            Error::ExpirerValueType { .. } => "EXPIRER_VALUE_TYPE",
            Error::SiwxConflict => "SIWX_CONFLICT",
            Error::ProjectIdNotConfigured => "PROJECT_ID_NOT_CONFIGURED",
            Error::EmailCooldown { .. } => "EMAIL_COOLDOWN",
        }
    }
}

/// Result of every fallible rule in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
