//! Solana balances through the gateway (so upstream fallback applies): SOL
//! from `getBalance` and listed SPL Token mints from `getTokenAccountsByOwner`
//! (`jsonParsed`), sent as one JSON-RPC batch. Solana has no market `latch`
//! reads, so prices come from `static_prices` in the configuration.

use alloy_primitives::U256;
use axum::body::Bytes;
use serde_json::{json, Value};

use super::balances::{native_currency, Balance};
use super::ChainData;
use crate::error::{ApiError, ApiResult};

/// The SPL Token program, whose accounts hold the listed mints.
pub const TOKEN_PROGRAM: &str = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";

/// A listed SPL Token mint.
#[derive(Clone, Debug)]
pub struct Mint {
    /// The mint's address (base58).
    pub address: String,
    /// Ticker.
    pub symbol: String,
    /// Display name.
    pub name: String,
    /// The mint's decimals.
    pub decimals: u8,
}

/// The upstream's answer was not the shape Solana JSON-RPC promises.
fn malformed(what: &str, detail: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{what}: {detail}"))
}

/// The `result` of the reply with `id` in a batch answer.
fn result<'a>(replies: &'a [Value], id: u64, method: &str) -> ApiResult<&'a Value> {
    let reply = replies
        .iter()
        .find(|r| r["id"] == id)
        .ok_or_else(|| malformed(method, "no reply"))?;
    if let Some(error) = reply.get("error") {
        return Err(malformed(method, error));
    }
    reply.get("result").ok_or_else(|| malformed(method, "no result"))
}

/// Base units held per mint, summed over `owner`'s token accounts (a wallet
/// may hold one mint in several accounts), from `getTokenAccountsByOwner`'s
/// `jsonParsed` answer. Accounts that do not parse as token accounts are skipped.
fn amounts_by_mint(accounts: &Value) -> ApiResult<Vec<(String, U256)>> {
    let accounts = accounts["value"]
        .as_array()
        .ok_or_else(|| malformed("getTokenAccountsByOwner", "no value list"))?;
    let mut held: Vec<(String, U256)> = Vec::new();
    for account in accounts {
        let info = &account["account"]["data"]["parsed"]["info"];
        let (Some(mint), Some(amount)) = (info["mint"].as_str(), info["tokenAmount"]["amount"].as_str()) else {
            continue;
        };
        let amount: U256 = amount
            .parse()
            .map_err(|e| malformed("getTokenAccountsByOwner amount", e))?;
        match held.iter_mut().find(|(m, _)| m == mint) {
            Some((_, total)) => *total = total.saturating_add(amount),
            None => held.push((mint.to_owned(), amount)),
        }
    }
    Ok(held)
}

impl ChainData {
    /// `owner`'s SOL and listed SPL Token balances on the solana `chain` (SOL
    /// first, then listed mints with a non-zero amount, in listed order).
    pub async fn read_solana(
        &self,
        chain: &str,
        owner: &str,
        icon: &(dyn Fn(&str) -> String + Sync),
    ) -> ApiResult<Vec<Balance>> {
        let batch = json!([
            {"jsonrpc": "2.0", "id": 1, "method": "getBalance", "params": [owner]},
            {"jsonrpc": "2.0", "id": 2, "method": "getTokenAccountsByOwner",
             "params": [owner, {"programId": TOKEN_PROGRAM}, {"encoding": "jsonParsed"}]},
        ]);
        let reply = self
            .gateway
            .call_internal(chain, Bytes::from(batch.to_string()))
            .await?;
        let replies: Vec<Value> = serde_json::from_slice(&reply.0).map_err(|e| malformed("Solana batch reply", e))?;
        let lamports = result(&replies, 1, "getBalance")?["value"]
            .as_u64()
            .ok_or_else(|| malformed("getBalance", "no lamports"))?;
        let held = amounts_by_mint(result(&replies, 2, "getTokenAccountsByOwner")?)?;

        let prices = self.static_prices.get(chain);
        let native = native_currency(chain);
        let mut balances = vec![Balance::new(
            chain,
            (&native.name, &native.symbol, native.decimals),
            U256::from(lamports),
            None,
            prices.and_then(|p| p.native_usd),
            icon,
        )];
        for mint in self.solana_tokens.get(chain).map(Vec::as_slice).unwrap_or_default() {
            let Some((_, raw)) = held.iter().find(|(m, _)| *m == mint.address) else {
                continue;
            };
            if raw.is_zero() {
                continue;
            }
            let stable = prices.is_some_and(|p| p.usd_token.as_deref() == Some(mint.address.as_str()));
            balances.push(Balance::new(
                chain,
                (&mint.name, &mint.symbol, mint.decimals),
                *raw,
                Some(format!("{chain}:{}", mint.address)),
                stable.then_some(1.0),
                icon,
            ));
        }
        Ok(balances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_summed_per_mint_and_odd_accounts_skipped() {
        let account = |mint: &str, amount: &str| json!({"pubkey": "x", "account": {"data": {"parsed": {"info": {"mint": mint, "tokenAmount": {"amount": amount}}}}}});
        let answer = json!({"value": [
            account("A", "5"), account("B", "7"), account("A", "340282366920938463463374607431768211456"),
            {"pubkey": "y", "account": {"data": ["AAAA", "base64"]}},
        ]});
        let held = amounts_by_mint(&answer).unwrap();
        assert_eq!(
            held,
            [
                ("A".to_owned(), U256::from(5u8) + (U256::from(1u8) << 128)),
                ("B".to_owned(), U256::from(7u8))
            ]
        );
        assert!(amounts_by_mint(&json!({"value": [account("A", "-1")]})).is_err());
        assert!(amounts_by_mint(&json!({})).is_err());
    }
}
