//! Buying crypto (behaviour 5.9, 6.10): `GET /v1/onramp/options`, `POST /v1/onramp/quote`
//! and `POST /v1/generators/onrampurl`, answered by the operator's providers
//! (Coinbase, MoonPay, Transak) or the built-in [`sandbox`]. Every rule (limits,
//! fees, URL formats) is `latch_core::onramp`'s; this module does the IO, the
//! caching and the fallbacks: failed options answer the defaults, a failed quote
//! a marked estimate.

pub mod config;
pub mod providers;
pub mod sandbox;

use axum::http::StatusCode;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Bytes;
use axum::extract::State;
use axum::Json;
use latch_core::onramp::{self as core, LimitError, OnrampOptions, OnrampQuote};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};

use self::providers::Provider;
use crate::config::Config;
use crate::error::{ApiError, ApiQuery, ApiResult, ErrorBody};
use crate::project::Caller;
use crate::AppState;

/// Seconds options are cached unless configured.
const OPTIONS_TTL: Duration = Duration::from_secs(300);
/// Seconds a quote is reused for the same question (the modal asks again as the user types).
const QUOTE_TTL: Duration = Duration::from_secs(15);
/// Quotes kept at most (oldest dropped first).
const QUOTE_CACHE: usize = 4_096;

/// The on-ramp service: providers in the operator's order (the first is the default).
pub struct Onramp {
    providers: Vec<Arc<dyn Provider>>,
    /// The sandbox, also serving its checkout page.
    pub sandbox: Option<Arc<sandbox::Sandbox>>,
    options_ttl: Duration,
    options: Mutex<HashMap<&'static str, (Instant, OnrampOptions, bool)>>,
    quotes: Mutex<HashMap<String, (Instant, OnrampQuote)>>,
}

impl Onramp {
    /// The providers `config.onramp` names; the sandbox pays through `gateway`.
    pub fn new(
        config: &Config,
        gateway: Arc<crate::gateway::Gateway>,
        chain_data: Arc<crate::chaindata::ChainData>,
    ) -> anyhow::Result<Self> {
        let onramp = &config.onramp;
        let timeout = Duration::from_millis(config.upstream_timeout_ms);
        let mut providers: Vec<Arc<dyn Provider>> = Vec::new();
        if let Some(c) = &onramp.coinbase {
            providers.push(Arc::new(providers::Coinbase::new(c.clone(), timeout)));
        }
        if let Some(m) = &onramp.moonpay {
            providers.push(Arc::new(providers::MoonPay::new(m.clone(), timeout)));
        }
        if let Some(t) = &onramp.transak {
            providers.push(Arc::new(providers::Transak::new(t.clone())));
        }
        let sandbox = if onramp.sandbox_enabled() {
            let sandbox = Arc::new(sandbox::Sandbox::new(config, gateway, chain_data)?);
            providers.push(sandbox.clone());
            Some(sandbox)
        } else {
            None
        };
        Ok(Self {
            providers,
            sandbox,
            options_ttl: onramp.options_ttl_secs.map_or(OPTIONS_TTL, Duration::from_secs),
            options: Mutex::default(),
            quotes: Mutex::default(),
        })
    }

    /// The provider named `id`, or the default when `id` is empty.
    fn provider(&self, id: Option<&str>) -> ApiResult<&Arc<dyn Provider>> {
        match id.filter(|id| !id.is_empty()) {
            None => self.providers.first().ok_or_else(|| ApiError::Refused {
                status: StatusCode::BAD_REQUEST,
                code: "ONRAMP_DISABLED",
                field: "provider",
                description: "no on-ramp provider is configured on this server".into(),
            }),
            Some(id) => self
                .providers
                .iter()
                .find(|p| p.id() == id)
                .ok_or_else(|| ApiError::Refused {
                    status: StatusCode::BAD_REQUEST,
                    code: "UNKNOWN_PROVIDER",
                    field: "provider",
                    description: format!("provider {id} is not configured here"),
                }),
        }
    }

