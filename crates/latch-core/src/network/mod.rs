//! Networks: the catalogue (behaviour 3.2 Network, behaviour 7.7), the unsupported-network
//! placeholder (behaviour 3.3), restoring the active network (behaviour 3.6 Networks), the add-chain
//! trigger codes (behaviour 3.7), account types and feature support per namespace (behaviour 3.9),
//! the embedded-wallet networks (behaviour 3.11) and on-ramp chain names (behaviour 7.6).
//!
//! Catalogue entries are public, well-known facts: names, currencies, public
//! RPC and explorer URLs. No entry carries `assets`: network images come from
//! the host or the wallet catalogue service, not from here.
//!
//! The wallet error codes live in `wallet_errors`, account types and
//! per-namespace features in `features`, the network at start in `restore`;
//! all are re-exported here.

use serde::{Deserialize, Serialize};

pub use self::features::{default_account_type, supports_feature, wallet_features, AccountType, NamespaceFeature};
pub use self::restore::{restore_network, start_network, RestoreNetworkRequest, StartNetwork};
pub use self::wallet_errors::{is_add_chain_trigger, is_user_rejection, ADD_CHAIN_TRIGGER_CODES, USER_REJECTION_CODES};
use crate::caip::CaipNetworkId;
use crate::{Error, Result};

mod features;
mod restore;
mod wallet_errors;

/// A network's own id: the chain id (a number) on `eip155`, the CAIP-2
/// reference (text) elsewhere, as wallet libraries expect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum NetworkId {
    /// An EVM chain id.
    Number(u64),
    /// The CAIP-2 reference of a non-EVM network.
    Text(String),
}

impl NetworkId {
    /// The id of `network`: a number when it is an `eip155` chain id that fits, else the reference.
    pub fn of(network: &CaipNetworkId) -> Self {
        match network.reference.parse() {
            Ok(number) if network.namespace == "eip155" => NetworkId::Number(number),
            _ => NetworkId::Text(network.reference.clone()),
        }
    }
}

// By hand rather than `#[serde(untagged)]`, which buffers the input and
// costs several kilobytes of wasm for a number-or-text choice.
impl<'de> Deserialize<'de> for NetworkId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct IdVisitor;
        impl serde::de::Visitor<'_> for IdVisitor {
            type Value = NetworkId;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a chain id (a non-negative integer) or a network reference (text)")
            }
            fn visit_u64<E: serde::de::Error>(self, id: u64) -> std::result::Result<NetworkId, E> {
                Ok(NetworkId::Number(id))
            }
            fn visit_i64<E: serde::de::Error>(self, id: i64) -> std::result::Result<NetworkId, E> {
                u64::try_from(id)
                    .map(NetworkId::Number)
                    .map_err(|_| E::invalid_value(serde::de::Unexpected::Signed(id), &self))
            }
            // JS numbers arrive as floats; only whole, non-negative, exact ones are chain ids.
            fn visit_f64<E: serde::de::Error>(self, id: f64) -> std::result::Result<NetworkId, E> {
                if id.fract() == 0.0 && (0.0..=9_007_199_254_740_992.0).contains(&id) {
                    Ok(NetworkId::Number(id as u64))
                } else {
                    Err(E::invalid_value(serde::de::Unexpected::Float(id), &self))
                }
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> std::result::Result<NetworkId, E> {
                Ok(NetworkId::Text(id.to_owned()))
            }
        }
        deserializer.deserialize_any(IdVisitor)
    }
}

/// A network the kit can connect to (behaviour 3.2). Serialises to the camelCase shape JS
/// wallet libraries use; optional parts are left out rather than `null`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Network {
    /// See [`NetworkId`].
    pub id: NetworkId,
    /// CAIP-2 `namespace:reference`.
    pub caip_network_id: String,
    /// The CAIP-2 namespace, e.g. `eip155`.
    pub chain_namespace: String,
    /// Display name.
    pub name: String,
    /// The coin gas is paid in.
    pub native_currency: NativeCurrency,
    /// JSON-RPC endpoints.
    pub rpc_urls: RpcUrls,
    /// Images, when the host provides them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub assets: Option<NetworkAssets>,
    /// The block explorer links open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_explorers: Option<BlockExplorers>,
    /// `true` on test networks; absent on mainnets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub testnet: Option<bool>,
}

/// A network's native coin (behaviour 3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NativeCurrency {
    /// e.g. `Ether`.
    pub name: String,
    /// e.g. `ETH`.
    pub symbol: String,
    /// Decimals of the base unit, e.g. 18.
    pub decimals: u8,
}

