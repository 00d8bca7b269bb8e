//! What the modal shows and in which order (behaviour 1.10–1.12, 2.3, 7.9), and which RPC methods
//! the embedded wallet answers (behaviour 5.18).

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// Wallets the host must not show, by reverse-DNS id or by name (behaviour 2.3).
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestrictedWallets {
    /// Reverse-DNS ids (EIP-6963 `rdns`), e.g. `io.metamask`.
    #[serde(default)]
    pub rdns: Vec<String>,
    /// Display names, e.g. `MetaMask`.
    #[serde(default)]
    pub names: Vec<String>,
}

impl RestrictedWallets {
    /// Whether a wallet with this `rdns` and `name` is hidden (behaviour 2.3). Both compare
    /// case-insensitively, so a list written `Metamask` still hides `MetaMask`.
    pub fn hides(&self, rdns: Option<&str>, name: Option<&str>) -> bool {
        let rdns_hit = rdns.is_some_and(|r| self.rdns.iter().any(|x| x.eq_ignore_ascii_case(r)));
        let name_hit = name.is_some_and(|n| {
            let n = n.to_lowercase();
            self.names.iter().any(|x| x.to_lowercase() == n)
        });
        rdns_hit || name_hit
    }
}

/// Where the browser-wallet (injected) connector would show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InjectedConnectorContext {
    /// The page runs on a desktop browser.
    pub is_desktop: bool,
    /// A browser wallet is installed (`window.ethereum` or an EIP-6963 announcement).
    pub injected_installed: bool,
}

/// Whether to hide the generic browser-wallet connector (behaviour 2.3: "hidden on
/// desktop if none is installed"). On mobile it stays: it opens an in-app browser.
pub fn should_hide_injected_connector(context: InjectedConnectorContext) -> bool {
    context.is_desktop && !context.injected_installed
}

/// The socials a Telegram mini-app cannot use on `os` (behaviour 5.16). `os` is compared
/// case-insensitively: `ios`, `mac` (or `macos`), `android`; any other value
/// removes nothing.
fn telegram_blocked_socials(os: &str) -> &'static [&'static str] {
    match os.to_ascii_lowercase().as_str() {
        "ios" => &["google"],
        "mac" | "macos" => &["x"],
        "android" => &["facebook", "x"],
        _ => &[],
    }
}

/// `socials` without those a Telegram mini-app cannot open on `os` (behaviour 5.16: "iOS
/// removes google, Mac removes x, Android removes facebook and x").
pub fn filter_telegram_socials(socials: &[String], os: &str) -> Vec<String> {
    let blocked = telegram_blocked_socials(os);
    socials
        .iter()
        .filter(|s| !blocked.contains(&s.as_str()))
        .cloned()
        .collect()
}

/// The groups of the Connect view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum ConnectMethod {
    /// E-mail login.
    Email,
    /// Social logins.
    Social,
    /// Wallets.
    Wallet,
}

/// The default connect-method order (behaviour 1.10).
pub const DEFAULT_CONNECT_METHOD_ORDER: [ConnectMethod; 3] =
    [ConnectMethod::Email, ConnectMethod::Social, ConnectMethod::Wallet];

/// The order when an installed wallet is shown, in the documented other reading (behaviour 1.10).
pub const INSTALLED_WALLET_CONNECT_METHOD_ORDER: [ConnectMethod; 3] =
    [ConnectMethod::Wallet, ConnectMethod::Email, ConnectMethod::Social];

/// What decides the connect-method order. Behaviour 1.10 reads two ways; both fit here:
/// - the fixed reading ("defaults to email, social, wallet"): leave
///   `installedWalletShown` out;
/// - the other reading ("wallet, email, social, or the default order when no
///   injected or announced wallet is shown"): pass `installedWalletShown`.
///
/// A `configured` order from the host wins over both.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConnectMethodOrderRequest {
    /// The host's own order: any non-empty selection, without repeats.
    #[serde(default)]
    pub configured: Option<Vec<ConnectMethod>>,
    /// Whether an injected or announced (EIP-6963) wallet is shown.
    #[serde(default)]
    pub installed_wallet_shown: Option<bool>,
}