    /// The provider's options, from the cache within its TTL; the defaults when it fails (behaviour 5.9),
    /// with whether they are the fallback.
    async fn options_of(&self, provider: &Arc<dyn Provider>) -> (OnrampOptions, bool) {
        if let Some((at, options, fallback)) = lock(&self.options).get(provider.id()) {
            if at.elapsed() < self.options_ttl {
                return (options.clone(), *fallback);
            }
        }
        let (options, fallback) = match provider.options().await {
            Ok(options) => (options, false),
            Err(e) => {
                tracing::warn!(provider = provider.id(), error = %e, "onramp options failed: answering the defaults");
                (core::default_options(), true)
            }
        };
        // A fallback is kept briefly, so the provider is asked again soon.
        let at = if fallback {
            Instant::now() - self.options_ttl + Duration::from_secs(10).min(self.options_ttl)
        } else {
            Instant::now()
        };
        lock(&self.options).insert(provider.id(), (at, options.clone(), fallback));
        (options, fallback)
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn refused(error: LimitError, field: &'static str) -> ApiError {
    ApiError::Refused {
        status: StatusCode::BAD_REQUEST,
        code: error.code(),
        field,
        description: error.to_string(),
    }
}

/// `GET /v1/onramp/options` parameters.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OptionsQuery {
    /// A configured provider's id; the first configured when absent.
    provider: Option<String>,
}

/// The options of behaviour 6.10, with which provider answered and which are configured.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OptionsReply {
    /// `[{id, payment_method_limits:[{id,min,max}]}]`.
    #[schema(value_type = Vec<Object>)]
    pub payment_currencies: Vec<core::PaymentCurrency>,
    /// `[{id, name, symbol, networks:[{name, display_name, chain_id, contract_address}]}]`.
    #[schema(value_type = Vec<Object>)]
    pub purchase_currencies: Vec<core::PurchaseCurrency>,
    /// The provider these options are for.
    pub provider: String,
    /// Every configured provider, the default first.
    pub providers: Vec<String>,
    /// True when the provider failed and these are the built-in defaults (behaviour 5.9).
    pub fallback: bool,
}

/// `GET /v1/onramp/options`.
#[utoipa::path(get, path = "/v1/onramp/options", tag = "onramp", params(OptionsQuery),
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = OptionsReply), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
pub async fn options(
    State(state): State<AppState>,
    _caller: Caller,
    ApiQuery(query): ApiQuery<OptionsQuery>,
) -> ApiResult<Json<OptionsReply>> {
    let onramp = &state.onramp;
    let provider = onramp.provider(query.provider.as_deref())?;
    let (options, fallback) = onramp.options_of(provider).await;
    Ok(Json(OptionsReply {
        payment_currencies: options.payment_currencies,
        purchase_currencies: options.purchase_currencies,
        provider: provider.id().to_owned(),
        providers: onramp.providers.iter().map(|p| p.id().to_owned()).collect(),
        fallback,
    }))
}

/// `POST /v1/onramp/quote` body (behaviour 6.10).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuoteBody {
    /// The asset's id in the options (e.g. `ETH`).
    purchase_currency: String,
    /// The fiat currency (e.g. `USD`).
    payment_currency: String,
    /// Fiat amount, decimal text or number.
    #[schema(value_type = String)]
    amount: Value,
    /// The network's name in the options (e.g. `base`).
    #[serde(default)]
    network: String,
    /// `CARD` (default) or `ACH_BANK_ACCOUNT`.
    #[serde(default)]
    payment_method: Option<String>,
    /// A configured provider; the default when absent.
    #[serde(default)]
    provider: Option<String>,
}

/// A quote request the rules accepted.
#[derive(Clone, Debug)]
pub struct QuoteAsk {
    /// The asset's symbol.
    pub purchase_currency: String,
    /// Its decimals (18 for a native coin).
    pub decimals: u8,
    /// The chosen network (name, chain reference, contract).
    pub network: String,
    /// Chain reference of the network.
    pub chain_id: String,
    /// Token contract, empty for native.
    pub contract: String,
    /// Fiat code, upper case.
    pub payment_currency: String,
    /// The amount paid, in cents.
    pub cents: u64,
    /// Payment method id.
    pub method: String,
}

