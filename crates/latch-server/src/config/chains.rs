//! The gateway's chains and what it serves on them (tokens, prices, ENS), and their checks.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{Config, ConfigError};
use crate::outbound::redact_url;

/// One token listed for balances: an ERC-20 contract or an SPL Token mint.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct TokenConfig {
    /// CAIP-2 id of its chain.
    pub chain: String,
    /// Contract address (0x…), or the mint's address (base58) on a solana chain.
    pub address: String,
    /// Ticker, e.g. `USDC`.
    pub symbol: String,
    /// Display name.
    pub name: String,
    /// ERC-20 decimals.
    pub decimals: u8,
}

/// Prices on one chain from a Uniswap V2 market: the native coin from the
/// wrapped-native/USD pool, other tokens through their wrapped-native pool.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct PriceConfig {
    /// CAIP-2 id of the chain.
    pub chain: String,
    /// The Uniswap V2 factory.
    pub uniswap_v2_factory: String,
    /// The wrapped native coin (WETH) paired in the pools.
    pub wrapped_native: String,
    /// A token worth 1 USD (e.g. USDC); must also be listed in `tokens`.
    pub usd_token: String,
}

/// Fixed prices on one solana chain.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct StaticPriceConfig {
    /// CAIP-2 id of the chain.
    pub chain: String,
    /// USD price of one native coin (SOL); unset: balances show no price for it.
    #[serde(default)]
    pub native_usd: Option<f64>,
    /// A listed mint worth 1 USD (e.g. USDC).
    #[serde(default)]
    pub usd_token: Option<String>,
}

/// An ENS registry (the classic registry → resolver flow).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct EnsConfig {
    /// CAIP-2 id of the chain it lives on (must be a gateway chain).
    pub chain: String,
    /// The registry contract.
    pub registry: String,
}

/// One chain of the RPC gateway. `Debug` shows upstreams as `scheme://host[:port]`
/// only: their paths and queries carry API keys.
#[derive(Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ChainConfig {
    /// CAIP-2 id, e.g. `eip155:1`.
    pub id: String,
    /// JSON-RPC endpoints tried in order.
    pub upstreams: Vec<String>,
    /// WebSocket JSON-RPC endpoints (`ws://`, `wss://`) for subscriptions through
    /// `GET /v1/?chainId=…` upgraded to a WebSocket; tried in order when a client connects.
    #[serde(default)]
    pub ws_upstreams: Vec<String>,
    /// Re-order upstreams by measured latency and stability (behaviour 6.16), probing every 4 s.
    #[serde(default)]
    pub rank: bool,
    /// Changes to the methods the public gateway forwards for this chain (the
    /// server's own reads are not subject to it), e.g.
    /// `methods = { allow = ["requestAirdrop"], deny = ["eth_getLogs"] }`.
    #[serde(default)]
    pub methods: latch_core::policy::GatewayMethodPolicy,
}

impl fmt::Debug for ChainConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let redacted = |urls: &[String]| urls.iter().map(|u| redact_url(u)).collect::<Vec<_>>();
        f.debug_struct("ChainConfig")
            .field("id", &self.id)
            .field("upstreams", &redacted(&self.upstreams))
            .field("ws_upstreams", &redacted(&self.ws_upstreams))
            .field("rank", &self.rank)
            .finish()
    }
}

impl Config {
    /// Tokens, prices and ENS name chains the gateway serves and valid addresses.
    pub(super) fn check_chain_data(&self) -> Result<(), ConfigError> {
        let served = |chain: &str, what: &str| {
            if self.chains.iter().any(|c| c.id == chain) {
                Ok(())
            } else {
                Err(ConfigError::Invalid(format!(
                    "{what}: chain {chain} is not a gateway chain"
                )))
            }
        };
        let address = |value: &str, what: &str| {
            latch_core::address::to_checksum_address(value)
                .map(drop)
                .map_err(|e| ConfigError::Invalid(format!("{what}: {value:?}: {e}")))
        };
        for token in &self.tokens {
            let what = format!("token {}", token.symbol);
            served(&token.chain, &what)?;
            match token.chain.split(':').next() {
                Some("eip155") => address(&token.address, &what)?,
                Some("solana") => latch_core::address::parse_solana_address(&token.address)
                    .map(drop)
                    .map_err(|e| ConfigError::Invalid(format!("{what}: {e}")))?,
                _ => {
                    return Err(ConfigError::Invalid(format!(
                        "{what}: tokens are listed on eip155 and solana chains"
                    )))
                }
            }
            if token.decimals > 36 || token.symbol.is_empty() || token.symbol.len() > 16 {
                return Err(ConfigError::Invalid(format!(
                    "{what}: decimals ≤ 36, symbol 1-16 characters"
                )));
            }
        }
        for price in &self.prices {
            let what = format!("prices for {}", price.chain);
            served(&price.chain, &what)?;
            for value in [&price.uniswap_v2_factory, &price.wrapped_native, &price.usd_token] {
                address(value, &what)?;
            }
            let listed = self
                .tokens
                .iter()
                .any(|t| t.chain == price.chain && t.address.eq_ignore_ascii_case(&price.usd_token));
            if !listed {
                return Err(ConfigError::Invalid(format!(
                    "{what}: usd_token must be listed in tokens"
                )));
            }
        }
        crate::convert::settings::check(&self.swap, &self.swap_aggregators, &served, &address)?;
        for price in &self.static_prices {
            let what = format!("static_prices for {}", price.chain);
            served(&price.chain, &what)?;
            if !price.chain.starts_with("solana:") {
                return Err(ConfigError::Invalid(format!(
                    "{what}: only solana chains (eip155 chains are priced by prices)"
                )));
            }
            if price.native_usd.is_some_and(|p| !(p.is_finite() && p >= 0.0)) {
                return Err(ConfigError::Invalid(format!(
                    "{what}: native_usd must be a finite number ≥ 0"
                )));
            }
            let listed = |mint: &String| self.tokens.iter().any(|t| t.chain == price.chain && &t.address == mint);
            if price.usd_token.as_ref().is_some_and(|mint| !listed(mint)) {
                return Err(ConfigError::Invalid(format!(
                    "{what}: usd_token must be listed in tokens"
                )));
            }
        }
        if let Some(ens) = &self.ens {
            served(&ens.chain, "ens")?;
            address(&ens.registry, "ens")?;
        }
        Ok(())
    }
}