/// JSON-RPC endpoints (behaviour 3.2): `default` is used; `chainDefault` is the chain's
/// own public endpoint when `default` points at a proxy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RpcUrls {
    /// The endpoints used.
    pub default: RpcEndpoints,
    /// The chain's own endpoints, when `default` is a proxy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain_default: Option<RpcEndpoints>,
}

/// A list of HTTP endpoints.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RpcEndpoints {
    /// `http(s)://` URLs, best first.
    pub http: Vec<String>,
}

/// Network images (behaviour 3.2).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct NetworkAssets {
    /// An image id of the catalogue service.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_id: Option<String>,
    /// A direct image URL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
}

/// Block explorers; only the default one is used.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockExplorers {
    /// The explorer links open.
    pub default: BlockExplorer,
}

/// One block explorer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockExplorer {
    /// Display name.
    pub name: String,
    /// Base URL, without a trailing slash.
    pub url: String,
}

/// One catalogue row, kept compact so the table reads as data.
struct Entry {
    caip_network_id: &'static str,
    name: &'static str,
    /// Name, symbol, decimals.
    currency: (&'static str, &'static str, u8),
    rpc: &'static [&'static str],
    /// Name, URL.
    explorer: Option<(&'static str, &'static str)>,
    testnet: bool,
}

const ETHER: (&str, &str, u8) = ("Ether", "ETH", 18);

/// The local Solana chain (`scripts/solana-devnet`, litesvm-backed): `solana:` and the first 32
/// characters of its fixed genesis hash `62ezpasMJWZPGdzfoeZF6RAkYHVpfnLhQa8bSPWEMyLs`.
pub const LOCAL_SOLANA_DEVNET: &str = "solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh";

