//! The `/v1/convert/*` handlers: inputs parsed by latch-core, answers in the documented shapes.

use alloy_primitives::{Address, U256};
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use latch_core::swap::{abi, math, query, SwapToken, DEADLINE_SECONDS, DEFAULT_SLIPPAGE_BPS};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use utoipa::{IntoParams, ToSchema};

use super::{Convert, TYPICAL_APPROVE_GAS};
use crate::chaindata::balances::{native_currency, token_icon};
use crate::chaindata::evm;
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::AppState;

fn core(e: latch_core::Error) -> ApiError {
    let field = match &e {
        latch_core::Error::InvalidInput { what, .. } => what,
        _ => "query",
    };
    ApiError::bad(field, e.to_string())
}

fn required<'a>(value: &'a Option<String>, field: &'static str) -> ApiResult<&'a str> {
    value
        .as_deref()
        .filter(|v| !v.trim().is_empty())
        .ok_or_else(|| ApiError::bad(field, format!("{field} is required")))
}

/// `?chainId=` of the tokens and gas-price calls.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ChainQuery {
    /// `eip155:<id>` (or the bare id).
    pub chain_id: Option<String>,
}

/// A token swaps are offered for.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SwapTokenInfo {
    /// Display name.
    pub name: String,
    /// Ticker.
    pub symbol: String,
    /// CAIP-10 id (the `0xeeee…eeee` placeholder for the native coin).
    pub address: String,
    /// Decimals.
    pub decimals: u8,
    /// An image.
    pub logo_uri: String,
    /// Whether the token supports EIP-2612 permits (never assumed: false).
    pub eip2612: bool,
}

/// `GET /v1/convert/tokens` answer.
#[derive(Serialize, ToSchema)]
pub struct SwapTokens {
    /// The native coin first, then the listed tokens.
    pub tokens: Vec<SwapTokenInfo>,
}

fn chain_of(convert: &Convert, value: &Option<String>) -> ApiResult<(u64, String)> {
    let id = query::parse_chain_id("chainId", required(value, "chainId")?).map_err(core)?;
    Ok((id, convert.network(id, "chainId")?))
}

/// `GET /v1/convert/tokens`: the native coin and the tokens listed for the chain.
#[utoipa::path(get, path = "/v1/convert/tokens", tag = "convert", params(ChainQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = SwapTokens), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn tokens(
    State(state): State<AppState>,
    caller: Caller,
    ApiQuery(q): ApiQuery<ChainQuery>,
) -> ApiResult<Json<SwapTokens>> {
    let (id, chain) = chain_of(&state.convert, &q.chain_id)?;
    let base = state.config.public_base_url();
    let icon = |symbol: &str| token_icon(&base, symbol, &caller.project.id);
    let native = native_currency(&chain);
    let mut tokens = vec![SwapTokenInfo {
        name: native.name.clone(),
        symbol: native.symbol.clone(),
        address: query::TokenId {
            chain_id: id,
            token: SwapToken::Native,
        }
        .caip10(),
        decimals: native.decimals,
        logo_uri: icon(&native.symbol),
        eip2612: false,
    }];
    tokens.extend(state.chain_data.listed_tokens(&chain).iter().map(|t| SwapTokenInfo {
        name: t.name.clone(),
        symbol: t.symbol.clone(),
        address: format!("{chain}:{}", t.address.to_checksum(None)),
        decimals: t.decimals,
        logo_uri: icon(&t.symbol),
        eip2612: false,
    }));
    Ok(Json(SwapTokens { tokens }))
}

/// `GET /v1/convert/gas-price` answer: wei per gas, decimal strings.
#[derive(Serialize, ToSchema)]
pub struct GasPrice {
    /// The node's `eth_gasPrice`.
    pub standard: String,
    /// 20 % above standard, to be included sooner.
    pub fast: String,
    /// 50 % above standard.
    pub instant: String,
}

