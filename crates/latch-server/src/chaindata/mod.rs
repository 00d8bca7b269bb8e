//! Chain data read from the chains themselves (behaviour 6.8): balances with USD
//! prices from on-chain Uniswap V2 reserves (Solana balances with configured
//! prices), and ENS identity. The original
//! service resells data providers; `latch` reads through its own gateway, so
//! it works on any chain a team can reach, the local devnet included.

pub mod balances;
pub mod evm;
pub mod history;
pub mod identity;
pub mod nft;
pub mod nfts;
pub mod otterscan;
pub mod solana;

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use alloy_primitives::{Address, U256};

use crate::config::{Config, PriceConfig, StaticPriceConfig};
use crate::gateway::Gateway;

/// How long balances are served from memory (behaviour 6.8: the client caches 30 s too).
pub const BALANCE_TTL: Duration = Duration::from_secs(30);
/// How long an identity is served from memory (behaviour 6.5: 5 min).
pub const IDENTITY_TTL: Duration = Duration::from_secs(300);
/// How long token metadata read from a contract is kept.
pub const METADATA_TTL: Duration = Duration::from_secs(86_400);
/// Entries kept per cache; past it the cache starts over, so made-up addresses cannot grow memory.
const CACHE_CAPACITY: usize = 10_000;

/// Values kept for a while, keyed by `K`.
pub struct TtlCache<K, V> {
    ttl: Duration,
    entries: Mutex<HashMap<K, (V, Instant)>>,
}

impl<K: Eq + Hash, V: Clone> TtlCache<K, V> {
    /// A cache whose entries live `ttl`.
    pub fn new(ttl: Duration) -> Self {
        Self {
            ttl,
            entries: Mutex::default(),
        }
    }

    /// The fresh value for `key`, if any.
    pub fn get(&self, key: &K) -> Option<V> {
        let entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries
            .get(key)
            .filter(|(_, at)| at.elapsed() < self.ttl)
            .map(|(value, _)| value.clone())
    }

    /// Keeps `value` for `key` from now.
    pub fn put(&self, key: K, value: V) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= CACHE_CAPACITY {
            entries.clear();
        }
        entries.insert(key, (value, Instant::now()));
    }

    /// Forgets `key` (its value changed, e.g. a name was registered for an address).
    pub fn remove(&self, key: &K) {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        entries.remove(key);
    }
}

/// A listed ERC-20 token.
#[derive(Clone, Debug)]
pub struct Token {
    /// Its contract.
    pub address: Address,
    /// Ticker.
    pub symbol: String,
    /// Display name.
    pub name: String,
    /// ERC-20 decimals.
    pub decimals: u8,
}

/// A chain's price source: a Uniswap V2 market.
#[derive(Clone, Debug)]
pub struct PriceSource {
    /// The factory that knows the pools.
    pub factory: Address,
    /// The wrapped native coin.
    pub wrapped_native: Address,
    /// The token worth 1 USD.
    pub usd_token: Address,
}

/// Everything chain data needs: the gateway, what is configured, and caches.
pub struct ChainData {
    gateway: Arc<Gateway>,
    /// Listed tokens per CAIP-2 chain.
    tokens: HashMap<String, Vec<Token>>,
    /// Price sources per CAIP-2 chain.
    prices: HashMap<String, PriceSource>,
    /// Listed SPL Token mints per solana chain.
    solana_tokens: HashMap<String, Vec<solana::Mint>>,
    /// Fixed prices per solana chain.
    static_prices: HashMap<String, StaticPriceConfig>,
    /// The ENS chain and registry.
    ens: Option<(String, Address)>,
    balances: TtlCache<(String, String), Vec<balances::Balance>>,
    identities: TtlCache<String, identity::Identity>,
    /// Name, symbol and decimals of unlisted tokens, read from their contracts.
    metadata: TtlCache<(String, Address), Option<history::TokenMeta>>,
    /// Pool addresses never change once created: kept for the life of the process.
    pairs: Mutex<HashMap<(String, Address), Option<balances::Pair>>>,
    /// NFT images by (chain, contract, token id), misses included.
    nft_media: TtlCache<(String, Address, U256), Option<nft::NftMedia>>,
    /// Where `ipfs://` media is read and linked.
    ipfs_gateway: Option<String>,
    /// Whether NFT metadata may come from loopback and private addresses.
    nft_private_hosts: bool,
    nft_http: reqwest::Client,
}

fn parse_address(value: &str) -> anyhow::Result<Address> {
    Ok(latch_core::address::parse_evm_address(value)?)
}

impl ChainData {
    /// Drops the cached identity of `address` (checksummed), which just changed.
    pub fn forget_identity(&self, address: &str) {
        self.identities.remove(&address.to_owned());
    }

    /// Chain data for `config` (already validated) over `gateway`.
    pub fn new(config: &Config, gateway: Arc<Gateway>) -> anyhow::Result<Self> {
        let mut tokens: HashMap<String, Vec<Token>> = HashMap::new();
        let mut solana_tokens: HashMap<String, Vec<solana::Mint>> = HashMap::new();
        for token in &config.tokens {
            if token.chain.starts_with("solana:") {
                solana_tokens
                    .entry(token.chain.clone())
                    .or_default()
                    .push(solana::Mint {
                        address: token.address.clone(),
                        symbol: token.symbol.clone(),
                        name: token.name.clone(),
                        decimals: token.decimals,
                    });
                continue;
            }
            tokens.entry(token.chain.clone()).or_default().push(Token {
                address: parse_address(&token.address)?,
                symbol: token.symbol.clone(),
                name: token.name.clone(),
                decimals: token.decimals,
            });
        }
        let prices = config
            .prices
            .iter()
            .map(
                |PriceConfig {
                     chain,
                     uniswap_v2_factory,
                     wrapped_native,
                     usd_token,
                 }| {
                    Ok((
                        chain.clone(),
                        PriceSource {
                            factory: parse_address(uniswap_v2_factory)?,
                            wrapped_native: parse_address(wrapped_native)?,
                            usd_token: parse_address(usd_token)?,
                        },
                    ))
                },
            )
            .collect::<anyhow::Result<_>>()?;
        let ens = config
            .ens
            .as_ref()
            .map(|ens| Ok::<_, anyhow::Error>((ens.chain.clone(), parse_address(&ens.registry)?)))
            .transpose()?;
        let static_prices = config
            .static_prices
            .iter()
            .map(|p| (p.chain.clone(), p.clone()))
            .collect();
        Ok(Self {
            gateway,
            tokens,
            prices,
            solana_tokens,
            static_prices,
            ens,
            balances: TtlCache::new(BALANCE_TTL),
            identities: TtlCache::new(IDENTITY_TTL),
            metadata: TtlCache::new(METADATA_TTL),
            pairs: Mutex::default(),
            nft_media: TtlCache::new(METADATA_TTL),
            ipfs_gateway: config.ipfs_gateway.clone(),
            nft_private_hosts: config.nft_metadata_private_hosts,
            nft_http: nft::client(config.nft_metadata_private_hosts),
        })
    }
}