/// The 12 swap networks of behaviour 7.7, Solana and Bitcoin mainnet and test networks,
/// and the local devnets (an anvil node, `devnet/`; a litesvm node, `solana-devnet/`).
const CATALOGUE: [Entry; 18] = [
    Entry {
        caip_network_id: "eip155:1",
        name: "Ethereum",
        currency: ETHER,
        rpc: &["https://eth.merkle.io"],
        explorer: Some(("Etherscan", "https://etherscan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:42161",
        name: "Arbitrum One",
        currency: ETHER,
        rpc: &["https://arb1.arbitrum.io/rpc"],
        explorer: Some(("Arbiscan", "https://arbiscan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:10",
        name: "OP Mainnet",
        currency: ETHER,
        rpc: &["https://mainnet.optimism.io"],
        explorer: Some(("Optimism Explorer", "https://optimistic.etherscan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:324",
        name: "zkSync Era",
        currency: ETHER,
        rpc: &["https://mainnet.era.zksync.io"],
        explorer: Some(("zkSync Explorer", "https://explorer.zksync.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:8453",
        name: "Base",
        currency: ETHER,
        rpc: &["https://mainnet.base.org"],
        explorer: Some(("Basescan", "https://basescan.org")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:56",
        name: "BNB Smart Chain",
        currency: ("BNB", "BNB", 18),
        rpc: &["https://bsc-dataseed.bnbchain.org"],
        explorer: Some(("BscScan", "https://bscscan.com")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:137",
        name: "Polygon",
        currency: ("POL", "POL", 18),
        rpc: &["https://polygon-rpc.com"],
        explorer: Some(("PolygonScan", "https://polygonscan.com")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:100",
        name: "Gnosis",
        currency: ("xDAI", "XDAI", 18),
        rpc: &["https://rpc.gnosischain.com"],
        explorer: Some(("Gnosisscan", "https://gnosisscan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:43114",
        name: "Avalanche",
        currency: ("Avalanche", "AVAX", 18),
        rpc: &["https://api.avax.network/ext/bc/C/rpc"],
        explorer: Some(("SnowTrace", "https://snowtrace.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:250",
        name: "Fantom",
        currency: ("Fantom", "FTM", 18),
        rpc: &["https://rpcapi.fantom.network"],
        explorer: Some(("FTMScan", "https://ftmscan.com")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:8217",
        name: "Kaia",
        currency: ("Kaia", "KAIA", 18),
        rpc: &["https://public-en.node.kaia.io"],
        explorer: Some(("KaiaScan", "https://kaiascan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "eip155:1313161554",
        name: "Aurora",
        currency: ETHER,
        rpc: &["https://mainnet.aurora.dev"],
        explorer: Some(("Aurorascan", "https://aurorascan.dev")),
        testnet: false,
    },
    Entry {
        caip_network_id: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
        name: "Solana",
        currency: ("Solana", "SOL", 9),
        rpc: &["https://api.mainnet-beta.solana.com"],
        explorer: Some(("Solscan", "https://solscan.io")),
        testnet: false,
    },
    Entry {
        caip_network_id: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
        name: "Solana Devnet",
        currency: ("Solana", "SOL", 9),
        rpc: &["https://api.devnet.solana.com"],
        explorer: Some(("Solscan", "https://solscan.io")),
        testnet: true,
    },
    // Bitcoin has no public JSON-RPC endpoint: wallets reach their own nodes.
    Entry {
        caip_network_id: "bip122:000000000019d6689c085ae165831e93",
        name: "Bitcoin",
        currency: ("Bitcoin", "BTC", 8),
        rpc: &[],
        explorer: Some(("Mempool", "https://mempool.space")),
        testnet: false,
    },
    Entry {
        caip_network_id: "bip122:000000000933ea01ad0ee984209779ba",
        name: "Bitcoin Testnet",
        currency: ("Testnet Bitcoin", "tBTC", 8),
        rpc: &[],
        explorer: Some(("Mempool", "https://mempool.space/testnet")),
        testnet: true,
    },
    Entry {
        caip_network_id: "eip155:31337",
        name: "Latch Devnet",
        currency: ETHER,
        rpc: &["http://127.0.0.1:8545"],
        explorer: None,
        testnet: true,
    },
    Entry {
        caip_network_id: LOCAL_SOLANA_DEVNET,
        name: "Latch Solana Devnet",
        currency: ("Solana", "SOL", 9),
        rpc: &["http://127.0.0.1:8899"],
        explorer: None,
        testnet: true,
    },
];

impl Entry {
    fn to_network(&self) -> Network {
        // A unit test parses every catalogue id, so this cannot fail at run time.
        let id = CaipNetworkId::parse(self.caip_network_id).expect("catalogue ids are CAIP-2");
        let (currency_name, symbol, decimals) = self.currency;
        Network {
            id: NetworkId::of(&id),
            caip_network_id: self.caip_network_id.to_owned(),
            chain_namespace: id.namespace,
            name: self.name.to_owned(),
            native_currency: NativeCurrency {
                name: currency_name.to_owned(),
                symbol: symbol.to_owned(),
                decimals,
            },
            rpc_urls: RpcUrls {
                default: RpcEndpoints {
                    http: self.rpc.iter().map(|url| (*url).to_owned()).collect(),
                },
                chain_default: None,
            },
            assets: None,
            block_explorers: self.explorer.map(|(name, url)| BlockExplorers {
                default: BlockExplorer {
                    name: name.to_owned(),
                    url: url.to_owned(),
                },
            }),
            testnet: self.testnet.then_some(true),
        }
    }
}

/// Every catalogue network, in catalogue order.
pub fn networks() -> Vec<Network> {
    CATALOGUE.iter().map(Entry::to_network).collect()
}

/// The catalogue network with this CAIP-2 id; `None` when it is not in the
/// catalogue, `Invalid CAIP-2 network id` when the id is malformed.
pub fn network(caip_network_id: &str) -> Result<Option<Network>> {
    CaipNetworkId::parse(caip_network_id)?;
    Ok(CATALOGUE
        .iter()
        .find(|entry| entry.caip_network_id == caip_network_id)
        .map(Entry::to_network))
}

/// The fixed name of the unsupported-network placeholder (behaviour 3.3).
pub const UNSUPPORTED_NETWORK_NAME: &str = "Unknown Network";

/// The placeholder that stands in for a network the app did not request (behaviour 3.3):
/// the fixed [`UNSUPPORTED_NETWORK_NAME`], an empty currency (empty name and
/// symbol, 0 decimals) and an empty `default` RPC list. It keeps the id of the
/// network the wallet is on, so the UI can still say which one; without an id
/// (the wallet named none) `id`, `caipNetworkId` and `chainNamespace` are empty.
pub fn unsupported_network_placeholder(caip_network_id: Option<&str>) -> Result<Network> {
    let (id, caip_network_id, chain_namespace) = match caip_network_id {
        Some(text) => {
            let parsed = CaipNetworkId::parse(text)?;
            (NetworkId::of(&parsed), text.to_owned(), parsed.namespace)
        }
        None => (NetworkId::Text(String::new()), String::new(), String::new()),
    };
    Ok(Network {
        id,
        caip_network_id,
        chain_namespace,
        name: UNSUPPORTED_NETWORK_NAME.to_owned(),
        native_currency: NativeCurrency {
            name: String::new(),
            symbol: String::new(),
            decimals: 0,
        },
        rpc_urls: RpcUrls {
            default: RpcEndpoints { http: Vec::new() },
            chain_default: None,
        },
        assets: None,
        block_explorers: None,
        testnet: None,
    })
}

/// A network given either in full or by the CAIP-2 id of a catalogue network.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NetworkChoice {
    /// A catalogue network, by CAIP-2 id.
    Id(String),
    /// A network described by the host.
    Network(Box<Network>),
}

// By hand rather than `#[serde(untagged)]`: untagged buffers the input and
// deserialises `Network` a second time, which doubles its code in the wasm.
impl<'de> Deserialize<'de> for NetworkChoice {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        struct ChoiceVisitor;
        impl<'de> serde::de::Visitor<'de> for ChoiceVisitor {
            type Value = NetworkChoice;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a network object or a CAIP-2 network id")
            }
            fn visit_str<E: serde::de::Error>(self, id: &str) -> std::result::Result<NetworkChoice, E> {
                Ok(NetworkChoice::Id(id.to_owned()))
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, map: A) -> std::result::Result<NetworkChoice, A::Error> {
                let network = Network::deserialize(serde::de::value::MapAccessDeserializer::new(map))?;
                Ok(NetworkChoice::Network(Box::new(network)))
            }
        }
        deserializer.deserialize_any(ChoiceVisitor)
    }
}

impl NetworkChoice {
    /// The network itself: a catalogue id is looked up (`Network not found` when
    /// absent); a full network must carry a valid CAIP-2 id.
    pub fn resolve(self) -> Result<Network> {
        match self {
            NetworkChoice::Id(id) => network(&id)?.ok_or(Error::NetworkNotFound { caip_network_id: id }),
            NetworkChoice::Network(network) => {
                CaipNetworkId::parse(&network.caip_network_id)?;
                Ok(*network)
            }
        }
    }
}

/// The networks the embedded (e-mail/social) wallet works on (behaviour 3.11, "about 27").
/// The behaviour docs do not list them; these are the large EVM mainnets with their
/// official test networks, Solana's three clusters and the local devnet.
pub const EMBEDDED_WALLET_NETWORKS: [&str; 27] = [
    // EVM mainnets
    "eip155:1",
    "eip155:10",
    "eip155:56",
    "eip155:100",
    "eip155:137",
    "eip155:324",
    "eip155:8453",
    "eip155:42161",
    "eip155:42220",
    "eip155:43114",
    "eip155:59144",
    "eip155:534352",
    "eip155:7777777",
    // EVM test networks
    "eip155:11155111",
    "eip155:11155420",
    "eip155:421614",
    "eip155:84532",
    "eip155:80002",
    "eip155:300",
    "eip155:97",
    "eip155:43113",
    "eip155:44787",
    "eip155:59141",
    "eip155:31337",
    // Solana mainnet, devnet, testnet
    "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
    "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
    "solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z",
];

/// On-ramp provider chain names by CAIP-2 id (behaviour 7.6).
const ONRAMP_CHAINS: [(&str, &str); 8] = [
    ("eip155:1", "ethereum"),
    ("eip155:42161", "arbitrum"),
    ("eip155:137", "polygon"),
    ("eip155:80094", "berachain"),
    ("eip155:43114", "avalanche-c-chain"),
    ("eip155:10", "optimism"),
    ("eip155:42220", "celo"),
    ("eip155:8453", "base"),
];

/// The chain the on-ramp provider uses when the network has no name of its own (behaviour 7.6).
pub const ONRAMP_FALLBACK_CHAIN: &str = "ethereum";

/// The on-ramp provider's chain name for a network, `ethereum` when it has
/// none (behaviour 7.6); `Invalid CAIP-2 network id` when the id is malformed.
pub fn onramp_chain(caip_network_id: &str) -> Result<&'static str> {
    CaipNetworkId::parse(caip_network_id)?;
    Ok(ONRAMP_CHAINS
        .iter()
        .find(|(id, _)| *id == caip_network_id)
        .map_or(ONRAMP_FALLBACK_CHAIN, |(_, chain)| chain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::constants::CONSTANTS;
    use proptest::prelude::*;

    const DEVNET: &str = "eip155:31337";
    const SOLANA: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

    // Behaviour 7.7: "Swap-supported networks (12)" and behaviour 3.2 Network fields: all in the catalogue, well formed.
    #[test]
    fn catalogue_covers_swap_networks_and_is_well_formed() {
        let all = networks();
        for chain_id in CONSTANTS.swap.supported_chain_ids {
            let found = network(&format!("eip155:{chain_id}")).unwrap().expect("swap network");
            assert_eq!(found.id, NetworkId::Number(chain_id));
        }
        let mut ids: Vec<_> = all.iter().map(|n| n.caip_network_id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), all.len(), "no duplicate ids");
        for n in &all {
            let parsed = CaipNetworkId::parse(&n.caip_network_id).unwrap();
            assert_eq!(parsed.namespace, n.chain_namespace);
            assert!(parsed.is_supported_namespace());
            assert!(n
                .rpc_urls
                .default
                .http
                .iter()
                .all(|u| u.starts_with("https://") || u.starts_with("http://127.0.0.1")));
        }
    }

    #[test]
    fn devnet_and_non_evm_ids() {
        let devnet = network(DEVNET).unwrap().unwrap();
        assert_eq!(devnet.name, "Latch Devnet");
        assert_eq!(devnet.rpc_urls.default.http, ["http://127.0.0.1:8545"]);
        assert_eq!(devnet.testnet, Some(true));
        assert_eq!(
            network(SOLANA).unwrap().unwrap().id,
            NetworkId::Text("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp".into())
        );
        assert_eq!(network("eip155:999999").unwrap(), None);
        assert_eq!(network("nope").unwrap_err().to_string(), "Invalid CAIP-2 network id");
    }

    // Behaviour 3.3: "The unsupported-network placeholder has a fixed unsupported label, empty currency and empty rpc list."
    #[test]
    fn placeholder_shape() {
        let p = unsupported_network_placeholder(Some("eip155:5")).unwrap();
        assert_eq!(p.id, NetworkId::Number(5));
        assert_eq!(
            (p.name.as_str(), p.chain_namespace.as_str()),
            (UNSUPPORTED_NETWORK_NAME, "eip155")
        );
        assert_eq!(p.native_currency.decimals, 0);
        assert!(p.native_currency.symbol.is_empty() && p.rpc_urls.default.http.is_empty());
        let blank = unsupported_network_placeholder(None).unwrap();
        assert_eq!(blank.caip_network_id, "");
        assert!(unsupported_network_placeholder(Some("x")).is_err());
    }

    fn restore(stored: Option<&str>, requested: &[&str], default: Option<&str>) -> Option<String> {
        restore_network(RestoreNetworkRequest {
            stored: stored.map(Into::into),
            requested: requested.iter().map(|id| NetworkChoice::Id((*id).into())).collect(),
            default_network: default.map(|id| NetworkChoice::Id(id.into())),
            namespaces: None,
        })
        .unwrap()
        .map(|n| format!("{} {}", n.caip_network_id, n.name))
    }

    // Behaviour 3.6: "A restored network is the stored one if it is in the requested list; else the
    // placeholder if its namespace is known; else a default or the first requested network."
    #[test]
    fn restore_rule() {
        let requested = ["eip155:1", DEVNET];
        assert_eq!(
            restore(Some(DEVNET), &requested, None).unwrap(),
            "eip155:31337 Latch Devnet"
        );
        assert_eq!(
            restore(Some("eip155:5"), &requested, Some(DEVNET)).unwrap(),
            "eip155:5 Unknown Network"
        );
        assert_eq!(
            restore(Some(SOLANA), &requested, Some(DEVNET)).unwrap(),
            "eip155:31337 Latch Devnet"
        );
        assert_eq!(restore(Some(SOLANA), &requested, None).unwrap(), "eip155:1 Ethereum");
        assert_eq!(restore(None, &requested, None).unwrap(), "eip155:1 Ethereum");
        assert_eq!(restore(Some("garbage"), &requested, None).unwrap(), "eip155:1 Ethereum");
        assert_eq!(restore(None, &[], None), None);
        let err = restore_network(RestoreNetworkRequest {
            requested: vec![NetworkChoice::Id("eip155:999999".into())],
            ..Default::default()
        })
        .unwrap_err();
        assert_eq!(err.to_string(), "Network not found");
    }

    #[test]
    fn ids_deserialise_from_numbers_and_text() {
        let id = |json: &str| serde_json::from_str::<NetworkId>(json);
        assert_eq!(id("31337").unwrap(), NetworkId::Number(31337));
        assert_eq!(id("1.0").unwrap(), NetworkId::Number(1));
        assert_eq!(id("\"5eykt\"").unwrap(), NetworkId::Text("5eykt".into()));
        for bad in ["-1", "1.5", "null", "[]"] {
            assert!(id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn restore_with_explicit_namespaces() {
        let request = RestoreNetworkRequest {
            stored: Some(SOLANA.into()),
            requested: vec![NetworkChoice::Id("eip155:1".into())],
            default_network: None,
            namespaces: Some(vec!["eip155".into(), "solana".into()]),
        };
        assert_eq!(
            restore_network(request).unwrap().unwrap().name,
            UNSUPPORTED_NETWORK_NAME
        );
    }

    // The id-only form of behaviour 3.6 that the modal calls at start.
    #[test]
    fn start_network_by_ids() {
        let requested = ["eip155:31337", "eip155:31338"];
        let namespaces = ["eip155"];
        assert_eq!(
            start_network(Some("eip155:31338"), &requested, &namespaces),
            StartNetwork::Requested(1)
        );
        assert_eq!(
            start_network(Some("eip155:1"), &requested, &namespaces),
            StartNetwork::Placeholder
        );
        assert_eq!(
            start_network(Some(SOLANA), &requested, &namespaces),
            StartNetwork::Default
        );
        assert_eq!(start_network(None, &requested, &namespaces), StartNetwork::Default);
        assert_eq!(
            start_network(Some("eip155"), &requested, &namespaces),
            StartNetwork::Default
        );
        assert_eq!(
            start_network(Some("eip155:"), &requested, &namespaces),
            StartNetwork::Default
        );
        let none: [&str; 0] = [];
        assert_eq!(start_network(Some("eip155:1"), &none, &none), StartNetwork::Default);
    }

    proptest::proptest! {
        // Whatever storage holds, the rule answers and never panics; a requested
        // answer names the stored id itself.
        #[test]
        fn start_network_never_panics(stored in ".{0,40}", id in "[a-z0-9]{1,8}:[a-zA-Z0-9]{1,12}") {
            let requested = [id.as_str(), "eip155:1"];
            let namespaces = ["eip155", "solana"];
            match start_network(Some(&stored), &requested, &namespaces) {
                StartNetwork::Requested(index) => proptest::prop_assert_eq!(requested[index], stored.as_str()),
                StartNetwork::Placeholder => proptest::prop_assert!(unsupported_network_placeholder(Some(&stored)).is_ok()),
                StartNetwork::Default => {}
            }
        }
    }

    // Behaviour 3.11: "The embedded wallet works only on certain chains (about 27 network ids)."
    #[test]
    fn embedded_wallet_networks_are_distinct_caip_ids() {
        let mut ids = EMBEDDED_WALLET_NETWORKS.to_vec();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 27);
        for id in ids {
            let parsed = CaipNetworkId::parse(id).unwrap();
            assert!(supports_feature(NamespaceFeature::EmbeddedWallet, &parsed.namespace));
        }
    }

    // Behaviour 7.6: "On-ramp chains for one provider: ethereum, arbitrum, polygon, berachain,
    // avalanche-c-chain, optimism, celo, base; ethereum fallback."
    #[test]
    fn onramp_chains() {
        for (id, chain) in [
            ("eip155:8453", "base"),
            ("eip155:43114", "avalanche-c-chain"),
            ("eip155:80094", "berachain"),
            (SOLANA, "ethereum"),
            (DEVNET, "ethereum"),
        ] {
            assert_eq!(onramp_chain(id).unwrap(), chain);
        }
        assert!(onramp_chain("base").is_err());
    }

    proptest! {
        #[test]
        fn lookups_never_panic(s in "\\PC*") {
            let _ = network(&s);
            let _ = unsupported_network_placeholder(Some(&s));
            let _ = onramp_chain(&s);
            let _ = default_account_type(&s);
            let _ = s.parse::<NamespaceFeature>();
            let _ = wallet_features(&s);
        }

        #[test]
        fn placeholder_keeps_any_valid_id(ns in "[-a-z0-9]{3,8}", reference in "[-_a-zA-Z0-9]{1,32}") {
            let id = format!("{ns}:{reference}");
            let p = unsupported_network_placeholder(Some(&id)).unwrap();
            prop_assert_eq!(p.caip_network_id, id);
            prop_assert_eq!(p.chain_namespace, ns);
        }
    }
}