/// `GET /v1/convert/gas-price`: the chain's gas price (read once per block).
#[utoipa::path(get, path = "/v1/convert/gas-price", tag = "convert", params(ChainQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = GasPrice), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn gas_price(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(q): ApiQuery<ChainQuery>,
) -> ApiResult<Json<GasPrice>> {
    let (_, chain) = chain_of(&state.convert, &q.chain_id)?;
    state.gateway.chain(Some(&chain))?;
    let price = state.convert.cache.gas_price(&state.gateway, &chain).await?;
    let scaled = |percent: u64| (price * U256::from(percent) / U256::from(100u64)).to_string();
    Ok(Json(GasPrice {
        standard: price.to_string(),
        fast: scaled(120),
        instant: scaled(150),
    }))
}

/// `GET /v1/convert/quotes` query.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct QuoteQuery {
    /// Input amount in base units.
    pub amount: Option<String>,
    /// Who swaps (EVM address, plain or CAIP-10).
    pub user_address: Option<String>,
    /// CAIP-10 id of the token sold.
    pub from: Option<String>,
    /// CAIP-10 id of the token bought.
    pub to: Option<String>,
    /// Wei per gas for the fee shown; unset: the chain's.
    pub gas_price: Option<String>,
}

/// One quote (the documented fields, then Latch's additions).
#[derive(Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Quote {
    /// Names the route and the block it was read at.
    pub id: String,
    /// Input, base units.
    pub from_amount: String,
    /// CAIP-10 id sold.
    pub from_account: String,
    /// Expected output, base units.
    pub to_amount: String,
    /// CAIP-10 id bought.
    pub to_account: String,
    /// Least output at the default slippage (1 %), base units.
    pub to_amount_min: String,
    /// Slippage `toAmountMin` assumes, percent.
    pub slippage: f64,
    /// How far the trade moves the pools' price, percent.
    pub price_impact: f64,
    /// Where the route comes from: `uniswap-v2` (the chain's pools), `0x`, `1inch`.
    pub source: String,
    /// CAIP-10 ids along the route.
    pub path: Vec<String>,
    /// The contract to approve (the router) for a token input.
    pub spender: String,
    /// Gas the swap typically takes.
    pub gas: String,
    /// Wei per gas used for the fee.
    pub gas_price: String,
    /// The network fee in wei.
    pub network_fee: String,
    /// The network fee in USD, when the native coin has a price.
    pub network_fee_usd: Option<f64>,
    /// The block the pools were read at.
    pub block: u64,
}

/// `GET /v1/convert/quotes` answer.
#[derive(Serialize, ToSchema)]
pub struct Quotes {
    /// The best quote (one).
    pub quotes: Vec<Quote>,
}

/// A parsed swap request.
pub struct SwapInput {
    pub(crate) pair: latch_core::swap::SwapPair,
    pub(crate) amount: U256,
    pub(crate) user: Address,
}

fn swap_input(
    amount: &Option<String>,
    from: &Option<String>,
    to: &Option<String>,
    user: &Option<String>,
) -> ApiResult<SwapInput> {
    let pair = query::parse_swap_pair(required(from, "from")?, required(to, "to")?).map_err(core)?;
    let amount = query::parse_base_units("amount", required(amount, "amount")?).map_err(core)?;
    let user = query::parse_account("userAddress", required(user, "userAddress")?).map_err(core)?;
    Ok(SwapInput { pair, amount, user })
}

fn caip(chain_id: u64, address: Address, native: Option<Address>) -> String {
    let token = if Some(address) == native {
        SwapToken::Native
    } else {
        SwapToken::Erc20(address)
    };
    query::TokenId { chain_id, token }.caip10()
}

impl Convert {
    /// The router an approval for `input` names: the one the best chain route goes through,
    /// the V2 router when there is none (an approval may precede liquidity).
    async fn spender(&self, state: &AppState, input: &SwapInput) -> ApiResult<Address> {
        let market = self.market(&input.pair)?;
        let (from, to, _) = input.pair.ends(market.wrapped_native).map_err(core)?;
        match self.cache.route(&state.gateway, market, from, to, input.amount).await {
            Ok((route, _)) => Ok(route.router(market)),
            Err(ApiError::Refused { code: "NO_ROUTE", .. }) => Ok(market.router),
            Err(e) => Err(e),
        }
    }

