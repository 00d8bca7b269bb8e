//! `GET /v1/account/{address}/history` (behaviour 6.6): the indexer's transfers,
//! grouped per transaction, newest first, 50 per page, in the original
//! service's transaction shape (metadata camelCase, transfers snake_case).
//! An EVM chain the indexer does not follow is read from its node's Otterscan
//! API instead (`otterscan`); a page says when what it shows may be incomplete.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use axum::extract::{Path, State};
use axum::Json;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use super::balances::{native_currency, token_icon};
use super::evm::{decode, multicall, Call};
use super::nft::NftKey;
use super::otterscan;
use super::ChainData;
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::indexer::by_transaction;
use crate::project::Caller;
use crate::store::Transfer;
use crate::AppState;

/// Transactions per page (behaviour 6.6).
pub const PAGE_SIZE: u32 = 50;

/// ERC-20 / ERC-721 metadata calls (no arguments, unlike ENS's `name(bytes32)`).
mod token {
    alloy_sol_types::sol! {
        function name() returns (string value);
        function symbol() returns (string value);
        function decimals() returns (uint8 value);
    }
}

/// What the history shows of a token.
#[derive(Clone, Debug)]
pub struct TokenMeta {
    pub(crate) name: String,
    pub(crate) symbol: String,
    pub(crate) decimals: u8,
}

/// `GET /v1/account/{address}/history` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct HistoryQuery {
    /// The `next` of the previous page.
    cursor: Option<String>,
    /// One CAIP-2 chain; all indexed chains when absent.
    chain_id: Option<String>,
    /// Any value: only purchases made through an on-ramp provider of this server
    /// (each transaction also says `metadata.onramp`, the provider, or `null`).
    onramp: Option<String>,
}

/// A page of history.
#[derive(Serialize, ToSchema)]
pub struct History {
    /// Transactions, newest first.
    #[schema(value_type = Vec<Object>)]
    pub data: Vec<Value>,
    /// The cursor of the next page; `null` on the last.
    pub next: Option<String>,
    /// True when the page may miss transactions: the chain is neither indexed
    /// nor served by a node with the Otterscan API.
    pub partial: bool,
}

fn parse_cursor(cursor: &str) -> ApiResult<(i64, i64)> {
    let bad = || ApiError::bad("cursor", "a cursor is the `next` of an earlier page");
    let (block, index) = cursor.split_once('-').ok_or_else(bad)?;
    Ok((block.parse().map_err(|_| bad())?, index.parse().map_err(|_| bad())?))
}

/// `in`, `out` or `self` for `address`.
fn direction(transfer: &Transfer, address: &str) -> &'static str {
    match (transfer.sender == address, transfer.recipient == address) {
        (true, true) => "self",
        (true, false) => "out",
        _ => "in",
    }
}

/// The operation a transaction was for `address` (the original's vocabulary).
fn operation_type(transfers: &[Transfer], address: &str) -> &'static str {
    let zero = "0x0000000000000000000000000000000000000000";
    if transfers.iter().any(|t| t.token_id.is_some() && t.sender == zero) {
        return "mint";
    }
    let ins = transfers.iter().any(|t| direction(t, address) == "in");
    let outs = transfers.iter().any(|t| direction(t, address) == "out");
    match (ins, outs) {
        (true, true) => "trade",
        (true, false) => "receive",
        (false, true) => "send",
        (false, false) => "self",
    }
}

