//! Wallet assets as `wallet_getAssets` reports them (behaviour 5.3).

use serde::{Deserialize, Deserializer};
/// A wallet asset as `wallet_getAssets` reports it (behaviour 5.3). Deserializing
/// one is the validity check of behaviour 5.3: address and balance strings, type
/// `ERC20` or `NATIVE`, and the metadata types below.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct WalletAsset {
    /// Token contract address (the native token has a placeholder).
    pub address: String,
    /// Balance in base units, hex text.
    pub balance: String,
    /// `ERC20` or `NATIVE`.
    #[serde(rename = "type")]
    pub kind: WalletAssetKind,
    /// How to show it.
    pub metadata: WalletAssetMetadata,
}

/// The two asset types behaviour 5.3 names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum WalletAssetKind {
    /// A token contract.
    #[serde(rename = "ERC20")]
    Erc20,
    /// The chain's own currency.
    #[serde(rename = "NATIVE")]
    Native,
}

/// A wallet asset's `metadata`. Behaviour 5.3 lists `value` without a type rule in behaviour 5.3 and
/// wallets omit it when they have no price source, so it alone is optional.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WalletAssetMetadata {
    /// Token name.
    pub name: String,
    /// Token symbol.
    pub symbol: String,
    /// Token decimals. Held as a byte: decimals that are not a whole number
    /// 0–255 cannot format an amount, so such an asset is not valid.
    pub decimals: u8,
    /// USD price of one token.
    pub price: f64,
    /// Icon URL.
    pub icon_url: String,
    /// USD value of the balance, when the wallet knows it.
    #[serde(default)]
    pub value: Option<f64>,
}

/// Behaviour 5.3 "Wallet asset valid only if address and balance are strings, type ERC20
/// or NATIVE, metadata types as stated"; anything else, including not an object, is invalid.
pub fn is_valid_wallet_asset<'de, D: Deserializer<'de>>(asset: D) -> bool {
    WalletAsset::deserialize(asset).is_ok()
}
#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    // Behaviour 5.3: "Wallet asset valid only if address and balance are strings, type ERC20 or NATIVE, metadata types as stated."
    #[test]
    fn wallet_assets() {
        let valid = json!({
            "address": "0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48", "balance": "0x5f5e100", "type": "ERC20",
            "metadata": {"name": "USD Coin", "symbol": "USDC", "decimals": 6, "price": 1.0, "iconUrl": "https://x/usdc.png", "value": 100}
        });
        assert!(is_valid_wallet_asset(&valid));
        let with = |path: &[&str], value: Value| {
            let mut asset = valid.clone();
            let (last, parents) = path.split_last().unwrap();
            let target = parents.iter().fold(&mut asset, |v, key| &mut v[*key]);
            if value.is_null() {
                target.as_object_mut().unwrap().remove(*last);
            } else {
                target[*last] = value;
            }
            is_valid_wallet_asset(&asset)
        };
        assert!(with(&["type"], json!("NATIVE")));
        assert!(with(&["metadata", "value"], Value::Null));
        assert!(!with(&["type"], json!("ERC721")));
        assert!(!with(&["address"], json!(42)));
        assert!(!with(&["balance"], Value::Null));
        assert!(!with(&["metadata", "decimals"], json!("6")));
        assert!(!with(&["metadata", "price"], json!("1.00")));
        assert!(!with(&["metadata", "iconUrl"], Value::Null));
        assert!(!with(&["metadata", "symbol"], json!(5)));
        assert!(!with(&["metadata"], json!("USDC")));
        assert!(!is_valid_wallet_asset(json!(null)));
        assert!(!is_valid_wallet_asset(json!("asset")));
    }
}
