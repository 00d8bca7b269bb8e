//! The built-in `sandbox` provider: a checkout page served by `latch`
//! (`/onramp/sandbox?session=…`) where a clearly labelled test purchase sends
//! devnet funds from a configured account to the wallet the URL was made for.
//! Sessions are single-use, expire, and are bound to address, network and
//! asset when the URL is generated; only the method and amount can change on
//! the page, within the same limits. Off unless configured or `--dev`.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use alloy_primitives::{Address, U256};
use anyhow::{anyhow, Context};
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use latch_core::evm_tx::LegacyTx;
use latch_core::onramp::{self as core, OnrampOptions, OnrampQuote, PurchaseCurrency, PurchaseNetwork};
use serde::Deserialize;
use serde_json::{json, Value};

use super::providers::Provider;
use super::{QuoteAsk, UrlAsk};
use crate::chaindata::balances::native_currency;
use crate::chaindata::evm;
use crate::chaindata::ChainData;
use crate::config::Config;
use crate::error::{ApiError, ApiQuery, ApiResult};
use crate::gateway::Gateway;
use crate::project::Visitor;
use crate::AppState;

/// Sessions open at once (older ones are dropped past this).
const MAX_SESSIONS: usize = 10_000;

/// One asset the sandbox delivers on one chain.
#[derive(Clone, Debug)]
struct Asset {
    chain: String,
    symbol: String,
    name: String,
    /// `None`: the native coin.
    token: Option<Address>,
    decimals: u8,
}

/// A checkout, bound to what the URL generator was asked for.
#[derive(Clone, Debug)]
struct Session {
    address: Address,
    asset: Asset,
    currency: String,
    method: String,
    cents: Option<u64>,
    expires_ms: i64,
}

/// The sandbox provider.
pub struct Sandbox {
    key: k256::ecdsa::SigningKey,
    /// The paying account.
    pub from: Address,
    assets: Vec<Asset>,
    ttl_ms: i64,
    fee_bps: u32,
    base_url: String,
    gateway: Arc<Gateway>,
    chain_data: Arc<ChainData>,
    sessions: Mutex<HashMap<String, Session>>,
    /// One delivery at a time: each takes the account's next nonce.
    sending: tokio::sync::Mutex<()>,
}

impl std::fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sandbox")
            .field("from", &self.from)
            .field("key", &"<redacted>")
            .finish()
    }
}

impl Sandbox {
    /// The sandbox of a validated `config` (its key and chains checked there).
    pub fn new(config: &Config, gateway: Arc<Gateway>, chain_data: Arc<ChainData>) -> anyhow::Result<Self> {
        let sandbox = &config.onramp.sandbox;
        let secret = sandbox.private_key.as_ref().context("onramp.sandbox.private_key")?;
        let bytes = hex::decode(secret.0.trim_start_matches("0x")).context("onramp.sandbox.private_key")?;
        let key = k256::ecdsa::SigningKey::from_slice(&bytes)
            .map_err(|_| anyhow!("onramp.sandbox.private_key is not a secp256k1 key"))?;
        let mut assets = Vec::new();
        for chain in &sandbox.chains {
            let native = native_currency(chain);
            assets.push(Asset {
                chain: chain.clone(),
                symbol: native.symbol,
                name: native.name,
                token: None,
                decimals: native.decimals,
            });
            for token in config.tokens.iter().filter(|t| &t.chain == chain) {
                if let Ok(address) = token.address.parse() {
                    assets.push(Asset {
                        chain: chain.clone(),
                        symbol: token.symbol.clone(),
                        name: token.name.clone(),
                        token: Some(address),
                        decimals: token.decimals,
                    });
                }
            }
        }
        Ok(Self {
            from: Address::from_private_key(&key),
            key,
            assets,
            ttl_ms: i64::try_from(sandbox.session_ttl_secs.saturating_mul(1000)).unwrap_or(i64::MAX),
            fee_bps: sandbox.fee_bps,
            base_url: config.public_base_url(),
            gateway,
            chain_data,
            sessions: Mutex::default(),
            sending: tokio::sync::Mutex::new(()),
        })
    }

    fn asset(&self, network: &str, symbol: &str) -> Option<&Asset> {
        self.assets
            .iter()
            .find(|a| a.chain == network && a.symbol.eq_ignore_ascii_case(symbol))
    }

