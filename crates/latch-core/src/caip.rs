//! CAIP-2 network ids and CAIP-10 account ids (behaviour 2.12 "Address formats").

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::{Error, Result};

/// The chain namespaces the kit connects to (behaviour 3.1).
pub const SUPPORTED_NAMESPACES: [&str; 4] = ["eip155", "solana", "polkadot", "bip122"];

/// Every namespace an account id may name (behaviour 3.1, 2.12 "with a known
/// namespace"): the supported ones and those the sign-in layer recognises.
/// (`multiversx`, which behaviour 3.1 also names, is longer than CAIP-2's 8 characters:
/// its accounts are written under `elrond`.)
pub const KNOWN_NAMESPACES: [&str; 10] = [
    "eip155", "solana", "polkadot", "bip122", "cosmos", "algorand", "cip34", "elrond", "near", "tezos",
];

/// A CAIP-2 network id, `namespace:reference`, e.g. `eip155:1`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaipNetworkId {
    /// `[-a-z0-9]{3,8}`, e.g. `eip155`.
    pub namespace: String,
    /// `[-_a-zA-Z0-9]{1,32}`, e.g. `1`.
    pub reference: String,
}

/// A CAIP-10 account id, `namespace:reference:address`.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaipAddress {
    /// The network the account lives on.
    #[serde(flatten)]
    pub network: CaipNetworkId,
    /// `[-.%a-zA-Z0-9]{1,128}`, the chain-specific address.
    pub address: String,
}

// Grammar from CAIP-2 and CAIP-10; behaviour only demands the part count, but
// the grammar keeps delimiters and markup out of ids that end up in URLs and logs.
fn is_namespace(s: &str) -> bool {
    (3..=8).contains(&s.len())
        && s.bytes()
            .all(|b| b == b'-' || b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn is_reference(s: &str) -> bool {
    (1..=32).contains(&s.len()) && s.bytes().all(|b| b == b'-' || b == b'_' || b.is_ascii_alphanumeric())
}

fn is_account_address(s: &str) -> bool {
    (1..=128).contains(&s.len())
        && s.bytes()
            .all(|b| matches!(b, b'-' | b'.' | b'%') || b.is_ascii_alphanumeric())
}

impl CaipNetworkId {
    /// Parses `namespace:reference`; anything else is `Invalid CAIP-2 network id`.
    pub fn parse(input: &str) -> Result<Self> {
        let invalid = || Error::InvalidCaipNetworkId {
            input: input.to_owned(),
        };
        let (namespace, reference) = input.split_once(':').ok_or_else(invalid)?;
        if !is_namespace(namespace) || !is_reference(reference) {
            return Err(invalid());
        }
        Ok(Self {
            namespace: namespace.to_owned(),
            reference: reference.to_owned(),
        })
    }

    /// The `eip155` network of an EVM chain id as wallets report it
    /// (`eth_chainId` answers `0x7a69`; decimal `31337` is accepted too).
    pub fn eip155(chain_id: &str) -> Result<Self> {
        let invalid = || Error::InvalidCaipNetworkId {
            input: chain_id.to_owned(),
        };
        let number = match chain_id.strip_prefix("0x") {
            Some(hex) if !hex.is_empty() && hex.bytes().all(|b| b.is_ascii_hexdigit()) => {
                u64::from_str_radix(hex, 16).map_err(|_| invalid())?
            }
            None if !chain_id.is_empty() && chain_id.bytes().all(|b| b.is_ascii_digit()) => {
                chain_id.parse().map_err(|_| invalid())?
            }
            _ => return Err(invalid()),
        };
        Ok(Self {
            namespace: "eip155".into(),
            reference: number.to_string(),
        })
    }

    /// The chain id as EIP-1193 wallets take it (`wallet_switchEthereumChain`,
    /// `wallet_addEthereumChain`): `eip155:31337` → `0x7a69`. Other namespaces,
    /// and references beyond `u64`, are `Invalid CAIP-2 network id`.
    pub fn eip155_chain_id_hex(&self) -> Result<String> {
        let number: u64 = match self.namespace.as_str() {
            "eip155" if self.reference.bytes().all(|b| b.is_ascii_digit()) => self.reference.parse().ok(),
            _ => None,
        }
        .ok_or_else(|| Error::InvalidCaipNetworkId {
            input: self.to_string(),
        })?;
        Ok(format!("{number:#x}"))
    }

    /// Whether the kit can connect to this namespace (behaviour 3.1).
    pub fn is_supported_namespace(&self) -> bool {
        SUPPORTED_NAMESPACES.contains(&self.namespace.as_str())
    }
}

impl fmt::Display for CaipNetworkId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.namespace, self.reference)
    }
}

impl FromStr for CaipNetworkId {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

impl CaipAddress {
    /// Parses `namespace:reference:address` on a known namespace
    /// ([`KNOWN_NAMESPACES`]); anything else is `Invalid CAIP-10 address`.
    pub fn parse(input: &str) -> Result<Self> {
        let invalid = || Error::InvalidCaip10Address {
            input: input.to_owned(),
        };
        let mut parts = input.split(':');
        let (Some(namespace), Some(reference), Some(address), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        else {
            return Err(invalid());
        };
        let known = KNOWN_NAMESPACES.contains(&namespace);
        if !known || !is_namespace(namespace) || !is_reference(reference) || !is_account_address(address) {
            return Err(invalid());
        }
        Ok(Self {
            network: CaipNetworkId {
                namespace: namespace.to_owned(),
                reference: reference.to_owned(),
            },
            address: address.to_owned(),
        })
    }

    /// The check applied to addresses reported by connectors: a well-formed
    /// CAIP-10 id on a namespace the kit supports, else `Invalid CAIP Address`.
    pub fn validate(input: &str) -> Result<Self> {
        match Self::parse(input) {
            Ok(parsed) if parsed.network.is_supported_namespace() => Ok(parsed),
            _ => Err(Error::InvalidCaipAddress {
                input: input.to_owned(),
            }),
        }
    }
}

impl fmt::Display for CaipAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.network, self.address)
    }
}