impl ChainData {
    /// Metadata of token `address` on `chain`: listed tokens from the configuration, others read once from the chain.
    pub(crate) async fn token_meta(&self, chain: &str, address: Address) -> Option<TokenMeta> {
        if let Some(token) = self.listed(chain, address) {
            return Some(TokenMeta {
                name: token.name.clone(),
                symbol: token.symbol.clone(),
                decimals: token.decimals,
            });
        }
        let key = (chain.to_owned(), address);
        if let Some(hit) = self.metadata.get(&key) {
            return hit;
        }
        let calls = vec![
            Call {
                target: address,
                data: token::nameCall {}.abi_encode(),
            },
            Call {
                target: address,
                data: token::symbolCall {}.abi_encode(),
            },
            Call {
                target: address,
                data: token::decimalsCall {}.abi_encode(),
            },
        ];
        let results = multicall(&self.gateway, chain, calls).await.ok()?;
        let meta = decode::<token::nameCall>(&results[0]).map(|name| TokenMeta {
            symbol: decode::<token::symbolCall>(&results[1]).unwrap_or_default(),
            // ERC-721 has no decimals: whole items.
            decimals: decode::<token::decimalsCall>(&results[2]).unwrap_or(0),
            name,
        });
        self.metadata.put(key, meta.clone());
        meta
    }
}

/// The account endpoints' common reading: the EVM address (lower case), the
/// `chainId` asked for (a served chain; empty means all) and whether the
/// indexer follows it (all chains: the index's).
pub(crate) fn account_on_chain<'q>(
    state: &AppState,
    address: &str,
    chain_id: Option<&'q str>,
) -> ApiResult<(String, Option<&'q str>, bool)> {
    let owner = latch_core::address::parse_evm_address(address).map_err(|e| ApiError::bad("address", e.to_string()))?;
    let chain = chain_id.filter(|c| !c.is_empty());
    if let Some(chain) = chain {
        state.gateway.chain(Some(chain))?;
    }
    let indexed = chain.is_none_or(|c| state.config.index_chains.iter().any(|i| i == c));
    Ok((owner.to_string().to_lowercase(), chain, indexed))
}

/// `GET /v1/account/{address}/history`.
#[utoipa::path(get, path = "/v1/account/{address}/history", tag = "chain data",
    params(("address" = String, Path, description = "An EVM address (0x…)"), HistoryQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = History), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody)))]
