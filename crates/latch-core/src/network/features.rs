//! What each namespace holds and supports: account types (behaviour 3.9) and
//! the features that depend on the namespace (behaviour 3.10), in the Account view's order.

use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::{Error, Result};

/// The kinds of account a namespace can hold (behaviour 2.11 Account entity).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AccountType {
    /// An externally owned account (a key pair).
    Eoa,
    /// A smart-contract account.
    SmartAccount,
    /// A Bitcoin payment address.
    Payment,
}

impl AccountType {
    /// The name JS and storage use.
    pub fn as_str(self) -> &'static str {
        match self {
            AccountType::Eoa => "eoa",
            AccountType::SmartAccount => "smartAccount",
            AccountType::Payment => "payment",
        }
    }
}

/// The account type a namespace uses unless the user prefers another (behaviour 3.9);
/// `None` for a namespace the kit does not connect to.
pub fn default_account_type(namespace: &str) -> Option<AccountType> {
    match namespace {
        "eip155" => Some(AccountType::SmartAccount),
        "solana" | "polkadot" => Some(AccountType::Eoa),
        "bip122" => Some(AccountType::Payment),
        _ => None,
    }
}

/// Features whose availability depends on the namespace (behaviour 3.10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NamespaceFeature {
    /// Token balances.
    Balances,
    /// Name lookup and registration.
    Names,
    /// Transaction history.
    Activity,
    /// Buying crypto.
    Onramp,
    /// The e-mail/social auth connector.
    EmbeddedWallet,
    /// Token swaps.
    Swaps,
    /// The Receive view (the account's address as a QR code).
    Receive,
    /// Sending native and token funds.
    Send,
}

impl NamespaceFeature {
    /// The JS names, in declaration order.
    pub const NAMES: [&'static str; 8] = [
        "balances",
        "names",
        "activity",
        "onramp",
        "embeddedWallet",
        "swaps",
        "receive",
        "send",
    ];

    fn namespaces(self) -> &'static [&'static str] {
        match self {
            NamespaceFeature::Balances
            | NamespaceFeature::Onramp
            | NamespaceFeature::EmbeddedWallet
            | NamespaceFeature::Receive
            | NamespaceFeature::Send => &["eip155", "solana"],
            NamespaceFeature::Names | NamespaceFeature::Activity | NamespaceFeature::Swaps => &["eip155"],
        }
    }
}

impl FromStr for NamespaceFeature {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Ok(match s {
            "balances" => NamespaceFeature::Balances,
            "names" => NamespaceFeature::Names,
            "activity" => NamespaceFeature::Activity,
            "onramp" => NamespaceFeature::Onramp,
            "embeddedWallet" => NamespaceFeature::EmbeddedWallet,
            "swaps" => NamespaceFeature::Swaps,
            "receive" => NamespaceFeature::Receive,
            "send" => NamespaceFeature::Send,
            _ => {
                return Err(Error::InvalidInput {
                    what: "feature",
                    reason: format!("expected one of {}", Self::NAMES.join(", ")),
                })
            }
        })
    }
}

/// Whether `feature` works on `namespace` (behaviour 3.10): balances and onramp on eip155
/// and solana, names and activity on eip155; the auth connector (embedded
/// wallet) on eip155 and solana; receive and send on eip155 and solana (the
/// kit sends on both), swaps on eip155 only.
pub fn supports_feature(feature: NamespaceFeature, namespace: &str) -> bool {
    feature.namespaces().contains(&namespace)
}

/// The Account view's wallet features that work on `namespace`, in the documented
/// order (behaviour 1.12 "Wallet feature order"; `onramp`, `swaps`, `receive`, `send`).
/// Whether the app turned each on (`features`) is for the caller to apply.
pub fn wallet_features(namespace: &str) -> Vec<&'static str> {
    // Not through `FromStr`: its error text would pull formatting into the small `core` wasm module.
    const ORDER: [(&str, NamespaceFeature); 4] = [
        ("onramp", NamespaceFeature::Onramp),
        ("swaps", NamespaceFeature::Swaps),
        ("receive", NamespaceFeature::Receive),
        ("send", NamespaceFeature::Send),
    ];
    ORDER
        .into_iter()
        .filter(|&(_, feature)| supports_feature(feature, namespace))
        .map(|(name, _)| name)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    // Behaviour 3.9: "eip155 smartAccount by default, solana and polkadot eoa, bip122 payment."
    #[test]
    fn account_types() {
        assert_eq!(default_account_type("eip155"), Some(AccountType::SmartAccount));
        assert_eq!(default_account_type("solana"), Some(AccountType::Eoa));
        assert_eq!(default_account_type("polkadot"), Some(AccountType::Eoa));
        assert_eq!(default_account_type("bip122").map(AccountType::as_str), Some("payment"));
        assert_eq!(default_account_type("cosmos"), None);
    }

    // Behaviour 3.10: "balances on eip155 and solana; names and activity on eip155; onramp on eip155 and solana.
    // The auth connector supports eip155 and solana."
    #[test]
    fn feature_matrix() {
        let table = [
            ("balances", [true, true, false, false]),
            ("names", [true, false, false, false]),
            ("activity", [true, false, false, false]),
            ("onramp", [true, true, false, false]),
            ("embeddedWallet", [true, true, false, false]),
            ("swaps", [true, false, false, false]),
            ("receive", [true, true, false, false]),
            ("send", [true, true, false, false]),
        ];
        for (feature, expected) in table {
            let feature: NamespaceFeature = feature.parse().unwrap();
            for (namespace, want) in ["eip155", "solana", "polkadot", "bip122"].into_iter().zip(expected) {
                assert_eq!(supports_feature(feature, namespace), want, "{feature:?} {namespace}");
            }
        }
        assert_eq!(
            "bridges".parse::<NamespaceFeature>().unwrap_err().to_string(),
            "Invalid feature: expected one of balances, names, activity, onramp, embeddedWallet, swaps, receive, send"
        );
        for name in NamespaceFeature::NAMES {
            assert!(name.parse::<NamespaceFeature>().is_ok(), "{name}");
        }
    }

    // Behaviour 1.12 "Wallet feature order: onramp, swaps, receive, send", each where behaviour 3.10 supports it.
    #[test]
    fn wallet_features_in_order_per_namespace() {
        assert_eq!(wallet_features("eip155"), ["onramp", "swaps", "receive", "send"]);
        assert_eq!(wallet_features("solana"), ["onramp", "receive", "send"]);
        assert!(wallet_features("bip122").is_empty());
        assert!(wallet_features("").is_empty());
        // The same order as the policy's, each name a feature this module knows.
        assert_eq!(wallet_features("eip155"), crate::policy::WALLET_FEATURE_ORDER);
        for name in crate::policy::WALLET_FEATURE_ORDER {
            assert!(name.parse::<NamespaceFeature>().is_ok(), "{name}");
        }
    }
}