    fn options_now(&self) -> OnrampOptions {
        let mut options = core::default_options();
        let mut currencies: Vec<PurchaseCurrency> = Vec::new();
        for asset in &self.assets {
            let network = PurchaseNetwork {
                name: asset.chain.clone(),
                display_name: latch_core::network::network(&asset.chain)
                    .ok()
                    .flatten()
                    .map_or_else(|| asset.chain.clone(), |n| n.name),
                chain_id: asset.chain.split_once(':').map_or("", |(_, r)| r).to_owned(),
                contract_address: asset.token.map(|t| t.to_string().to_lowercase()).unwrap_or_default(),
            };
            match currencies.iter_mut().find(|c| c.symbol == asset.symbol) {
                Some(currency) => currency.networks.push(network),
                None => currencies.push(PurchaseCurrency {
                    id: asset.symbol.clone(),
                    name: asset.name.clone(),
                    symbol: asset.symbol.clone(),
                    networks: vec![network],
                }),
            }
        }
        options.purchase_currencies = currencies;
        options
    }

    async fn quote_for(&self, asset: &Asset, cents: u64, currency: &str) -> anyhow::Result<OnrampQuote> {
        let price = super::price_text(&self.chain_data, &asset.symbol, &asset.chain, asset.token)
            .await
            .ok_or_else(|| anyhow!("no price for {}", asset.symbol))?;
        Ok(core::compute_quote(&core::QuoteInput {
            total_cents: cents,
            payment_currency: currency,
            purchase_currency: &asset.symbol,
            purchase_decimals: asset.decimals,
            price: &price,
            fee_bps: self.fee_bps,
            network_fee_cents: 0,
            quote_id: "sandbox",
        })?)
    }

    /// One JSON-RPC call through the gateway; its result (of any type, unlike [`evm::hex_result`]).
    async fn rpc(&self, chain: &str, method: &str, params: Value) -> anyhow::Result<Value> {
        let body = json!({"jsonrpc": "2.0", "id": 1, "method": method, "params": params});
        let reply = self
            .gateway
            .call_internal(chain, Bytes::from(body.to_string()))
            .await
            .map_err(|e| anyhow!("{method}: {e}"))?;
        let mut reply: Value = serde_json::from_slice(&reply.0)?;
        if let Some(error) = reply.get("error") {
            return Err(anyhow!("{method}: {error}"));
        }
        Ok(reply["result"].take())
    }

    /// Signs and sends `units` of the session's asset; the transaction hash.
    async fn deliver(&self, session: &Session, units: U256) -> anyhow::Result<String> {
        let asset = &session.asset;
        let chain_id: u64 = asset
            .chain
            .split_once(':')
            .and_then(|(_, r)| r.parse().ok())
            .context("chain id")?;
        let (to, value, data, gas) = match asset.token {
            None => (session.address, units, Vec::new(), 21_000),
            Some(token) => {
                let data = latch_core::send::erc20_transfer_data(session.address, units);
                (token, U256::ZERO, hex::decode(data.trim_start_matches("0x"))?, 100_000)
            }
        };
        let _turn = self.sending.lock().await;
        let from = format!("{:#x}", self.from);
        let nonce = evm::quantity(
            &self.gateway,
            &asset.chain,
            "eth_getTransactionCount",
            json!([from, "pending"]),
        )
        .await?;
        let gas_price = evm::quantity(&self.gateway, &asset.chain, "eth_gasPrice", json!([])).await?;
        let tx = LegacyTx {
            nonce: u64::try_from(nonce).context("nonce")?,
            // Headroom over the node's price so a busy devnet block still takes it.
            gas_price: gas_price * U256::from(2u8),
            gas,
            to,
            value,
            data,
            chain_id,
        };
        let (signature, recovery) = self.key.sign_prehash_recoverable(tx.signing_hash().as_slice())?;
        let (r, s) = signature.split_bytes();
        let raw = tx.encode_signed(U256::from_be_slice(&r), U256::from_be_slice(&s), recovery.is_y_odd());
        let hash = self
            .rpc(
                &asset.chain,
                "eth_sendRawTransaction",
                json!([format!("0x{}", hex::encode(raw))]),
            )
            .await?;
        hash.as_str().map(str::to_owned).context("no transaction hash")
    }

    /// Waits (up to `wait`) for the receipt; whether it succeeded, `None` when not yet mined.
    async fn mined(&self, chain: &str, hash: &str, wait: Duration) -> Option<bool> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Ok(receipt) = self.rpc(chain, "eth_getTransactionReceipt", json!([hash])).await {
                if let Some(status) = receipt.get("status").and_then(Value::as_str) {
                    return Some(status == "0x1");
                }
            }
            if tokio::time::Instant::now() >= deadline {
                return None;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }
}