    /// The best quote for `input`: the chain's route, or a plug-in's when it pays more.
    pub async fn quote(&self, state: &AppState, input: &SwapInput, gas_price: Option<U256>) -> ApiResult<Quote> {
        let market = self.market(&input.pair)?;
        let (from, to, kind) = input.pair.ends(market.wrapped_native).map_err(core)?;
        let (route, head) = self.cache.route(&state.gateway, market, from, to, input.amount).await?;
        let block = head.0;
        let gas_price = match gas_price {
            Some(p) => p,
            None => self.cache.gas_price_at(&state.gateway, &market.chain, &head).await?,
        };
        let gas = route.typical_gas(kind);
        let fee = gas * gas_price;
        let native_usd = state
            .chain_data
            .prices(&market.chain)
            .await
            .ok()
            .and_then(|p| p.get(&None).copied());
        let id = input.pair.chain_id;
        let from_native = (input.pair.from == SwapToken::Native).then_some(market.wrapped_native);
        let to_native = (input.pair.to == SwapToken::Native).then_some(market.wrapped_native);
        let out = route.amount_out();
        let chain_quote = Quote {
            id: format!("{}:{}:{block}", route.source(), market.chain),
            from_amount: input.amount.to_string(),
            from_account: caip(id, from, from_native),
            to_amount: out.to_string(),
            to_account: caip(id, to, to_native),
            to_amount_min: math::minimum_received(out, DEFAULT_SLIPPAGE_BPS).to_string(),
            slippage: f64::from(DEFAULT_SLIPPAGE_BPS) / 100.0,
            price_impact: f64::from(route.price_impact_bps()) / 100.0,
            source: route.source().into(),
            path: route
                .tokens()
                .iter()
                .enumerate()
                .map(|(i, a)| {
                    let end = (i == 0)
                        .then_some(from_native)
                        .or((i + 1 == route.tokens().len()).then_some(to_native));
                    caip(id, *a, end.flatten())
                })
                .collect(),
            spender: route.router(market).to_checksum(None),
            gas: gas.to_string(),
            gas_price: gas_price.to_string(),
            network_fee: fee.to_string(),
            network_fee_usd: native_usd.map(|p| p * evm::to_f64(fee, 18)),
            block,
        };
        Ok(super::aggregators::best(&self.aggregators, input, chain_quote).await)
    }
}

/// `GET /v1/convert/quotes`: the best route's output for `amount` of `from` in `to`.
#[utoipa::path(get, path = "/v1/convert/quotes", tag = "convert", params(QuoteQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Quotes), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn quotes(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(q): ApiQuery<QuoteQuery>,
) -> ApiResult<Json<Quotes>> {
    let input = swap_input(&q.amount, &q.from, &q.to, &q.user_address)?;
    let gas_price = match q.gas_price.as_deref().filter(|g| !g.is_empty()) {
        Some(g) => Some(query::parse_base_units("gasPrice", g).map_err(core)?),
        None => None,
    };
    let quote = state.convert.quote(&state, &input, gas_price).await?;
    Ok(Json(Quotes { quotes: vec![quote] }))
}

/// `GET /v1/convert/allowance` query.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AllowanceQuery {
    /// CAIP-10 id of the token.
    pub token_address: Option<String>,
    /// The owner (EVM address, plain or CAIP-10).
    pub user_address: Option<String>,
    /// Latch's addition: CAIP-10 id bought. With `amount`, the allowance is the one of the
    /// router the best route for that swap goes through (a V3 router when a V3 route wins);
    /// without, the V2 router's.
    pub to: Option<String>,
    /// Latch's addition: the swap's input in base units (with `to`).
    pub amount: Option<String>,
}