/// JSON text of a number or string (the original client sends numbers).
fn text(value: &Value) -> String {
    match value {
        Value::String(s) => s.trim().to_owned(),
        Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// The network of `asset` named `network` (its name or chain reference); the
/// ethereum fallback when the name is empty (behaviour 7.6).
fn network_of<'a>(asset: &'a core::PurchaseCurrency, network: &str) -> ApiResult<&'a core::PurchaseNetwork> {
    let found = if network.is_empty() {
        core::select_network(asset, "").or_else(|| asset.networks.first())
    } else {
        asset
            .networks
            .iter()
            .find(|n| n.name == network || n.chain_id == network)
    };
    found.ok_or_else(|| ApiError::Refused {
        status: StatusCode::BAD_REQUEST,
        code: "UNSUPPORTED_NETWORK",
        field: "network",
        description: format!("{} cannot be bought on {network}", asset.symbol),
    })
}

/// `POST /v1/onramp/quote`: the provider's quote, or a marked estimate when it fails (behaviour 5.9).
#[utoipa::path(post, path = "/v1/onramp/quote", tag = "onramp", request_body = QuoteBody,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = Object, description = "coinbaseFee, networkFee, paymentSubtotal, paymentTotal, purchaseAmount ({amount, currency}), quoteId, estimate"),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody), (status = 422, body = ErrorBody)))]
pub async fn quote(State(state): State<AppState>, _caller: Caller, body: Bytes) -> ApiResult<Json<OnrampQuote>> {
    let body: QuoteBody = crate::error::json_body(&body)?;
    let onramp = &state.onramp;
    let provider = onramp.provider(body.provider.as_deref())?;
    let payment_currency = body.payment_currency.trim().to_ascii_uppercase();
    if !core::is_fiat_code(&payment_currency) {
        return Err(ApiError::bad(
            "paymentCurrency",
            "expected a fiat currency code such as USD",
        ));
    }
    let purchase = body.purchase_currency.trim().to_ascii_uppercase();
    if !core::is_asset_symbol(&purchase) {
        return Err(ApiError::bad(
            "purchaseCurrency",
            "expected an asset symbol such as ETH",
        ));
    }
    let method = body
        .payment_method
        .as_deref()
        .unwrap_or(core::METHOD_CARD)
        .to_ascii_uppercase();
    let (options, _) = onramp.options_of(provider).await;
    let cents = core::check_amount(&options, &payment_currency, &method, &text(&body.amount))
        .map_err(|e| refused(e, "amount"))?;
    let asset = options
        .purchase_currencies
        .iter()
        .find(|c| c.id.eq_ignore_ascii_case(&purchase) || c.symbol.eq_ignore_ascii_case(&purchase))
        .ok_or_else(|| ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "UNSUPPORTED_ASSET",
            field: "purchaseCurrency",
            description: format!("{purchase} cannot be bought here"),
        })?;
    let network = network_of(asset, body.network.trim())?;
    let ask = QuoteAsk {
        purchase_currency: asset.symbol.clone(),
        decimals: if network.contract_address.is_empty() { 18 } else { 6 },
        network: network.name.clone(),
        chain_id: network.chain_id.clone(),
        contract: network.contract_address.clone(),
        payment_currency,
        cents,
        method,
    };
    let key = format!(
        "{}|{}|{}|{}|{}|{}",
        provider.id(),
        ask.purchase_currency,
        ask.network,
        ask.payment_currency,
        ask.cents,
        ask.method
    );
    if let Some((at, hit)) = lock(&onramp.quotes).get(&key) {
        if at.elapsed() < QUOTE_TTL {
            return Ok(Json(hit.clone()));
        }
    }
    let quote = match provider.quote(&ask).await {
        Ok(quote) => quote,
        Err(e) => {
            tracing::debug!(provider = provider.id(), error = %e, "onramp quote failed: answering an estimate");
            let price = state.onramp_price(&ask).await;
            estimate(&ask, price.as_deref())?
        }
    };
    let mut quotes = lock(&onramp.quotes);
    if quotes.len() >= QUOTE_CACHE {
        quotes.retain(|_, (at, _)| at.elapsed() < QUOTE_TTL);
        if quotes.len() >= QUOTE_CACHE {
            quotes.clear();
        }
    }
    quotes.insert(key, (Instant::now(), quote.clone()));
    Ok(Json(quote))
}