#[async_trait::async_trait]
impl Provider for Sandbox {
    fn id(&self) -> &'static str {
        "sandbox"
    }

    async fn options(&self) -> anyhow::Result<OnrampOptions> {
        Ok(self.options_now())
    }

    async fn quote(&self, ask: &QuoteAsk) -> anyhow::Result<OnrampQuote> {
        let network = format!("eip155:{}", ask.chain_id);
        let asset = self
            .asset(&network, &ask.purchase_currency)
            .context("not delivered here")?;
        self.quote_for(asset, ask.cents, &ask.payment_currency).await
    }

    async fn url(&self, ask: &UrlAsk) -> ApiResult<String> {
        let address: Address = latch_core::address::parse_evm_address(&ask.address)
            .map_err(|_| ApiError::bad("destinationWallets", "the sandbox delivers to EVM addresses only"))?;
        let symbol = ask.assets.first().map_or("", String::as_str);
        let asset = self.asset(&ask.network, symbol).ok_or_else(|| ApiError::Refused {
            status: StatusCode::BAD_REQUEST,
            code: "UNSUPPORTED_ASSET",
            field: "destinationWallets",
            description: format!("the sandbox does not deliver {symbol} on {}", ask.network),
        })?;
        let mut id = [0u8; 16];
        getrandom::getrandom(&mut id).map_err(|e| ApiError::Internal(anyhow!("no randomness: {e}")))?;
        let id = hex::encode(id);
        let now = crate::now_ms();
        let session = Session {
            address,
            asset: asset.clone(),
            currency: ask.fiat_currency.clone(),
            method: ask.method.clone(),
            cents: ask.fiat_cents,
            expires_ms: now.saturating_add(self.ttl_ms),
        };
        let mut sessions = super::lock(&self.sessions);
        sessions.retain(|_, s| s.expires_ms > now);
        if sessions.len() >= MAX_SESSIONS {
            return Err(ApiError::UpstreamUnavailable(
                "sandbox checkout (too many open sessions)".into(),
            ));
        }
        sessions.insert(id.clone(), session);
        Ok(format!("{}/onramp/sandbox?session={id}", self.base_url))
    }
}

/// The checkout page's query.
#[derive(Deserialize)]
pub struct PageQuery {
    session: Option<String>,
}