/// `GET /v1/convert/allowance` answer.
#[derive(Serialize, ToSchema)]
pub struct Allowance {
    /// What the router may spend, base units (2^256 − 1 for the native coin, which needs no approval).
    pub allowance: String,
}

/// `GET /v1/convert/allowance`: what the chain's router may spend of the user's token.
#[utoipa::path(get, path = "/v1/convert/allowance", tag = "convert", params(AllowanceQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Allowance), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn allowance(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(q): ApiQuery<AllowanceQuery>,
) -> ApiResult<Json<Allowance>> {
    let token = query::parse_token_id("tokenAddress", required(&q.token_address, "tokenAddress")?).map_err(core)?;
    let user = query::parse_account("userAddress", required(&q.user_address, "userAddress")?).map_err(core)?;
    let pair = latch_core::swap::SwapPair {
        chain_id: token.chain_id,
        from: token.token,
        to: SwapToken::Native,
    };
    let market = state.convert.market(&pair)?;
    let SwapToken::Erc20(address) = token.token else {
        return Ok(Json(Allowance {
            allowance: U256::MAX.to_string(),
        }));
    };
    let spender = match (q.to.as_deref().filter(|t| !t.is_empty()), &q.amount) {
        (Some(_), Some(_)) => {
            let input = swap_input(&q.amount, &q.token_address, &q.to, &q.user_address)?;
            state.convert.spender(&state, &input).await?
        }
        _ => market.router,
    };
    let reply = evm::eth_call(
        &state.gateway,
        &market.chain,
        address,
        abi::allowance_data(user, spender),
    )
    .await?;
    let allowance = abi::decode_u256(&reply).ok_or_else(|| {
        ApiError::bad(
            "tokenAddress",
            "the token did not answer allowance(): not an ERC-20 contract",
        )
    })?;
    Ok(Json(Allowance {
        allowance: allowance.to_string(),
    }))
}

/// An EVM transaction's fields, decimal strings (`value`, `data` hex).
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Eip155Fields {
    /// Gas limit (estimated unless `disableEstimate`).
    pub gas: String,
    /// Wei per gas.
    pub gas_price: String,
}

/// A transaction for the wallet.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuiltTx {
    /// The sender (EIP-55).
    pub from: String,
    /// The contract called (EIP-55).
    pub to: String,
    /// Calldata, `0x`-hex.
    pub data: String,
    /// Wei sent, decimal (the original's name for it in build-transaction).
    pub amount: String,
    /// Wei sent, `0x`-hex quantity (what `eth_sendTransaction` takes).
    pub value: String,
    /// Gas fields.
    pub eip155: Eip155Fields,
}

/// A built transaction.
#[derive(Serialize, ToSchema)]
pub struct BuiltTransaction {
    /// The transaction.
    pub tx: BuiltTx,
}

/// `GET /v1/convert/build-approve` query.
#[derive(Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ApproveQuery {
    /// The owner.
    pub user_address: Option<String>,
    /// CAIP-10 id of the token to approve.
    pub from: Option<String>,
    /// CAIP-10 id bought (same chain).
    pub to: Option<String>,
    /// Base units to approve; unset: unlimited (2^256 − 1).
    pub amount: Option<String>,
}

