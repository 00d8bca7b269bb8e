//! `GET /v1/account/{address}/balance` and `POST /v1/fungible/price` (behaviour 6.8):
//! native and ERC-20 balances read in one Multicall3 call per chain, priced in
//! USD from Uniswap V2 reserves read in the same call; Solana balances by
//! `super::solana`.

use std::collections::HashMap;

use alloy_primitives::{Address, U256};
use alloy_sol_types::SolCall;
use axum::extract::{Path, State};
use axum::Json;
use futures_util::future::join_all;
use latch_core::caip::CaipAddress;
use latch_core::network::NativeCurrency;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use super::evm::{
    self, balanceOfCall, decode, getEthBalanceCall, getPairCall, getReservesCall, token0Call, Call, MULTICALL3,
};
use super::{ChainData, PriceSource, Token};
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::AppState;

/// The address clients use for a chain's native coin (behaviour 6.8 `forceUpdate`).
pub const NATIVE_TOKEN: &str = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";

/// A token amount as text (behaviour 5.1 Token balance `quantity`).
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
pub struct Quantity {
    /// The token's decimals, as text.
    pub decimals: String,
    /// The amount in whole tokens, exact, e.g. `"1000.5"`.
    pub numeric: String,
}

/// One balance (behaviour 5.1 "Token balance").
#[derive(Clone, Debug, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Balance {
    /// Token name.
    pub name: String,
    /// Ticker.
    pub symbol: String,
    /// CAIP-2 chain.
    pub chain_id: String,
    /// CAIP-10 token address; absent for the native coin.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<String>,
    /// USD value of the balance; absent when there is no price.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// USD price of one token (0 when unknown).
    pub price: f64,
    /// The amount held.
    pub quantity: Quantity,
    /// An image for the token.
    pub icon_url: String,
}

impl Balance {
    /// `raw` base units of the token `(name, symbol, decimals)` on `chain`
    /// (`address`: its CAIP-10 id, `None` for the native coin), worth `price`
    /// USD each when known.
    pub fn new(
        chain: &str,
        (name, symbol, decimals): (&str, &str, u8),
        raw: U256,
        address: Option<String>,
        price: Option<f64>,
        icon: &(dyn Fn(&str) -> String + Sync),
    ) -> Self {
        Self {
            name: name.to_owned(),
            symbol: symbol.to_owned(),
            chain_id: chain.to_owned(),
            address,
            value: price.map(|p| p * evm::to_f64(raw, decimals)),
            price: price.unwrap_or(0.0),
            quantity: Quantity {
                decimals: decimals.to_string(),
                numeric: latch_core::format::format_units(&raw.to_string(), decimals).unwrap_or_else(|_| "0".into()),
            },
            icon_url: icon(symbol),
        }
    }
}

/// `GET /v1/account/{address}/balance` answer.
#[derive(Serialize, ToSchema)]
pub struct Balances {
    /// Native coin first, then listed tokens with a non-zero balance, per chain.
    pub balances: Vec<Balance>,
}

/// `GET /v1/account/{address}/balance` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct BalanceQuery {
    /// Only `usd`.
    currency: Option<String>,
    /// One CAIP-2 chain; when absent, every gateway chain of the address's kind (eip155 or solana).
    chain_id: Option<String>,
    /// Comma-separated CAIP-10 token addresses to re-read now (`0xeeee…eeee` = native); bypasses the 30 s cache.
    force_update: Option<String>,
}

/// A pool and which side holds the wrapped native coin.
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    address: Address,
    native_is_token0: bool,
}

/// The pools one chain's prices need: wrapped-native/USD, then wrapped-native/token per listed token.
struct Pools {
    native_usd: Option<Pair>,
    per_token: Vec<Option<Pair>>,
}

fn check_currency(currency: Option<&str>) -> ApiResult<()> {
    match currency {
        None | Some("usd") => Ok(()),
        Some(other) => Err(ApiError::bad(
            "currency",
            format!("only usd prices are served, not {other:?}"),
        )),
    }
}