/// The behaviour 5.9 estimate; without a price the purchase amount is left empty (unknown), never guessed.
fn estimate(ask: &QuoteAsk, price: Option<&str>) -> ApiResult<OnrampQuote> {
    let refuse = |e: latch_core::Error| ApiError::Refused {
        status: StatusCode::BAD_REQUEST,
        code: "INVALID_AMOUNT",
        field: "amount",
        description: e.to_string(),
    };
    match price {
        Some(price) => core::estimate(
            ask.cents,
            &ask.payment_currency,
            &ask.purchase_currency,
            ask.decimals,
            price,
        )
        .map_err(refuse),
        None => {
            let mut quote = core::estimate(
                ask.cents,
                &ask.payment_currency,
                &ask.purchase_currency,
                ask.decimals,
                "1",
            )
            .map_err(refuse)?;
            quote.purchase_amount.amount = String::new();
            Ok(quote)
        }
    }
}

/// The price (decimal text) of `symbol`, the native coin (`token` `None`) or a token of `chain`,
/// where this server reads one: 1 for USD stablecoins, else the chain's market when the chain
/// is served. Prices are in USD; other fiat currencies are not converted (estimates and the
/// sandbox only).
pub(crate) async fn price_text(
    chain_data: &crate::chaindata::ChainData,
    symbol: &str,
    chain: &str,
    token: Option<alloy_primitives::Address>,
) -> Option<String> {
    if matches!(symbol, "USDC" | "USDT" | "DAI" | "PYUSD") {
        return Some("1".into());
    }
    let prices = chain_data.prices(chain).await.ok()?;
    let price = prices.get(&token).copied().filter(|p| p.is_finite() && *p > 0.0)?;
    let text = format!("{price:.8}");
    Some(text.trim_end_matches('0').trim_end_matches('.').to_owned())
}

impl AppState {
    /// The asked asset's price ([`price_text`]).
    pub(crate) async fn onramp_price(&self, ask: &QuoteAsk) -> Option<String> {
        let token = if ask.contract.is_empty() {
            None
        } else {
            Some(ask.contract.parse().ok()?)
        };
        let chain = format!("eip155:{}", ask.chain_id);
        price_text(&self.chain_data, &ask.purchase_currency, &chain, token).await
    }
}

/// One destination of `POST /v1/generators/onrampurl` (behaviour 6.10).
#[derive(Deserialize, ToSchema)]
pub struct DestinationWallet {
    /// The wallet address.
    address: String,
    /// Network names (`base`, or a sandbox network's name).
    #[serde(default)]
    blockchains: Vec<String>,
    /// Asset symbols.
    #[serde(default)]
    assets: Vec<String>,
}

/// `POST /v1/generators/onrampurl` body (behaviour 6.10).
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UrlBody {
    /// Exactly the wallets the checkout may deliver to (the first is used).
    destination_wallets: Vec<DestinationWallet>,
    /// The network preselected.
    #[serde(default)]
    default_network: Option<String>,
    /// The app's id for the buyer.
    #[serde(default)]
    partner_user_id: Option<String>,
    /// Only `buy`.
    #[serde(default)]
    default_experience: Option<String>,
    /// Crypto preset.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    preset_crypto_amount: Option<Value>,
    /// Fiat preset.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    preset_fiat_amount: Option<Value>,
    /// Fiat code of the preset (`USD` when absent).
    #[serde(default)]
    fiat_currency: Option<String>,
    /// Payment method preselected (`CARD` when absent).
    #[serde(default)]
    payment_method: Option<String>,
    /// A configured provider; the default when absent.
    #[serde(default)]
    provider: Option<String>,
}

/// A URL request the rules accepted.
#[derive(Clone, Debug)]
pub struct UrlAsk {
    /// Destination address.
    pub address: String,
    /// Network names the wallet takes.
    pub blockchains: Vec<String>,
    /// Asset symbols.
    pub assets: Vec<String>,
    /// The network preselected.
    pub network: String,
    /// Fiat preset, cents.
    pub fiat_cents: Option<u64>,
    /// Crypto preset, decimal text.
    pub crypto_amount: Option<String>,
    /// Fiat code.
    pub fiat_currency: String,
    /// Payment method id.
    pub method: String,
    /// The app's id for the buyer (may be empty).
    pub partner_user_id: String,
}

/// The generated checkout URL.
#[derive(Serialize, ToSchema)]
pub struct UrlReply {
    /// Open it in a popup or a new tab.
    pub url: String,
    /// The provider it belongs to.
    pub provider: String,
}