/// The order of the Connect view's groups (behaviour 1.10); see [`ConnectMethodOrderRequest`].
pub fn connect_method_order(request: &ConnectMethodOrderRequest) -> Result<Vec<ConnectMethod>> {
    if let Some(configured) = &request.configured {
        let invalid = |reason: &str| Error::InvalidInput {
            what: "connect method order",
            reason: reason.into(),
        };
        if configured.is_empty() {
            return Err(invalid("name at least one of email, social, wallet"));
        }
        if configured.iter().enumerate().any(|(i, m)| configured[..i].contains(m)) {
            return Err(invalid("a method is listed twice"));
        }
        return Ok(configured.clone());
    }
    Ok(match request.installed_wallet_shown {
        Some(true) => INSTALLED_WALLET_CONNECT_METHOD_ORDER,
        _ => DEFAULT_CONNECT_METHOD_ORDER,
    }
    .to_vec())
}

/// The order of connector groups in the wallet list (behaviour 1.11).
pub const DEFAULT_CONNECTOR_TYPE_ORDER: [&str; 7] = [
    "walletConnect",
    "recent",
    "injected",
    "featured",
    "custom",
    "external",
    "recommended",
];

/// The order of the account view's wallet features (behaviour 1.12).
pub const WALLET_FEATURE_ORDER: [&str; 4] = ["onramp", "swaps", "receive", "send"];

/// The social logins offered by default, in order (behaviour 7.9).
pub const DEFAULT_SOCIALS: [&str; 7] = ["google", "x", "discord", "farcaster", "github", "apple", "facebook"];

/// Optional features and whether they are on (behaviour 7.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Features {
    /// Token swaps.
    pub swaps: bool,
    /// Buying crypto.
    pub onramp: bool,
    /// Receive view.
    pub receive: bool,
    /// Send view.
    pub send: bool,
    /// E-mail login.
    pub email: bool,
    /// Wallets listed under e-mail login.
    pub email_show_wallets: bool,
    /// Transaction history.
    pub history: bool,
    /// Usage analytics.
    pub analytics: bool,
    /// The "all wallets" entry.
    pub all_wallets: bool,
    /// A terms checkbox before connecting.
    pub legal_checkbox: bool,
    /// Smart sessions.
    pub smart_sessions: bool,
    /// Wallets collapsed behind a button.
    pub collapse_wallets: bool,
}

/// Behaviour 7.9: "Default features on: swaps, onramp, receive, send, email, emailShowWallets,
/// history, analytics, allWallets. Off: legalCheckbox, smartSessions, collapseWallets."
pub const DEFAULT_FEATURES: Features = Features {
    swaps: true,
    onramp: true,
    receive: true,
    send: true,
    email: true,
    email_show_wallets: true,
    history: true,
    analytics: true,
    all_wallets: true,
    legal_checkbox: false,
    smart_sessions: false,
    collapse_wallets: false,
};

/// How the embedded wallet treats an RPC method (behaviour 5.18).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum RpcMethodClass {
    /// Answered without asking: reads, and relaying an already signed transaction.
    Safe,
    /// Shown in ApproveTransaction first.
    Approval,
    /// Rejected with `Requested RPC call is not allowed`.
    NotAllowed,
}

impl RpcMethodClass {
    /// The name JS uses.
    pub fn as_str(self) -> &'static str {
        match self {
            RpcMethodClass::Safe => "safe",
            RpcMethodClass::Approval => "approval",
            RpcMethodClass::NotAllowed => "notAllowed",
        }
    }
}