/// `GET /v1/convert/build-approve`: an `approve(router, amount)` of the `from` token, naming the
/// router the best route for `amount` goes through (the V2 router when none is found).
#[utoipa::path(get, path = "/v1/convert/build-approve", tag = "convert", params(ApproveQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = BuiltTransaction), (status = 400, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn build_approve(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(q): ApiQuery<ApproveQuery>,
) -> ApiResult<Json<BuiltTransaction>> {
    let amount = match q.amount.as_deref().filter(|a| !a.is_empty()) {
        Some(a) => query::parse_base_units("amount", a).map_err(core)?,
        None => U256::MAX,
    };
    let input = swap_input(&Some(amount.to_string()), &q.from, &q.to, &q.user_address)?;
    let market = state.convert.market(&input.pair)?;
    let SwapToken::Erc20(token) = input.pair.from else {
        return Err(ApiError::bad("from", "the native coin needs no approval"));
    };
    let gas_price = state.convert.cache.gas_price(&state.gateway, &market.chain).await?;
    let spender = state.convert.spender(&state, &input).await?;
    Ok(Json(BuiltTransaction {
        tx: BuiltTx {
            from: input.user.to_checksum(None),
            to: token.to_checksum(None),
            data: alloy_primitives::hex::encode_prefixed(abi::approve_data(spender, amount)),
            amount: "0".into(),
            value: "0x0".into(),
            eip155: Eip155Fields {
                gas: TYPICAL_APPROVE_GAS.to_string(),
                gas_price: gas_price.to_string(),
            },
        },
    }))
}

/// `POST /v1/convert/build-transaction` body.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BuildRequest {
    /// Input, base units.
    pub amount: Option<String>,
    /// `{slippage}` in percent (default 1).
    #[serde(default)]
    pub eip155: Option<SlippageField>,
    /// The project (also accepted as a query parameter or header).
    #[serde(default)]
    pub project_id: Option<String>,
    /// CAIP-10 id sold.
    pub from: Option<String>,
    /// CAIP-10 id bought.
    pub to: Option<String>,
    /// Who swaps and receives.
    pub user_address: Option<String>,
    /// Skip `eth_estimateGas` (the gas field is then the typical gas).
    #[serde(default)]
    pub disable_estimate: Option<bool>,
    /// Latch's addition: the least output the user was shown (a quote's `toAmountMin`), base
    /// units. Given, it is the swap's minimum, so a price that moved past it since the quote is
    /// refused (`SLIPPAGE_EXCEEDED`) instead of swapping at a worse rate than shown.
    #[serde(default)]
    pub to_amount_min: Option<String>,
}

/// The slippage, a number or a string, percent.
#[derive(Deserialize, ToSchema)]
pub struct SlippageField {
    /// e.g. `1` or `"0.5"`.
    #[schema(value_type = String)]
    pub slippage: Option<Value>,
}

/// Why a node refused to estimate a swap, as a person reads it.
fn refusal(message: &str) -> ApiError {
    // V2's router says INSUFFICIENT_OUTPUT_AMOUNT and TRANSFER_FROM_FAILED; V3's SwapRouter
    // "Too little received" and STF (TransferHelper's safeTransferFrom).
    let (code, field, description) =
        if message.contains("INSUFFICIENT_OUTPUT_AMOUNT") || message.contains("Too little received") {
            (
                "SLIPPAGE_EXCEEDED",
                "eip155.slippage",
                "Slippage exceeded: the price moved beyond the slippage tolerance",
            )
        } else if message.contains("TRANSFER_FROM_FAILED")
            || message.contains("allowance")
            || message.trim_end().ends_with("STF")
        {
            (
                "INSUFFICIENT_ALLOWANCE",
                "from",
                "The router may not spend this token yet: approve it first",
            )
        } else if message.contains("insufficient funds") || message.contains("ETH_TRANSFER_FAILED") {
            (
                "INSUFFICIENT_BALANCE",
                "amount",
                "Insufficient balance for this swap and its network fee",
            )
        } else {
            ("SWAP_REVERTED", "amount", "The swap would fail on chain")
        };
    ApiError::Refused {
        status: StatusCode::BAD_REQUEST,
        code,
        field,
        description: format!("{description} ({message})"),
    }
}

