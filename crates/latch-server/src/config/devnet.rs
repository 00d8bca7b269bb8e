//! The devnets' fixture files (`scripts/devnet` writes `.devnet/addresses.json`,
//! `scripts/solana-devnet` writes `.devnet/solana.json`): read once at start,
//! they fill the token list, prices, swap and ENS settings for the devnet chains.

use std::path::Path;

use serde::Deserialize;

use super::{Config, ConfigError, EnsConfig, PriceConfig, StaticPriceConfig, TokenConfig};

/// The fixture file `scripts/devnet` writes, read by `--dev` when present.
pub const DEV_DEVNET_FILE: &str = ".devnet/addresses.json";

/// The fixture file `scripts/solana-devnet` writes, read by `--dev` when present.
pub const DEV_SOLANA_DEVNET_FILE: &str = ".devnet/solana.json";

impl Config {
    /// Reads the fixture files set, or in `--dev` those the devnets wrote when present.
    pub(super) fn apply_devnet_files(&mut self) -> Result<(), ConfigError> {
        if self.dev && self.devnet_file.is_none() && Path::new(DEV_DEVNET_FILE).exists() {
            self.devnet_file = Some(DEV_DEVNET_FILE.into());
        }
        if let Some(file) = self.devnet_file.clone() {
            self.apply_devnet_file(&file)?;
        }
        if self.dev && self.solana_devnet_file.is_none() && Path::new(DEV_SOLANA_DEVNET_FILE).exists() {
            self.solana_devnet_file = Some(DEV_SOLANA_DEVNET_FILE.into());
        }
        if let Some(file) = self.solana_devnet_file.clone() {
            self.apply_solana_devnet_file(&file)?;
        }
        Ok(())
    }

    /// Fills `tokens`, `prices`, `swap` and `ens` for the devnet chain from its fixture
    /// file, leaving whatever is configured for that chain already.
    fn apply_devnet_file(&mut self, file: &Path) -> Result<(), ConfigError> {
        let invalid = |why: String| ConfigError::Invalid(format!("devnet_file {}: {why}", file.display()));
        let text = std::fs::read_to_string(file).map_err(|e| invalid(e.to_string()))?;
        let fixture: DevnetFixture = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
        let chain = fixture.caip_network_id;
        let contracts = fixture.contracts;
        if !self.tokens.iter().any(|t| t.chain == chain) {
            for token in [&contracts.usdc, &contracts.ltk] {
                self.tokens.push(TokenConfig {
                    chain: chain.clone(),
                    address: token.address.clone(),
                    symbol: token.symbol.clone(),
                    name: token.name.clone(),
                    decimals: token.decimals,
                });
            }
        }
        if !self.swap.iter().any(|p| p.chain == chain) {
            self.swap.push(crate::convert::settings::SwapConfig {
                chain: chain.clone(),
                uniswap_v2_factory: contracts.uniswap_v2_factory.clone(),
                router: contracts.uniswap_v2_router,
                wrapped_native: contracts.weth.clone(),
                base_tokens: vec![contracts.usdc.address.clone()],
                uniswap_v3: contracts
                    .uniswap_v3
                    .map(|v3| crate::convert::settings::UniswapV3Config {
                        factory: v3.factory,
                        quoter: v3.quoter,
                        router: v3.router,
                        fee_tiers: v3.fee_tiers,
                        pool_init_code_hash: None,
                    }),
            });
        }
        if !self.prices.iter().any(|p| p.chain == chain) {
            self.prices.push(PriceConfig {
                chain: chain.clone(),
                uniswap_v2_factory: contracts.uniswap_v2_factory,
                wrapped_native: contracts.weth,
                usd_token: contracts.usdc.address,
            });
        }
        if self.ens.is_none() {
            self.ens = Some(EnsConfig {
                chain,
                registry: contracts.ens_registry,
            });
        }
        Ok(())
    }

    /// Lists the Solana devnet's USDC mint for its chain and prices it at 1 USD,
    /// leaving whatever is configured for that chain already. A devnet fixture
    /// for a chain the gateway does not serve is ignored: there is nothing to read.
    fn apply_solana_devnet_file(&mut self, file: &Path) -> Result<(), ConfigError> {
        let invalid = |why: String| ConfigError::Invalid(format!("solana_devnet_file {}: {why}", file.display()));
        let text = std::fs::read_to_string(file).map_err(|e| invalid(e.to_string()))?;
        let fixture: SolanaDevnetFixture = serde_json::from_str(&text).map_err(|e| invalid(e.to_string()))?;
        let chain = fixture.caip_network_id;
        if !self.chains.iter().any(|c| c.id == chain) {
            return Ok(());
        }
        if !self.tokens.iter().any(|t| t.chain == chain) {
            self.tokens.push(TokenConfig {
                chain: chain.clone(),
                address: fixture.usdc.mint.clone(),
                symbol: fixture.usdc.symbol,
                name: fixture.usdc.name,
                decimals: fixture.usdc.decimals,
            });
        }
        if !self.static_prices.iter().any(|p| p.chain == chain) {
            self.static_prices.push(StaticPriceConfig {
                chain,
                native_usd: None,
                usd_token: Some(fixture.usdc.mint),
            });
        }
        Ok(())
    }
}

/// The parts of the Solana devnet fixture file `latch` uses.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SolanaDevnetFixture {
    caip_network_id: String,
    usdc: SolanaDevnetMint,
}

#[derive(Deserialize)]
struct SolanaDevnetMint {
    mint: String,
    symbol: String,
    name: String,
    decimals: u8,
}

/// The parts of the devnet fixture file `latch` uses.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DevnetFixture {
    caip_network_id: String,
    contracts: DevnetContracts,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DevnetContracts {
    usdc: DevnetToken,
    ltk: DevnetToken,
    weth: String,
    uniswap_v2_factory: String,
    uniswap_v2_router: String,
    ens_registry: String,
    /// Absent in fixture files written before the devnet deployed Uniswap V3.
    #[serde(default)]
    uniswap_v3: Option<DevnetUniswapV3>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DevnetUniswapV3 {
    factory: String,
    quoter: String,
    router: String,
    fee_tiers: Vec<u32>,
}

#[derive(Deserialize)]
struct DevnetToken {
    address: String,
    symbol: String,
    name: String,
    decimals: u8,
}

#[cfg(test)]
mod tests {
    use super::super::chain_data_tests::with;

    #[test]
    fn a_missing_fixture_file_is_refused_by_name() {
        let missing = with(|c| c.devnet_file = Some("/nonexistent/addresses.json".into()))
            .unwrap_err()
            .to_string();
        assert!(
            missing.starts_with("invalid configuration: devnet_file /nonexistent/addresses.json"),
            "{missing}"
        );
    }

    #[test]
    fn a_solana_fixture_for_a_chain_not_served_adds_nothing() {
        const MINT: &str = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("solana.json");
        let fixture = serde_json::json!({"caipNetworkId": "solana:62ezpasMJWZPGdzfoeZF6RAkYHVpfnLh",
            "usdc": {"mint": MINT, "symbol": "USDC", "name": "USD Coin", "decimals": 6}});
        std::fs::write(&file, fixture.to_string()).unwrap();
        let config = with(|c| c.solana_devnet_file = Some(file.clone())).unwrap();
        assert!(config.tokens.is_empty() && config.static_prices.is_empty());
    }
}
