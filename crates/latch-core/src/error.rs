/// Why a value was refused. Display strings are the documented exact messages
/// (behaviour 2.12, 2.15) because clients match on them; the rejected input travels in the
/// variant so logs and callers can still say what was wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A CAIP-2 network id that is not `namespace:reference` (behaviour 2.12).
    #[error("Invalid CAIP-2 network id")]
    InvalidCaipNetworkId {
        /// The rejected text.
        input: String,
    },
    /// A CAIP-10 account id that is not `namespace:reference:address` (behaviour 2.12).
    #[error("Invalid CAIP-10 address")]
    InvalidCaip10Address {
        /// The rejected text.
        input: String,
    },
    /// A CAIP address whose shape or namespace a connector may not report (behaviour 2.12).
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
    /// A CAIP-2 network id that is well formed but not in the catalogue (behaviour 3.12).
    #[error("Network not found")]
    NetworkNotFound {
        /// The id that was looked up.
        caip_network_id: String,
    },
    /// An RPC method that is neither safe nor approvable in the modal (behaviour 5.18).
    #[error("Requested RPC call is not allowed")]
    RpcMethodNotAllowed {
        /// The refused method name.
        method: String,
    },
    /// A wallet app link that cannot start a deep or universal link (behaviour 2.7).
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
    /// A name to register that breaks behaviour 5.11 "at least 4 characters, letters,
    /// digits, hyphen only"; the message says which part.
    #[error("{reason}")]
    InvalidName {
        /// The user-facing explanation.
        reason: &'static str,
    },
    /// An EVM chain id without an ENSIP-11 coin type (behaviour 5.11: at or above 2^31).
    #[error("Invalid chainId")]
    InvalidChainId,
    /// A send draft missing what the send needs (behaviour 5.5); the message is shown to the user.
    #[error("{reason}")]
    IncompleteSendDraft {
        /// The user-facing explanation, the documented exact text where it gives one.
        reason: &'static str,
    },
    /// A send on a namespace that has no send flow (behaviour 5.5 "Unsupported chain").
    #[error("Unsupported chain")]
    UnsupportedSendChain {
        /// The namespace of the draft.
        namespace: String,
    },
    /// A send of more than the balance holds (behaviour 5.6 "Send"); shown to the user.
    #[error("Amount exceeds balance")]
    AmountExceedsBalance,
    /// An expirer target that is neither `topic:<string>` nor `id:<number>`.
    #[error("Invalid target, expected id:number or topic:string")]
    InvalidExpirerTarget {
        /// The rejected text.
        input: String,
    },
    /// An expirer target built from a value of the wrong type for its kind (behaviour 2.8).
    #[error("Value must be \"{expected}\" for expirer target type: {kind}")]
    ExpirerValueType {
        /// `topic` or `id`.
        kind: &'static str,
        /// `string` or `number`.
        expected: &'static str,
    },
    /// Both sign-in options were given; only one may drive sign-in (behaviour 4.2).
    #[error("Cannot set both `siweConfig` and `siwx` options")]
    SiwxConflict,
    /// No project id was configured (behaviour 6.2).
    #[error("Project ID Not Configured")]
    ProjectIdNotConfigured,
    /// An e-mail login attempted within the cooldown (behaviour 5.16, 7.1 30 s).
    #[error("Please try again after {seconds} seconds")]
    EmailCooldown {
        /// Whole seconds left, rounded up.
        seconds: u64,
    },
    // Addresses and sign-in messages (behaviour 4.3, 4.2, 4.7 sign-in).
    /// Text that is not 32 to 44 base58 characters decoding to 32 bytes (behaviour 2.13).
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
    /// documented alert title (behaviour 4.8 "Session Expired"), which clients match on.
    #[error("Session Expired")]
    SignInExpired {
        /// The message's `Expiration Time`.
        expiration_time: String,
    },
    /// A sign-in message whose not-before time is still ahead: usually a wrong
    /// clock on one side (behaviour 4.8 "token not yet valid; check the clock and reconnect").
    #[error("Session not yet valid: check the clock and reconnect")]
    SignInNotYetValid {
        /// The message's `Not Before`.
        not_before: String,
    },
    /// A sign-in message whose `Issued At` is too far from the verifier's clock
    /// (an old signature replayed, or a wrong clock on one side).
    #[error("Issued At {issued_at} is not within {window_ms} ms of now: check the clock and sign in again")]
    SignInIssuedAtOutOfWindow {
        /// The message's `Issued At`.
        issued_at: String,
        /// The accepted distance from now, in milliseconds.
        window_ms: i64,
    },
    /// A sign-in message whose `URI` is not on the origin its `domain` (and scheme) names.
    #[error("the message's URI {uri} is not on {domain}")]
    SignInUriMismatch {
        /// The message's `URI`.
        uri: String,
        /// The message's domain.
        domain: String,
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
            Error::AmountExceedsBalance => "AMOUNT_EXCEEDS_BALANCE",
            Error::InvalidExpirerTarget { .. } => "INVALID_EXPIRER_TARGET",
            Error::ExpirerValueType { .. } => "EXPIRER_VALUE_TYPE",
            Error::SiwxConflict => "SIWX_CONFLICT",
            Error::ProjectIdNotConfigured => "PROJECT_ID_NOT_CONFIGURED",
            Error::EmailCooldown { .. } => "EMAIL_COOLDOWN",
            // Addresses and sign-in messages.
            Error::InvalidSolanaAddress { .. } => "INVALID_SOLANA_ADDRESS",
            Error::InvalidBitcoinAddress { .. } => "INVALID_BITCOIN_ADDRESS",
            Error::InvalidSs58Address { .. } => "INVALID_SS58_ADDRESS",
            Error::InvalidSs58Prefix { .. } => "INVALID_SS58_PREFIX",
            Error::InvalidSignInMessage { .. } => "INVALID_SIGN_IN_MESSAGE",
            Error::SignInExpired { .. } => "SIGN_IN_EXPIRED",
            Error::SignInNotYetValid { .. } => "SIGN_IN_NOT_YET_VALID",
            Error::SignInIssuedAtOutOfWindow { .. } => "SIGN_IN_ISSUED_AT",
            Error::SignInUriMismatch { .. } => "SIGN_IN_URI_MISMATCH",
            Error::InvalidSignature { .. } => "INVALID_SIGNATURE",
        }
    }
}

/// Result of every fallible rule in this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