/// `POST /v1/convert/build-transaction`: the router call for the best route, with
/// the minimum output at the slippage and a deadline 20 minutes out; or a configured
/// aggregator's transaction when it pays more and still guarantees that minimum.
#[utoipa::path(post, path = "/v1/convert/build-transaction", tag = "convert", request_body = BuildRequest,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = BuiltTransaction), (status = 400, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 503, body = ErrorBody)))]
pub async fn build_transaction(
    State(state): State<AppState>,
    _caller: Caller,
    body: axum::body::Bytes,
) -> ApiResult<Json<BuiltTransaction>> {
    let request: BuildRequest = crate::error::json_body(&body)?;
    let input = swap_input(&request.amount, &request.from, &request.to, &request.user_address)?;
    let slippage = match request.eip155.and_then(|e| e.slippage) {
        None | Some(Value::Null) => DEFAULT_SLIPPAGE_BPS,
        Some(Value::String(s)) => query::parse_slippage_bps(&s).map_err(core)?,
        Some(Value::Number(n)) => query::parse_slippage_bps(&n.to_string()).map_err(core)?,
        Some(_) => {
            return Err(ApiError::bad(
                "eip155.slippage",
                "expected a percentage such as 1 or 0.5",
            ))
        }
    };
    let convert = &state.convert;
    let market = convert.market(&input.pair)?;
    let (from, to, kind) = input.pair.ends(market.wrapped_native).map_err(core)?;
    let (route, head) = convert
        .cache
        .route(&state.gateway, market, from, to, input.amount)
        .await?;
    let shown_min = match request.to_amount_min.as_deref().filter(|m| !m.is_empty()) {
        Some(shown) => Some(query::parse_base_units("toAmountMin", shown).map_err(core)?),
        None => None,
    };
    let min = shown_min.unwrap_or_else(|| math::minimum_received(route.amount_out(), slippage));
    let gas_price = convert.cache.gas_price_at(&state.gateway, &market.chain, &head).await?;
    let plug_in = super::aggregators::best_swap(&convert.aggregators, &input, slippage, route.amount_out(), min).await;
    let (to, data, value, typical_gas) = match plug_in {
        Some((_, swap)) => (swap.to, swap.data, swap.value, swap.gas),
        None => {
            let deadline = u64::try_from(crate::now_ms() / 1000).unwrap_or_default() + DEADLINE_SECONDS;
            let (data, value) = route.swap_data(market, kind, input.amount, min, input.user, deadline);
            (route.router(market), data, value, Some(route.typical_gas(kind)))
        }
    };
    let data = alloy_primitives::hex::encode_prefixed(data);
    let value_hex = format!("0x{value:x}");
    let gas = match (request.disable_estimate == Some(true), typical_gas) {
        (true, Some(gas)) => gas,
        _ => estimate(&state, &market.chain, input.user, to, &data, &value_hex).await?,
    };
    Ok(Json(BuiltTransaction {
        tx: BuiltTx {
            from: input.user.to_checksum(None),
            to: to.to_checksum(None),
            data,
            amount: value.to_string(),
            value: value_hex,
            eip155: Eip155Fields {
                gas: gas.to_string(),
                gas_price: gas_price.to_string(),
            },
        },
    }))
}

/// `eth_estimateGas` of the swap; a revert becomes the refusal it means (slippage, allowance, balance).
async fn estimate(
    state: &AppState,
    chain: &str,
    from: Address,
    to: Address,
    data: &str,
    value: &str,
) -> ApiResult<U256> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "eth_estimateGas",
        "params": [{"from": from.to_string(), "to": to.to_string(), "data": data, "value": value}]});
    let reply = state
        .gateway
        .call_internal(chain, axum::body::Bytes::from(request.to_string()))
        .await?;
    let reply: Value = serde_json::from_slice(&reply.0).map_err(|e| ApiError::Internal(e.into()))?;
    if let Some(error) = reply.get("error") {
        let message = error.get("message").and_then(Value::as_str).unwrap_or("reverted");
        return Err(refusal(message));
    }
    reply
        .get("result")
        .and_then(Value::as_str)
        .and_then(|r| U256::from_str_radix(r.trim_start_matches("0x"), 16).ok())
        .ok_or_else(|| ApiError::Internal(anyhow::anyhow!("eth_estimateGas: no result")))
}