/// The image URL of token `symbol`, under `base` (the configured public URL,
/// never the request's `Host`: balances are cached and shared between clients).
pub fn token_icon(base: &str, symbol: &str, project: &str) -> String {
    format!("{base}/public/getTokenImage/{symbol}?projectId={project}")
}

/// Spot price of one `base` token in `quote` tokens from a pool's reserves.
fn spot(base_reserve: U256, base_decimals: u8, quote_reserve: U256, quote_decimals: u8) -> Option<f64> {
    let base = evm::to_f64(base_reserve, base_decimals);
    let quote = evm::to_f64(quote_reserve, quote_decimals);
    (base > 0.0 && quote > 0.0).then(|| quote / base)
}

impl ChainData {
    /// The pools for `chain`'s prices, looked up once (two multicalls) and then kept.
    async fn pools(&self, chain: &str, source: &PriceSource, tokens: &[Token]) -> ApiResult<Pools> {
        let wanted: Vec<Address> = std::iter::once(source.usd_token)
            .chain(tokens.iter().map(|t| t.address))
            .collect();
        let missing: Vec<Address> = {
            let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            wanted
                .iter()
                .copied()
                .filter(|t| *t != source.wrapped_native && !known.contains_key(&(chain.to_owned(), *t)))
                .collect()
        };
        if !missing.is_empty() {
            let calls = missing
                .iter()
                .map(|token| Call {
                    target: source.factory,
                    data: getPairCall {
                        tokenA: source.wrapped_native,
                        tokenB: *token,
                    }
                    .abi_encode(),
                })
                .collect();
            let found: Vec<Option<Address>> = evm::multicall(&self.gateway, chain, calls)
                .await?
                .iter()
                .map(|r| decode::<getPairCall>(r).filter(|a| !a.is_zero()))
                .collect();
            let pools: Vec<Address> = found.iter().flatten().copied().collect();
            let calls = pools
                .iter()
                .map(|pool| Call {
                    target: *pool,
                    data: token0Call {}.abi_encode(),
                })
                .collect();
            let firsts = evm::multicall(&self.gateway, chain, calls).await?;
            let mut first = pools.iter().zip(firsts.iter().map(decode::<token0Call>));
            let mut known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
            for (token, pool) in missing.iter().zip(&found) {
                let pair = match pool {
                    Some(_) => first.next().and_then(|(address, token0)| {
                        token0.map(|t0| Pair {
                            address: *address,
                            native_is_token0: t0 == source.wrapped_native,
                        })
                    }),
                    None => None,
                };
                known.insert((chain.to_owned(), *token), pair);
            }
        }
        let known = self.pairs.lock().unwrap_or_else(|e| e.into_inner());
        let pair = |token: &Address| known.get(&(chain.to_owned(), *token)).copied().flatten();
        Ok(Pools {
            native_usd: pair(&source.usd_token),
            per_token: tokens.iter().map(|t| pair(&t.address)).collect(),
        })
    }