/// The Ethereum JSON-RPC reads, and `eth_sendRawTransaction` (it relays what was signed and
/// approved before), that the modal answers without asking and the gateway forwards alike.
const EIP155_READ_METHODS: [&str; 33] = [
    "eth_blockNumber",
    "eth_call",
    "eth_chainId",
    "eth_estimateGas",
    "eth_feeHistory",
    "eth_gasPrice",
    "eth_getAccount",
    "eth_getBalance",
    "eth_getBlockByHash",
    "eth_getBlockByNumber",
    "eth_getBlockReceipts",
    "eth_getBlockTransactionCountByHash",
    "eth_getBlockTransactionCountByNumber",
    "eth_getCode",
    "eth_getFilterChanges",
    "eth_getFilterLogs",
    "eth_getLogs",
    "eth_getProof",
    "eth_getStorageAt",
    "eth_getTransactionByBlockHashAndIndex",
    "eth_getTransactionByBlockNumberAndIndex",
    "eth_getTransactionByHash",
    "eth_getTransactionCount",
    "eth_getTransactionReceipt",
    "eth_getUncleCountByBlockHash",
    "eth_getUncleCountByBlockNumber",
    "eth_maxPriorityFeePerGas",
    "eth_newBlockFilter",
    "eth_newFilter",
    "eth_newPendingTransactionFilter",
    "eth_sendRawTransaction",
    "eth_syncing",
    "eth_uninstallFilter",
];

/// `a` then `b`, as one array of `N` (their lengths together): lists made of shared parts.
const fn concat<const N: usize>(a: &[&'static str], b: &[&'static str]) -> [&'static str; N] {
    assert!(a.len() + b.len() == N, "N is the two lengths together");
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = if i < a.len() { a[i] } else { b[i - a.len()] };
        i += 1;
    }
    out
}

/// Behaviour 5.18 "Safe RPC methods": the read methods of the Ethereum JSON-RPC API, the
/// wallet capability/status/asset reads, the ERC-4337 user-operation reads, and
/// `eth_sendRawTransaction` (it relays what was signed and approved before).
pub const SAFE_RPC_METHODS: [&str; 41] = concat(
    &EIP155_READ_METHODS,
    &[
        "eth_accounts",
        "wallet_getCapabilities",
        "wallet_getCallsStatus",
        "wallet_getAssets",
        "eth_getUserOperationByHash",
        "eth_getUserOperationReceipt",
        "eth_supportedEntryPoints",
        "eth_estimateUserOperationGas",
    ],
);

/// Behaviour 5.18 "Not-safe methods (need approval in the modal)".
pub const APPROVAL_RPC_METHODS: [&str; 11] = [
    "personal_sign",
    "eth_signTypedData_v4",
    "eth_sendTransaction",
    "solana_signMessage",
    "solana_signTransaction",
    "solana_signAllTransactions",
    "solana_signAndSendTransaction",
    "wallet_sendCalls",
    "wallet_grantPermissions",
    "wallet_revokePermissions",
    "eth_sendUserOperation",
];

/// What the UI shows for a refused method (behaviour 5.18).
pub const ACTION_NOT_ALLOWED_MESSAGE: &str = "Action not allowed";

/// Classifies `method` (behaviour 5.18). Names match exactly, as JSON-RPC method names are
/// case-sensitive; "Unknown methods are rejected", so anything unlisted is
/// [`RpcMethodClass::NotAllowed`].
pub fn classify_rpc_method(method: &str) -> RpcMethodClass {
    if SAFE_RPC_METHODS.contains(&method) {
        RpcMethodClass::Safe
    } else if APPROVAL_RPC_METHODS.contains(&method) {
        RpcMethodClass::Approval
    } else {
        RpcMethodClass::NotAllowed
    }
}

/// The class of an allowed `method`, else `Requested RPC call is not allowed` (behaviour 5.18).
pub fn assert_rpc_method_allowed(method: &str) -> Result<RpcMethodClass> {
    match classify_rpc_method(method) {
        RpcMethodClass::NotAllowed => Err(Error::RpcMethodNotAllowed {
            method: method.to_owned(),
        }),
        allowed => Ok(allowed),
    }
}

/// What the public RPC gateway does with a method (issue 23: the gateway
/// forwards only what a dapp may ask of a shared node).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum GatewayVerdict {
    /// Sent to the chain's upstream.
    Forward,
    /// Answered `[]` by the gateway: a node's own accounts are not the caller's.
    NoAccounts,
    /// Refused: admin, test-node and wallet-only methods, and anything unlisted.
    Refuse,
}