impl FromStr for CaipAddress {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Self::parse(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Behaviour 2.12: "CAIP network id: exactly 2 parts, else Invalid CAIP-2 network id."
    #[test]
    fn network_id_needs_exactly_two_parts() {
        let ok = CaipNetworkId::parse("eip155:31337").unwrap();
        assert_eq!((ok.namespace.as_str(), ok.reference.as_str()), ("eip155", "31337"));
        assert_eq!(
            CaipNetworkId::parse("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp")
                .unwrap()
                .to_string(),
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
        );
        for bad in [
            "",
            "eip155",
            "eip155:",
            ":1",
            "eip155:1:0xabc",
            "EIP155:1",
            "e:1",
            "eip155:1 ",
            "eip155:a/b",
        ] {
            let err = CaipNetworkId::parse(bad).unwrap_err();
            assert_eq!(err.to_string(), "Invalid CAIP-2 network id", "{bad:?}");
        }
    }

    #[test]
    fn eip155_from_wallet_chain_ids() {
        assert_eq!(CaipNetworkId::eip155("0x7a69").unwrap().to_string(), "eip155:31337");
        assert_eq!(CaipNetworkId::eip155("0x1").unwrap().to_string(), "eip155:1");
        assert_eq!(CaipNetworkId::eip155("137").unwrap().to_string(), "eip155:137");
        for bad in [
            "",
            "0x",
            "0xg",
            "-1",
            "1.0",
            "0x10000000000000000",
            "99999999999999999999",
        ] {
            assert_eq!(
                CaipNetworkId::eip155(bad).unwrap_err().to_string(),
                "Invalid CAIP-2 network id",
                "{bad:?}"
            );
        }
    }

    // Behaviour 2.12: "CAIP address: exactly 3 colon-separated non-empty parts ... else Invalid CAIP-10 address."
    #[test]
    fn caip10_needs_three_non_empty_parts() {
        let a = CaipAddress::parse("eip155:1:0x70997970C51812dc3A010C7d01b50e0d17dc79C8").unwrap();
        assert_eq!(a.network.to_string(), "eip155:1");
        assert_eq!(a.address, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8");
        for bad in [
            "",
            "eip155:1",
            "eip155:1:",
            "eip155::0xabc",
            ":1:0xabc",
            "eip155:1:0xabc:extra",
            "eip155:1:0x ab",
            // Well formed, but no namespace the kit or its sign-in knows.
            "foo:1:0xabc",
            "cosmo:cosmoshub-4:cosmos1abc",
        ] {
            assert_eq!(
                CaipAddress::parse(bad).unwrap_err().to_string(),
                "Invalid CAIP-10 address",
                "{bad:?}"
            );
        }
    }

    // Behaviour 2.12: "... with a known namespace, else Invalid CAIP Address."
    #[test]
    fn connector_addresses_need_a_supported_namespace() {
        assert!(CaipAddress::validate("bip122:000000000019d6689c085ae165831e93:bc1qabc").is_ok());
        for bad in ["cosmos:cosmoshub-4:cosmos1abc", "eip155:1", "eip155:1:"] {
            assert_eq!(
                CaipAddress::validate(bad).unwrap_err().to_string(),
                "Invalid CAIP Address",
                "{bad:?}"
            );
        }
    }

    proptest! {
        #[test]
        fn parse_never_panics(s in "\\PC*") {
            let _ = CaipNetworkId::parse(&s);
            let _ = CaipAddress::parse(&s);
            let _ = CaipAddress::validate(&s);
            let _ = CaipNetworkId::eip155(&s);
        }

        #[test]
        fn valid_ids_round_trip(
            ns in "[-a-z0-9]{3,8}",
            known in proptest::sample::select(KNOWN_NAMESPACES.as_slice()),
            reference in "[-_a-zA-Z0-9]{1,32}",
            addr in "[-.%a-zA-Z0-9]{1,128}",
        ) {
            let text = format!("{known}:{reference}:{addr}");
            let parsed = CaipAddress::parse(&text).unwrap();
            prop_assert_eq!(parsed.to_string(), text);
            let unknown = format!("{ns}:{reference}:{addr}");
            prop_assert_eq!(CaipAddress::parse(&unknown).is_ok(), KNOWN_NAMESPACES.contains(&ns.as_str()));
            // Network ids name any well-formed namespace (a host may list others' chains).
            let network = format!("{ns}:{reference}");
            prop_assert_eq!(CaipNetworkId::parse(&network).unwrap().to_string(), network);
        }

        #[test]
        fn eip155_hex_round_trips(chain_id in any::<u64>()) {
            let network = CaipNetworkId::eip155(&chain_id.to_string()).unwrap();
            let hex = network.eip155_chain_id_hex().unwrap();
            prop_assert_eq!(CaipNetworkId::eip155(&hex).unwrap(), network);
        }
    }

    #[test]
    fn eip155_hex_of_the_devnet_and_refusals() {
        let hex = |id: &str| CaipNetworkId::parse(id).unwrap().eip155_chain_id_hex();
        assert_eq!(hex("eip155:31337").unwrap(), "0x7a69");
        assert_eq!(hex("eip155:1").unwrap(), "0x1");
        for bad in [
            "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
            "eip155:99999999999999999999",
            "eip155:abc",
        ] {
            assert_eq!(hex(bad).unwrap_err().to_string(), "Invalid CAIP-2 network id", "{bad}");
        }
    }
}