    /// One multicall on `chain`: the balances of `owner` (native first, then
    /// listed tokens with a non-zero amount) when given, and the prices of the
    /// native coin and every listed token.
    async fn read_chain(
        &self,
        chain: &str,
        owner: Option<Address>,
        icon: &(dyn Fn(&str) -> String + Sync),
    ) -> ApiResult<ChainRead> {
        let native = native_currency(chain);
        let tokens = self.tokens.get(chain).map(Vec::as_slice).unwrap_or_default();
        let source = self.prices.get(chain);
        let pools = match source {
            Some(source) => Some(self.pools(chain, source, tokens).await?),
            None => None,
        };
        let mut calls = Vec::new();
        if let Some(owner) = owner {
            calls.push(Call {
                target: MULTICALL3,
                data: getEthBalanceCall { addr: owner }.abi_encode(),
            });
            calls.extend(tokens.iter().map(|t| Call {
                target: t.address,
                data: balanceOfCall { owner }.abi_encode(),
            }));
        }
        let pool_list: Vec<Option<Pair>> = pools
            .as_ref()
            .map(|p| {
                std::iter::once(p.native_usd)
                    .chain(p.per_token.iter().copied())
                    .collect()
            })
            .unwrap_or_default();
        calls.extend(pool_list.iter().flatten().map(|pair| Call {
            target: pair.address,
            data: getReservesCall {}.abi_encode(),
        }));
        if calls.is_empty() {
            return Ok(ChainRead {
                balances: Vec::new(),
                native_price: None,
                token_prices: vec![None; tokens.len()],
            });
        }
        let results = evm::multicall(&self.gateway, chain, calls).await?;
        let (amounts, reserves) = results.split_at(if owner.is_some() { 1 + tokens.len() } else { 0 });

        // (wrapped-native reserve, other reserve) of each pool, in `pool_list` order.
        let mut reserves = reserves.iter();
        let pool_reserves: Vec<Option<(U256, U256)>> = pool_list
            .iter()
            .map(|pair| {
                let pair = (*pair)?;
                let r = decode::<getReservesCall>(reserves.next()?)?;
                let (r0, r1) = (U256::from(r.reserve0), U256::from(r.reserve1));
                Some(if pair.native_is_token0 { (r0, r1) } else { (r1, r0) })
            })
            .collect();
        let usd_decimals = source
            .and_then(|s| tokens.iter().find(|t| t.address == s.usd_token))
            .map_or(6, |t| t.decimals);
        let native_price = pool_reserves
            .first()
            .copied()
            .flatten()
            .and_then(|(wrapped, usd)| spot(wrapped, native.decimals, usd, usd_decimals));
        let token_prices: Vec<Option<f64>> = tokens
            .iter()
            .enumerate()
            .map(|(index, token)| {
                let source = source?;
                if token.address == source.usd_token {
                    return Some(1.0);
                }
                let (wrapped, other) = pool_reserves.get(index + 1).copied().flatten()?;
                let tokens_per_native = spot(wrapped, native.decimals, other, token.decimals)?;
                Some(native_price? / tokens_per_native)
            })
            .collect();

        let entry = |name: &str, symbol: &str, decimals: u8, raw: U256, address: Option<String>, price: Option<f64>| {
            Balance::new(chain, (name, symbol, decimals), raw, address, price, icon)
        };
        let mut balances = Vec::new();
        if let Some((native_amount, token_amounts)) = amounts.split_first() {
            let raw = decode::<getEthBalanceCall>(native_amount).unwrap_or_default();
            balances.push(entry(
                &native.name,
                &native.symbol,
                native.decimals,
                raw,
                None,
                native_price,
            ));
            for ((token, amount), price) in tokens.iter().zip(token_amounts).zip(&token_prices) {
                let raw = decode::<balanceOfCall>(amount).unwrap_or_default();
                if !raw.is_zero() {
                    let address = Some(format!("{chain}:{}", token.address));
                    balances.push(entry(&token.name, &token.symbol, token.decimals, raw, address, *price));
                }
            }
        }
        Ok(ChainRead {
            balances,
            native_price,
            token_prices,
        })
    }
}

impl ChainData {
    /// USD prices on `chain` now: `None` → the native coin, `Some(token)` → a listed token.
    pub async fn prices(&self, chain: &str) -> ApiResult<HashMap<Option<Address>, f64>> {
        let read = self.read_chain(chain, None, &|_| String::new()).await?;
        let tokens = self.tokens.get(chain).map(Vec::as_slice).unwrap_or_default();
        let mut prices: HashMap<Option<Address>, f64> = tokens
            .iter()
            .zip(read.token_prices)
            .filter_map(|(token, price)| Some((Some(token.address), price?)))
            .collect();
        if let Some(native) = read.native_price {
            prices.insert(None, native);
        }
        Ok(prices)
    }

    /// Every token listed on `chain`.
    pub fn listed_tokens(&self, chain: &str) -> &[Token] {
        self.tokens.get(chain).map(Vec::as_slice).unwrap_or_default()
    }