/// The read-only, relay and subscription methods the gateway forwards on
/// `eip155` chains by default. An allowlist rather than an `eth_*` prefix:
/// nodes add state-changing `eth_` methods of their own (anvil's
/// `eth_sendUnsignedTransaction`), and those must not pass unnoticed.
pub const EIP155_GATEWAY_METHODS: [&str; 48] = concat(
    &EIP155_READ_METHODS,
    &[
        "eth_blobBaseFee",
        "eth_createAccessList",
        "eth_getUncleByBlockHashAndIndex",
        "eth_getUncleByBlockNumberAndIndex",
        "eth_protocolVersion",
        "eth_simulateV1",
        "eth_subscribe",
        "eth_unsubscribe",
        "net_listening",
        "net_peerCount",
        "net_version",
        "web3_clientVersion",
        "web3_sha3",
        "eth_getHeaderByHash",
        "eth_getHeaderByNumber",
    ],
);

/// The read, transaction-relay and subscription methods the gateway forwards
/// on `solana` chains by default. `requestAirdrop` is not among them: it is a
/// test validator's faucet; a devnet chain opts in with its `allow` list.
pub const SOLANA_GATEWAY_METHODS: [&str; 68] = [
    "getAccountInfo",
    "getBalance",
    "getBlock",
    "getBlockCommitment",
    "getBlockHeight",
    "getBlockProduction",
    "getBlockTime",
    "getBlocks",
    "getBlocksWithLimit",
    "getClusterNodes",
    "getEpochInfo",
    "getEpochSchedule",
    "getFeeForMessage",
    "getFirstAvailableBlock",
    "getGenesisHash",
    "getHealth",
    "getHighestSnapshotSlot",
    "getIdentity",
    "getInflationGovernor",
    "getInflationRate",
    "getInflationReward",
    "getLargestAccounts",
    "getLatestBlockhash",
    "getLeaderSchedule",
    "getMaxRetransmitSlot",
    "getMaxShredInsertSlot",
    "getMinimumBalanceForRentExemption",
    "getMultipleAccounts",
    "getProgramAccounts",
    "getRecentPerformanceSamples",
    "getRecentPrioritizationFees",
    "getSignatureStatuses",
    "getSignaturesForAddress",
    "getSlot",
    "getSlotLeader",
    "getSlotLeaders",
    "getStakeMinimumDelegation",
    "getSupply",
    "getTokenAccountBalance",
    "getTokenAccountsByDelegate",
    "getTokenAccountsByOwner",
    "getTokenLargestAccounts",
    "getTokenSupply",
    "getTransaction",
    "getTransactionCount",
    "getVersion",
    "getVoteAccounts",
    "isBlockhashValid",
    "minimumLedgerSlot",
    "sendTransaction",
    "simulateTransaction",
    "accountSubscribe",
    "accountUnsubscribe",
    "blockSubscribe",
    "blockUnsubscribe",
    "logsSubscribe",
    "logsUnsubscribe",
    "programSubscribe",
    "programUnsubscribe",
    "rootSubscribe",
    "rootUnsubscribe",
    "signatureSubscribe",
    "signatureUnsubscribe",
    "slotSubscribe",
    "slotUnsubscribe",
    "slotsUpdatesSubscribe",
    "slotsUpdatesUnsubscribe",
    "getStakeActivation",
];

/// An operator's changes to a chain's default method list. A pattern is a
/// method name, or a prefix ending in `*` (`anvil_*`). `deny` wins over
/// `allow`, and `allow` over the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GatewayMethodPolicy {
    /// Methods forwarded besides the defaults (e.g. `requestAirdrop` on a devnet).
    pub allow: Vec<String>,
    /// Methods refused even when a default or `allow` lists them.
    pub deny: Vec<String>,
}

/// Whether `pattern` (a name, or a prefix ending in `*`) matches `method`.
fn pattern_matches(pattern: &str, method: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => method.starts_with(prefix),
        None => pattern == method,
    }
}