/// Text for HTML (the page's values are validated, but never trusted to be inert).
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        r#"<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>{title} · Latch sandbox checkout</title>
<style>body{{font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem;color:#111}}
.test{{background:#fff3cd;border:1px solid #c69500;border-radius:8px;padding:.75rem}}dl{{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}}
dd{{margin:0;word-break:break-all}}fieldset{{border:0;padding:0;margin:1rem 0}}input[type=text]{{font-size:1rem;padding:.4rem;width:10rem}}
button{{font-size:1rem;padding:.6rem 1.2rem;border-radius:8px;border:0;background:#1d4ed8;color:#fff;cursor:pointer}}
.error{{color:#b00020}}</style></head><body><main>{body}</main></body></html>"#,
        title = escape(title)
    );
    (
        status,
        [(header::CACHE_CONTROL, "no-store"), (header::X_FRAME_OPTIONS, "DENY")],
        Html(html),
    )
        .into_response()
}

fn refused(status: StatusCode, message: &str) -> Response {
    page(
        status,
        "Checkout unavailable",
        &format!(
            r#"<h1>Checkout unavailable</h1><p class="error" role="alert" data-testid="sandbox-error">{}</p>"#,
            escape(message)
        ),
    )
}

fn sandbox_of(state: &AppState) -> Result<&Arc<Sandbox>, ApiError> {
    state.onramp.sandbox.as_ref().ok_or(ApiError::NotFound)
}

/// `GET /onramp/sandbox?session=…`: the checkout page.
pub async fn checkout(
    State(state): State<AppState>,
    _visitor: Visitor,
    ApiQuery(query): ApiQuery<PageQuery>,
) -> Response {
    let sandbox = match sandbox_of(&state) {
        Ok(sandbox) => sandbox,
        Err(refusal) => return refusal.into_response(),
    };
    let id = query.session.unwrap_or_default();
    let session = super::lock(&sandbox.sessions).get(&id).cloned();
    let Some(session) = session.filter(|s| s.expires_ms > crate::now_ms()) else {
        return refused(
            StatusCode::GONE,
            "This checkout has expired or was already used. Start again from the app.",
        );
    };
    let method_checked = |m: &str| if session.method == m { " checked" } else { "" };
    let amount = session.cents.map(core::format_fiat).unwrap_or_else(|| "25.00".into());
    let body = format!(
        r#"<h1>Sandbox checkout</h1>
<p class="test" role="note" data-testid="sandbox-notice"><strong>Test purchase.</strong> No money moves: confirming sends test {symbol} on {network} from the sandbox account.</p>
<dl><dt>Deliver to</dt><dd data-testid="sandbox-address">{address}</dd><dt>Asset</dt><dd>{symbol}</dd><dt>Network</dt><dd>{network}</dd></dl>
<form method="post" action="/onramp/sandbox/confirm">
<input type="hidden" name="session" value="{id}">
<fieldset><legend>Payment method</legend>
<label><input type="radio" name="method" value="CARD"{card}> Card</label>
<label><input type="radio" name="method" value="ACH_BANK_ACCOUNT"{bank}> Bank transfer</label></fieldset>
<p><label>Amount ({currency}) <input type="text" inputmode="decimal" name="amount" value="{amount}" data-testid="sandbox-amount" required></label></p>
<button type="submit" data-testid="sandbox-confirm">Confirm test purchase</button>
</form>"#,
        symbol = escape(&session.asset.symbol),
        network = escape(&session.asset.chain),
        address = escape(&format!("{:#x}", session.address)),
        id = escape(&id),
        card = method_checked(core::METHOD_CARD),
        bank = method_checked(core::METHOD_ACH),
        currency = escape(&session.currency),
    );
    page(StatusCode::OK, "Sandbox checkout", &body)
}

/// `POST /onramp/sandbox/confirm` (the page's form): checks the amount, uses the
/// session up, sends the asset and shows the result.
pub async fn confirm(State(state): State<AppState>, _visitor: Visitor, body: Bytes) -> Response {
    let sandbox = match sandbox_of(&state) {
        Ok(sandbox) => sandbox,
        Err(refusal) => return refusal.into_response(),
    };
    let form: HashMap<String, String> = url::form_urlencoded::parse(&body).into_owned().collect();
    let id = form.get("session").cloned().unwrap_or_default();
    let session = super::lock(&sandbox.sessions).get(&id).cloned();
    let Some(session) = session.filter(|s| s.expires_ms > crate::now_ms()) else {
        return refused(
            StatusCode::GONE,
            "This checkout has expired or was already used. Start again from the app.",
        );
    };
    let method = form.get("method").map_or(session.method.as_str(), String::as_str);
    let amount = form.get("amount").map_or("", String::as_str);
    let cents = match core::check_amount(&sandbox.options_now(), &session.currency, method, amount) {
        Ok(cents) => cents,
        Err(e) => return refused(StatusCode::BAD_REQUEST, &format!("{e}. Go back to change the amount.")),
    };
    let quote = match sandbox.quote_for(&session.asset, cents, &session.currency).await {
        Ok(quote) => quote,
        Err(e) => {
            return refused(
                StatusCode::SERVICE_UNAVAILABLE,
                &format!("No price for the purchase: {e}"),
            )
        }
    };
    let units = quote
        .purchase_amount
        .amount
        .parse()
        .ok()
        .and_then(|amount| latch_core::send::parse_units(&amount, session.asset.decimals).ok());
    let Some(units) = units.filter(|u| !u.is_zero()) else {
        return refused(StatusCode::BAD_REQUEST, "The amount buys nothing after fees.");
    };
    // Single use: whoever removes the session first delivers; a replay finds it gone.
    if super::lock(&sandbox.sessions).remove(&id).is_none() {
        return refused(
            StatusCode::GONE,
            "This checkout has expired or was already used. Start again from the app.",
        );
    }
    let hash = match sandbox.deliver(&session, units).await {
        Ok(hash) => hash,
        Err(e) => {
            tracing::warn!(error = %e, "sandbox delivery failed");
            return refused(
                StatusCode::BAD_GATEWAY,
                "The sandbox account could not send the purchase (is it funded on this network?).",
            );
        }
    };
    // The history marks it, after a restart too. Delivered already: a failed record is logged.
    if let Err(e) = state.store.put_purchase(&hash, "sandbox", crate::now_ms()).await {
        tracing::warn!(error = %e, "the sandbox purchase could not be recorded");
    }
    let status = match sandbox
        .mined(&session.asset.chain, &hash, Duration::from_secs(15))
        .await
    {
        Some(true) => "complete",
        Some(false) => "failed",
        None => "pending",
    };
    let body = format!(
        r#"<h1>Test purchase {status}</h1>
<p role="status" data-testid="sandbox-done" data-status="{status}">{amount} {symbol} to {address}. You can close this window.</p>
<p>Transaction <code data-testid="sandbox-hash">{hash}</code></p>"#,
        amount = escape(&quote.purchase_amount.amount),
        symbol = escape(&session.asset.symbol),
        address = escape(&format!("{:#x}", session.address)),
        hash = escape(&hash),
    );
    page(StatusCode::OK, "Test purchase", &body)
}