    /// The listed token `address` of `chain`, if listed.
    pub fn listed(&self, chain: &str, address: Address) -> Option<&Token> {
        self.tokens.get(chain)?.iter().find(|t| t.address == address)
    }
}

/// What one multicall on a chain told.
struct ChainRead {
    balances: Vec<Balance>,
    native_price: Option<f64>,
    /// In the order of the chain's listed tokens.
    token_prices: Vec<Option<f64>>,
}

/// The native coin of `chain` from latch-core's network catalogue (for chains
/// it does not know: SOL on solana chains, else Ether).
pub fn native_currency(chain: &str) -> NativeCurrency {
    latch_core::network::network(chain)
        .ok()
        .flatten()
        .map(|n| n.native_currency)
        .unwrap_or_else(|| {
            let (name, symbol, decimals) = if chain.starts_with("solana:") {
                ("Solana", "SOL", 9)
            } else {
                ("Ether", "ETH", 18)
            };
            NativeCurrency {
                name: name.into(),
                symbol: symbol.into(),
                decimals,
            }
        })
}

/// `GET /v1/account/{address}/balance`.
#[utoipa::path(get, path = "/v1/account/{address}/balance", tag = "chain data",
    params(("address" = String, Path, description = "An EVM address (0x…), or a Solana address (base58) for solana chains"), BalanceQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Balances), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn balance(
    State(state): State<AppState>,
    caller: Caller,
    Path(address): Path<String>,
    ApiQuery(query): ApiQuery<BalanceQuery>,
) -> ApiResult<Json<Balances>> {
    check_currency(query.currency.as_deref())?;
    let evm = |address: &str| {
        latch_core::address::parse_evm_address(address)
            .map(Owner::Evm)
            .map_err(|e| ApiError::bad("address", e.to_string()))
    };
    let solana = |address: &str| {
        latch_core::address::parse_solana_address(address)
            .map(|_| Owner::Solana(address.to_owned()))
            .map_err(|e| ApiError::bad("address", e.to_string()))
    };
    let (owner, chains): (Owner, Vec<String>) = match query.chain_id.as_deref().filter(|c| !c.is_empty()) {
        Some(chain) => {
            let owner = match state.gateway.chain(Some(chain))?.id.namespace.as_str() {
                "eip155" => evm(&address)?,
                "solana" => solana(&address)?,
                // Other namespaces have no balances to show yet.
                _ => return Ok(Json(Balances { balances: Vec::new() })),
            };
            (owner, vec![chain.to_owned()])
        }
        None => {
            // Not 0x…: a Solana address, or the EVM parser's refusal.
            let owner = evm(&address).or_else(|refusal| solana(&address).map_err(|_| refusal))?;
            let namespace = match owner {
                Owner::Evm(_) => "eip155:",
                Owner::Solana(_) => "solana:",
            };
            let chains = state
                .gateway
                .chain_ids()
                .filter(|c| c.starts_with(namespace))
                .map(String::from)
                .collect();
            (owner, chains)
        }
    };
    if let Some(force) = query.force_update.as_deref() {
        for item in force.split(',').filter(|s| !s.is_empty()) {
            CaipAddress::parse(item).map_err(|e| ApiError::bad("forceUpdate", e.to_string()))?;
        }
    }
    let base = state.config.public_base_url();
    let project = caller.project.id.clone();
    let icon = move |symbol: &str| token_icon(&base, symbol, &project);
    let data = &state.chain_data;
    let cached = query.force_update.is_none();
    let reads = chains.iter().map(|chain| {
        let owner = &owner;
        let key = (chain.clone(), owner.to_string());
        let icon = &icon;
        async move {
            if cached {
                if let Some(hit) = data.balances.get(&key) {
                    return Ok(hit);
                }
            }
            let read = match owner {
                Owner::Evm(address) => data.read_chain(chain, Some(*address), icon).await?.balances,
                Owner::Solana(address) => data.read_solana(chain, address, icon).await?,
            };
            data.balances.put(key, read.clone());
            Ok::<_, ApiError>(read)
        }
    });
    let mut balances = Vec::new();
    for read in join_all(reads).await {
        balances.extend(read?);
    }
    Ok(Json(Balances { balances }))
}