pub async fn history(
    State(state): State<AppState>,
    caller: Caller,
    Path(address): Path<String>,
    ApiQuery(query): ApiQuery<HistoryQuery>,
) -> ApiResult<Json<History>> {
    let (me, chain, indexed) = account_on_chain(&state, &address, query.chain_id.as_deref())?;
    let before = query
        .cursor
        .as_deref()
        .filter(|c| !c.is_empty())
        .map(parse_cursor)
        .transpose()?;
    let (groups, next, partial) = match chain {
        Some(chain) if !indexed && chain.starts_with("eip155:") => {
            let before = before.map_or(0, |(block, _)| u64::try_from(block).unwrap_or(0));
            match otterscan::search_before(&state.gateway, chain, &me, before, PAGE_SIZE).await {
                Some(page) => (
                    by_transaction(page.transfers),
                    // Otterscan pages end on whole blocks: the next starts before the oldest.
                    page.next_before.map(|block| format!("{block}-0")),
                    false,
                ),
                None => (Vec::new(), None, true),
            }
        }
        _ => {
            let transfers = state
                .store
                .history(&me, chain, before, PAGE_SIZE)
                .await
                .map_err(|e| ApiError::Internal(e.into()))?;
            let groups = by_transaction(transfers);
            let next = (groups.len() == PAGE_SIZE as usize)
                .then(|| {
                    groups
                        .last()
                        .map(|g| format!("{}-{}", g[0].block_number, g[0].tx_index))
                })
                .flatten();
            (groups, next, !indexed)
        }
    };

    let base = state.config.public_base_url();
    let data = &state.chain_data;
    // NFT images for the whole page at once, within one budget and deadline.
    let nft_keys: Vec<NftKey> = groups
        .iter()
        .flatten()
        .filter_map(|t| {
            let id = t.token_id.as_deref()?.parse::<U256>().ok()?;
            let contract = t.token.as_deref()?.parse::<Address>().ok()?;
            Some((t.chain.clone(), contract, id))
        })
        .collect();
    let nft_media = data.nft_media_page(&nft_keys).await;
    let mut prices: HashMap<String, HashMap<Option<Address>, f64>> = HashMap::new();
    let mut page = Vec::with_capacity(groups.len());
    let only_purchases = query.onramp.as_deref().is_some_and(|o| !o.is_empty());
    let hashes: Vec<String> = groups.iter().map(|group| group[0].tx_hash.clone()).collect();
    let purchases = state
        .store
        .purchases_among(&hashes)
        .await
        .map_err(|e| ApiError::Internal(e.into()))?;
    for group in groups {
        let first = &group[0];
        let purchase = purchases.get(&first.tx_hash.to_ascii_lowercase());
        if only_purchases && purchase.is_none() {
            continue;
        }
        if !prices.contains_key(&first.chain) {
            // History shows today's prices: the indexer does not keep historical ones.
            let now = data.prices(&first.chain).await.unwrap_or_default();
            prices.insert(first.chain.clone(), now);
        }
        let chain_prices = &prices[&first.chain];
        let mut transfers = Vec::with_capacity(group.len());
        for t in &group {
            let token = t.token.as_deref().and_then(|a| a.parse::<Address>().ok());
            let (meta, price) = match token {
                None => {
                    let native = native_currency(&t.chain);
                    (
                        Some(TokenMeta {
                            name: native.name,
                            symbol: native.symbol,
                            decimals: native.decimals,
                        }),
                        chain_prices.get(&None).copied(),
                    )
                }
                Some(token) => (
                    data.token_meta(&t.chain, token).await,
                    chain_prices.get(&Some(token)).copied(),
                ),
            };
            let decimals = if t.token_id.is_some() {
                0
            } else {
                meta.as_ref().map_or(0, |m| m.decimals)
            };
            let numeric = latch_core::format::format_units(&t.amount, decimals).unwrap_or_else(|_| t.amount.clone());
            let value = price.zip(numeric.parse::<f64>().ok()).map(|(p, q)| p * q);
            let (fungible_info, nft_info) = match (&t.token_id, &meta) {
                (None, Some(m)) => (
                    serde_json::json!({"name": m.name, "symbol": m.symbol,
                                       "icon": {"url": token_icon(&base, &m.symbol, &caller.project.id)}}),
                    Value::Null,
                ),
                (None, None) => (Value::Null, Value::Null),
                (Some(id), meta) => (
                    Value::Null,
                    serde_json::json!({
                        "name": format!("{} #{id}", meta.as_ref().map_or("NFT", |m| m.name.as_str())),
                        "content": match (token, id.parse::<U256>()) {
                            (Some(contract), Ok(id)) => nft_media.get(&(t.chain.clone(), contract, id)).cloned().flatten()
                                .map(|media| serde_json::json!({"preview": media})),
                            _ => None,
                        },
                        // Unsolicited: received in a transaction the owner did not send.
                        "flags": {"is_spam": t.recipient == me && t.tx_from != me},
                    }),
                ),
            };
            transfers.push(serde_json::json!({
                "fungible_info": fungible_info,
                "nft_info": nft_info,
                "direction": direction(t, &me),
                "quantity": {"numeric": numeric},
                "value": value,
                "price": price,
            }));
        }
        let mined_at = latch_core::format::format_iso_date(first.mined_at);
        page.push(serde_json::json!({
            "id": format!("{}:{}", first.chain, first.tx_hash),
            "metadata": {
                "operationType": operation_type(&group, &me),
                "hash": first.tx_hash,
                "minedAt": mined_at,
                "sentFrom": first.tx_from,
                "sentTo": first.tx_to,
                "status": if first.success { "confirmed" } else { "failed" },
                "nonce": first.nonce,
                "application": null,
                "chain": first.chain,
                "onramp": purchase,
            },
            "transfers": transfers,
        }));
    }
    Ok(Json(History {
        data: page,
        next,
        partial,
    }))
}