impl GatewayMethodPolicy {
    /// Checks the patterns: non-empty, at most 128 bytes, ASCII letters,
    /// digits and `_`, with `*` only as the last character.
    pub fn validate(&self) -> Result<()> {
        for pattern in self.allow.iter().chain(&self.deny) {
            let name = pattern.strip_suffix('*').unwrap_or(pattern);
            let ok = !pattern.is_empty()
                && pattern.len() <= 128
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !ok {
                return Err(Error::InvalidInput {
                    what: "method pattern",
                    reason: format!("{pattern:?} is not a method name or a prefix ending in *"),
                });
            }
        }
        Ok(())
    }

    /// What the gateway of a chain in CAIP-2 `namespace` does with `method`.
    pub fn verdict(&self, namespace: &str, method: &str) -> GatewayVerdict {
        if self.deny.iter().any(|p| pattern_matches(p, method)) {
            return GatewayVerdict::Refuse;
        }
        if self.allow.iter().any(|p| pattern_matches(p, method)) {
            return GatewayVerdict::Forward;
        }
        let defaults: &[&str] = match namespace {
            "eip155" => &EIP155_GATEWAY_METHODS,
            "solana" => &SOLANA_GATEWAY_METHODS,
            _ => &[],
        };
        if defaults.contains(&method) {
            GatewayVerdict::Forward
        } else if namespace == "eip155" && method == "eth_accounts" {
            GatewayVerdict::NoAccounts
        } else {
            GatewayVerdict::Refuse
        }
    }
}

/// Whether `method` opens a subscription (`eth_subscribe`, Solana's `*Subscribe`).
pub fn is_subscribe_method(method: &str) -> bool {
    method == "eth_subscribe" || (method.ends_with("Subscribe") && method.len() > "Subscribe".len())
}