/// Whose balances: an EVM account, or a Solana account (its base58 address, checked).
enum Owner {
    Evm(Address),
    Solana(String),
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Owner::Evm(address) => address.fmt(f),
            Owner::Solana(address) => f.write_str(address),
        }
    }
}

/// `POST /v1/fungible/price` body.
#[derive(Deserialize, ToSchema)]
pub struct PriceRequest {
    /// Only `usd`.
    currency: String,
    /// CAIP-10 token addresses (`0xeeee…eeee` = native).
    #[schema(min_items = 1, max_items = 100)]
    addresses: Vec<String>,
}

/// One priced token.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Fungible {
    /// The CAIP-10 address asked for.
    pub address: String,
    /// Token name.
    pub name: String,
    /// Ticker.
    pub symbol: String,
    /// An image for the token.
    pub icon_url: String,
    /// USD price (0 when unknown).
    pub price: f64,
    /// ERC-20 decimals.
    pub decimals: u8,
}

/// `POST /v1/fungible/price` answer.
#[derive(Serialize, ToSchema)]
pub struct Fungibles {
    /// One entry per address asked for, in order.
    pub fungibles: Vec<Fungible>,
}

/// `POST /v1/fungible/price`: prices every address (the original prices only the first).
#[utoipa::path(post, path = "/v1/fungible/price", tag = "chain data",
    request_body = PriceRequest, security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Fungibles), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn price(
    State(state): State<AppState>,
    caller: Caller,
    body: axum::body::Bytes,
) -> ApiResult<Json<Fungibles>> {
    let request: PriceRequest = crate::error::json_body(&body)?;
    check_currency(Some(&request.currency))?;
    if request.addresses.is_empty() || request.addresses.len() > 100 {
        return Err(ApiError::bad("addresses", "1 to 100 addresses"));
    }
    let base = state.config.public_base_url();
    let icon = |symbol: &str| token_icon(&base, symbol, &caller.project.id);
    let data = &state.chain_data;
    let mut reads: std::collections::HashMap<String, ChainRead> = std::collections::HashMap::new();
    let mut fungibles = Vec::with_capacity(request.addresses.len());
    for item in &request.addresses {
        let bad = |description: String| ApiError::BadRequest {
            field: "addresses",
            description,
        };
        let caip = CaipAddress::parse(item).map_err(|e| bad(e.to_string()))?;
        let chain = caip.network.to_string();
        if state.gateway.chain(Some(&chain))?.id.namespace != "eip155" {
            return Err(bad(format!("{item}: prices are served for eip155 tokens")));
        }
        if !reads.contains_key(&chain) {
            let read = data.read_chain(&chain, None, &icon).await?;
            reads.insert(chain.clone(), read);
        }
        let read = &reads[&chain];
        let (name, symbol, decimals, price) = if caip.address.eq_ignore_ascii_case(NATIVE_TOKEN) {
            let native = native_currency(&chain);
            (native.name, native.symbol, native.decimals, read.native_price)
        } else {
            let tokens = data.tokens.get(&chain).map(Vec::as_slice).unwrap_or_default();
            let index = tokens
                .iter()
                .position(|t| t.address.to_string().eq_ignore_ascii_case(&caip.address))
                .ok_or_else(|| bad(format!("{item} is not a listed token of {chain}")))?;
            let token = &tokens[index];
            (
                token.name.clone(),
                token.symbol.clone(),
                token.decimals,
                read.token_prices[index],
            )
        };
        fungibles.push(Fungible {
            address: item.clone(),
            icon_url: icon(&symbol),
            name,
            symbol,
            price: price.unwrap_or(0.0),
            decimals,
        });
    }
    Ok(Json(Fungibles { fungibles }))
}