/// `POST /v1/generators/onrampurl`.
#[utoipa::path(post, path = "/v1/generators/onrampurl", tag = "onramp", request_body = UrlBody,
    security(("project_id" = []), ("project_header" = [])),
    responses((status = 200, body = UrlReply), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 422, body = ErrorBody), (status = 503, body = ErrorBody)))]
pub async fn onramp_url(State(state): State<AppState>, _caller: Caller, body: Bytes) -> ApiResult<Json<UrlReply>> {
    let body: UrlBody = crate::error::json_body(&body)?;
    let provider = state.onramp.provider(body.provider.as_deref())?;
    let wallet = match body.destination_wallets.as_slice() {
        [wallet] => wallet,
        [] => return Err(ApiError::bad("destinationWallets", "name the wallet to deliver to")),
        _ => {
            return Err(ApiError::bad(
                "destinationWallets",
                "one destination wallet per checkout",
            ))
        }
    };
    let address = wallet.address.trim();
    if !(latch_core::address::is_valid_address("eip155", address)
        || latch_core::address::is_valid_address("solana", address))
    {
        return Err(ApiError::bad(
            "destinationWallets",
            "the address is neither an EVM nor a Solana address",
        ));
    }
    if wallet.blockchains.is_empty()
        || wallet.assets.is_empty()
        || wallet.blockchains.len() > 16
        || wallet.assets.len() > 16
    {
        return Err(ApiError::bad(
            "destinationWallets",
            "name 1 to 16 blockchains and assets",
        ));
    }
    if wallet
        .assets
        .iter()
        .any(|a| !core::is_asset_symbol(&a.to_ascii_uppercase()))
    {
        return Err(ApiError::bad(
            "destinationWallets",
            "an asset is not a symbol such as ETH",
        ));
    }
    if wallet
        .blockchains
        .iter()
        .any(|b| b.is_empty() || b.len() > 64 || b.chars().any(char::is_control))
    {
        return Err(ApiError::bad(
            "destinationWallets",
            "a blockchain name is empty or malformed",
        ));
    }
    if body.default_experience.as_deref().is_some_and(|e| e != "buy") {
        return Err(ApiError::bad("defaultExperience", "only `buy` is offered"));
    }
    let network = body
        .default_network
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| wallet.blockchains[0].clone());
    if !wallet.blockchains.contains(&network) {
        return Err(ApiError::bad(
            "defaultNetwork",
            "the default network is not one of the wallet's blockchains",
        ));
    }
    let fiat_currency = body.fiat_currency.as_deref().unwrap_or("USD").to_ascii_uppercase();
    if !core::is_fiat_code(&fiat_currency) {
        return Err(ApiError::bad(
            "fiatCurrency",
            "expected a fiat currency code such as USD",
        ));
    }
    let method = body
        .payment_method
        .as_deref()
        .unwrap_or(core::METHOD_CARD)
        .to_ascii_uppercase();
    let fiat_cents = match body.preset_fiat_amount.as_ref().map(text).filter(|t| !t.is_empty()) {
        Some(amount) => {
            let (options, _) = state.onramp.options_of(provider).await;
            Some(
                core::check_amount(&options, &fiat_currency, &method, &amount)
                    .map_err(|e| refused(e, "presetFiatAmount"))?,
            )
        }
        None => None,
    };
    let crypto_amount = body.preset_crypto_amount.as_ref().map(text).filter(|t| !t.is_empty());
    if let Some(amount) = &crypto_amount {
        core::parse_price(amount).map_err(|_| {
            ApiError::bad(
                "presetCryptoAmount",
                "expected a positive amount with at most 8 decimal places",
            )
        })?;
    }
    let partner_user_id = body.partner_user_id.unwrap_or_default();
    if partner_user_id.len() > 128 {
        return Err(ApiError::bad("partnerUserId", "at most 128 characters"));
    }
    let ask = UrlAsk {
        address: address.to_owned(),
        blockchains: wallet.blockchains.clone(),
        assets: wallet.assets.iter().map(|a| a.to_ascii_uppercase()).collect(),
        network,
        fiat_cents,
        crypto_amount,
        fiat_currency,
        method,
        partner_user_id,
    };
    let url = provider.url(&ask).await?;
    Ok(Json(UrlReply {
        url,
        provider: provider.id().to_owned(),
    }))
}