/// Whether `method` closes a subscription (`eth_unsubscribe`, Solana's `*Unsubscribe`).
pub fn is_unsubscribe_method(method: &str) -> bool {
    method == "eth_unsubscribe" || (method.ends_with("Unsubscribe") && method.len() > "Unsubscribe".len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| (*s).to_owned()).collect()
    }

    // Behaviour 2.3: "Wallets with a restricted reverse-DNS id or name are hidden."
    #[test]
    fn restricted_wallets() {
        let restricted = RestrictedWallets {
            rdns: strings(&["io.metamask"]),
            names: strings(&["Phantom"]),
        };
        for (rdns, name, hidden) in [
            (Some("io.metamask"), Some("MetaMask"), true),
            (Some("IO.METAMASK"), None, true),
            (None, Some("phantom"), true),
            (Some("app.phantom"), Some("Phantom"), true),
            (Some("com.coinbase.wallet"), Some("Coinbase Wallet"), false),
            (None, None, false),
        ] {
            assert_eq!(restricted.hides(rdns, name), hidden, "{rdns:?} {name:?}");
        }
        assert!(!RestrictedWallets::default().hides(Some("io.metamask"), Some("MetaMask")));
    }

    // Behaviour 2.3: "the browser-wallet injected connector is hidden on desktop if none is installed."
    #[test]
    fn injected_connector_visibility() {
        for (is_desktop, injected_installed, hide) in [
            (true, false, true),
            (true, true, false),
            (false, false, false),
            (false, true, false),
        ] {
            let context = InjectedConnectorContext {
                is_desktop,
                injected_installed,
            };
            assert_eq!(should_hide_injected_connector(context), hide);
        }
    }

    // Behaviour 5.16: "In a Telegram mini-app, socials are filtered: iOS removes google, Mac removes x,
    // Android removes facebook and x."
    #[test]
    fn telegram_socials() {
        let all = strings(&DEFAULT_SOCIALS);
        let without = |removed: &[&str]| -> Vec<String> {
            all.iter().filter(|s| !removed.contains(&s.as_str())).cloned().collect()
        };
        assert_eq!(filter_telegram_socials(&all, "ios"), without(&["google"]));
        assert_eq!(filter_telegram_socials(&all, "iOS"), without(&["google"]));
        assert_eq!(filter_telegram_socials(&all, "mac"), without(&["x"]));
        assert_eq!(filter_telegram_socials(&all, "macos"), without(&["x"]));
        assert_eq!(filter_telegram_socials(&all, "android"), without(&["facebook", "x"]));
        assert_eq!(filter_telegram_socials(&all, "windows"), all);
    }

    // Behaviour 1.10: "Connect-method order defaults to email, social, wallet; another reading gives
    // wallet, email, social, or the default order when no injected or announced wallet is shown."
    #[test]
    fn connect_method_orders() {
        use ConnectMethod::*;
        let order = |configured: Option<Vec<ConnectMethod>>, shown: Option<bool>| {
            connect_method_order(&ConnectMethodOrderRequest {
                configured,
                installed_wallet_shown: shown,
            })
        };
        assert_eq!(order(None, None).unwrap(), [Email, Social, Wallet]);
        assert_eq!(order(None, Some(false)).unwrap(), [Email, Social, Wallet]);
        assert_eq!(order(None, Some(true)).unwrap(), [Wallet, Email, Social]);
        assert_eq!(order(Some(vec![Social, Wallet]), Some(true)).unwrap(), [Social, Wallet]);
        assert_eq!(
            order(Some(vec![]), None).unwrap_err().to_string(),
            "Invalid connect method order: name at least one of email, social, wallet"
        );
        assert_eq!(
            order(Some(vec![Email, Email]), None).unwrap_err().to_string(),
            "Invalid connect method order: a method is listed twice"
        );
    }

    // Behaviour 7.9: "Default features on: swaps, onramp, receive, send, email, emailShowWallets,
    // history, analytics, allWallets. Off: legalCheckbox, smartSessions, collapseWallets."
    #[test]
    fn default_features_on_and_off() {
        let f = DEFAULT_FEATURES;
        assert!(f.swaps && f.onramp && f.receive && f.send && f.email && f.email_show_wallets);
        assert!(f.history && f.analytics && f.all_wallets);
        assert!(!f.legal_checkbox && !f.smart_sessions && !f.collapse_wallets);
    }

    // Behaviour 5.18: safe reads, approvals, and "Unknown methods are rejected".
    #[test]
    fn rpc_classes() {
        for (method, class) in [
            ("eth_call", RpcMethodClass::Safe),
            ("eth_getBalance", RpcMethodClass::Safe),
            ("eth_sendRawTransaction", RpcMethodClass::Safe),
            ("wallet_getCallsStatus", RpcMethodClass::Safe),
            ("eth_getUserOperationReceipt", RpcMethodClass::Safe),
            ("personal_sign", RpcMethodClass::Approval),
            ("solana_signAndSendTransaction", RpcMethodClass::Approval),
            ("eth_sendUserOperation", RpcMethodClass::Approval),
            ("eth_sign", RpcMethodClass::NotAllowed),
            ("eth_signTypedData", RpcMethodClass::NotAllowed),
            ("wallet_switchEthereumChain", RpcMethodClass::NotAllowed),
            ("ETH_CALL", RpcMethodClass::NotAllowed),
            ("", RpcMethodClass::NotAllowed),
        ] {
            assert_eq!(classify_rpc_method(method), class, "{method}");
        }
        assert_eq!(assert_rpc_method_allowed("personal_sign"), Ok(RpcMethodClass::Approval));
        assert_eq!(
            assert_rpc_method_allowed("eth_sign").unwrap_err().to_string(),
            "Requested RPC call is not allowed"
        );
    }

    #[test]
    fn rpc_lists_are_disjoint() {
        assert!(SAFE_RPC_METHODS.iter().all(|m| !APPROVAL_RPC_METHODS.contains(m)));
    }

    // Issue 23: node-admin, test-node and wallet-only methods never reach a node.
    #[test]
    fn gateway_defaults() {
        let policy = GatewayMethodPolicy::default();
        for method in [
            "eth_call",
            "eth_getLogs",
            "eth_sendRawTransaction",
            "eth_subscribe",
            "net_version",
            "web3_clientVersion",
        ] {
            assert_eq!(policy.verdict("eip155", method), GatewayVerdict::Forward, "{method}");
        }
        for method in [
            "anvil_setCode",
            "hardhat_mine",
            "evm_mine",
            "debug_traceTransaction",
            "admin_peers",
            "personal_sign",
            "txpool_content",
            "miner_start",
            "eth_sign",
            "eth_signTransaction",
            "eth_signTypedData_v4",
            "eth_sendTransaction",
            "eth_sendUnsignedTransaction",
            "eth_coinbase",
            "ETH_CALL",
            "",
            "getBalance",
        ] {
            assert_eq!(policy.verdict("eip155", method), GatewayVerdict::Refuse, "{method}");
        }
        assert_eq!(policy.verdict("eip155", "eth_accounts"), GatewayVerdict::NoAccounts);
        for method in [
            "getBalance",
            "sendTransaction",
            "simulateTransaction",
            "accountSubscribe",
            "slotUnsubscribe",
        ] {
            assert_eq!(policy.verdict("solana", method), GatewayVerdict::Forward, "{method}");
        }
        for method in ["requestAirdrop", "eth_chainId", "eth_accounts", "setAccount"] {
            assert_eq!(policy.verdict("solana", method), GatewayVerdict::Refuse, "{method}");
        }
        assert_eq!(policy.verdict("bip122", "getblockcount"), GatewayVerdict::Refuse);
    }

    #[test]
    fn gateway_allow_and_deny() {
        let policy = GatewayMethodPolicy {
            allow: strings(&["requestAirdrop", "anvil_*", "eth_accounts"]),
            deny: strings(&["anvil_setCode", "eth_getLogs", "debug_*"]),
        };
        policy.validate().unwrap();
        assert_eq!(policy.verdict("solana", "requestAirdrop"), GatewayVerdict::Forward);
        assert_eq!(policy.verdict("eip155", "anvil_mine"), GatewayVerdict::Forward);
        assert_eq!(policy.verdict("eip155", "anvil_setCode"), GatewayVerdict::Refuse);
        assert_eq!(policy.verdict("eip155", "eth_getLogs"), GatewayVerdict::Refuse);
        assert_eq!(policy.verdict("eip155", "debug_traceCall"), GatewayVerdict::Refuse);
        assert_eq!(policy.verdict("eip155", "eth_accounts"), GatewayVerdict::Forward);
        for bad in ["", "*a", "a b", "eth_*x", "eth.call"] {
            let policy = GatewayMethodPolicy {
                allow: strings(&[bad]),
                deny: vec![],
            };
            assert!(policy.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn subscription_methods() {
        assert!(is_subscribe_method("eth_subscribe") && is_subscribe_method("logsSubscribe"));
        assert!(!is_subscribe_method("Subscribe") && !is_subscribe_method("eth_unsubscribe"));
        assert!(is_unsubscribe_method("eth_unsubscribe") && is_unsubscribe_method("slotUnsubscribe"));
        assert!(!is_unsubscribe_method("Unsubscribe") && !is_unsubscribe_method("logsSubscribe"));
    }

    #[test]
    fn gateway_lists_have_no_repeats() {
        for list in [&EIP155_GATEWAY_METHODS[..], &SOLANA_GATEWAY_METHODS[..]] {
            assert!(list.iter().enumerate().all(|(i, m)| !list[..i].contains(m)));
        }
    }

    proptest! {
        #[test]
        fn gateway_verdict_never_panics(method in "\\PC*", pattern in "\\PC*") {
            let policy = GatewayMethodPolicy { allow: vec![pattern.clone()], deny: vec![pattern] };
            let _ = policy.validate();
            prop_assert_ne!(policy.verdict("eip155", &method), GatewayVerdict::Forward);
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", list in proptest::collection::vec("\\PC*", 0..5)) {
            let _ = classify_rpc_method(&s);
            let _ = assert_rpc_method_allowed(&s);
            let kept = filter_telegram_socials(&list, &s);
            prop_assert!(kept.len() <= list.len());
            let restricted = RestrictedWallets { rdns: list.clone(), names: list.clone() };
            let _ = restricted.hides(Some(&s), Some(&s));
        }
    }
}
