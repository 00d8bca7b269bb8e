//! The real on-ramp providers behind one trait. Their URLs and signatures are
//! built in `latch_core::onramp::urls`; here is only what needs IO: Coinbase's
//! session token (a CDP JWT) and MoonPay's quote API.

use std::time::Duration;

use anyhow::{anyhow, Context};
use latch_core::onramp::urls::{self, provider_method};
use latch_core::onramp::{default_options, format_fiat, Money, OnrampOptions, OnrampQuote};
use serde_json::{json, Value};

use super::config::{CoinbaseConfig, MoonPayConfig, TransakConfig};
use super::{QuoteAsk, UrlAsk};
use crate::error::{ApiError, ApiResult};

/// One on-ramp provider. `options` and `quote` may fail: the endpoints then
/// answer the built-in defaults and a marked estimate (behaviour 5.9).
#[async_trait::async_trait]
pub trait Provider: Send + Sync {
    /// `coinbase`, `moonpay`, `transak`, `sandbox`.
    fn id(&self) -> &'static str;
    /// What can be bought and paid with.
    async fn options(&self) -> anyhow::Result<OnrampOptions>;
    /// A quote for a validated request.
    async fn quote(&self, ask: &QuoteAsk) -> anyhow::Result<OnrampQuote>;
    /// The checkout URL for a validated request.
    async fn url(&self, ask: &UrlAsk) -> ApiResult<String>;
}

/// Coinbase Onramp: URLs need a one-time session token from its API, signed
/// with the operator's CDP key (an Ed25519 JWT).
pub struct Coinbase {
    config: CoinbaseConfig,
    http: reqwest::Client,
}

impl Coinbase {
    /// A provider for `config`.
    pub fn new(config: CoinbaseConfig, timeout: Duration) -> Self {
        Self {
            config,
            http: crate::outbound::configured_client(timeout),
        }
    }

    /// The CDP bearer JWT for `POST <host>/<path>`: EdDSA, `kid`/`sub` the key
    /// name, `iss` `cdp`, valid two minutes, a random `nonce`, and `uri` naming the call.
    pub fn jwt(&self, now_secs: u64, nonce: &str) -> anyhow::Result<String> {
        let url = url::Url::parse(&self.config.session_url).context("session_url")?;
        let host = url.host_str().unwrap_or_default();
        let authority = match url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        };
        let secret =
            latch_core::base64::decode(self.config.key_secret.0.trim()).context("coinbase.key_secret is not base64")?;
        let seed: [u8; 32] = secret
            .get(..32)
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| anyhow!("coinbase.key_secret is not an Ed25519 key"))?;
        let key = ed25519_dalek::SigningKey::from_bytes(&seed);
        let b64 = |v: &Value| latch_core::base64::encode_url(v.to_string().as_bytes());
        let header = json!({"alg": "EdDSA", "kid": self.config.key_name, "typ": "JWT", "nonce": nonce});
        let claims = json!({"sub": self.config.key_name, "iss": "cdp", "nbf": now_secs, "exp": now_secs + 120,
            "uri": format!("POST {authority}{}", url.path())});
        let signing_input = format!("{}.{}", b64(&header), b64(&claims));
        let signature = ed25519_dalek::Signer::sign(&key, signing_input.as_bytes());
        Ok(format!(
            "{signing_input}.{}",
            latch_core::base64::encode_url(&signature.to_bytes())
        ))
    }

    async fn session_token(&self, ask: &UrlAsk) -> anyhow::Result<String> {
        let mut nonce = [0u8; 16];
        getrandom::getrandom(&mut nonce).map_err(|e| anyhow!("no randomness: {e}"))?;
        let jwt = self.jwt((crate::now_ms() / 1000) as u64, &hex::encode(nonce))?;
        let body = json!({
            "addresses": [{"address": ask.address, "blockchains": ask.blockchains}],
            "assets": ask.assets,
        });
        let reply: Value = self
            .http
            .post(&self.config.session_url)
            .bearer_auth(jwt)
            .json(&body)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        reply["token"]
            .as_str()
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| anyhow!("the session API answered no token"))
    }
}

#[async_trait::async_trait]
impl Provider for Coinbase {
    fn id(&self) -> &'static str {
        "coinbase"
    }

    // Coinbase's options and quote APIs are not called yet: the defaults and the estimate answer (behaviour 5.9).
    async fn options(&self) -> anyhow::Result<OnrampOptions> {
        Ok(default_options())
    }

    async fn quote(&self, _: &QuoteAsk) -> anyhow::Result<OnrampQuote> {
        Err(anyhow!("Coinbase quotes are estimated"))
    }

    async fn url(&self, ask: &UrlAsk) -> ApiResult<String> {
        let token = self.session_token(ask).await.map_err(|e| {
            tracing::warn!(error = %e, "coinbase session token");
            ApiError::UpstreamUnavailable("coinbase onramp session".into())
        })?;
        let fiat = ask.fiat_cents.map(format_fiat).unwrap_or_default();
        Ok(urls::coinbase_url(&urls::CoinbaseUrl {
            session_token: &token,
            default_network: &ask.network,
            default_asset: ask.assets.first().map_or("", String::as_str),
            preset_fiat_amount: &fiat,
            preset_crypto_amount: ask.crypto_amount.as_deref().unwrap_or(""),
            fiat_currency: &ask.fiat_currency,
            default_payment_method: provider_method("coinbase", &ask.method),
            partner_user_id: &ask.partner_user_id,
            sandbox: self.config.sandbox,
        }))
    }
}

/// MoonPay: signed widget URLs and its public buy-quote API.
pub struct MoonPay {
    config: MoonPayConfig,
    http: reqwest::Client,
}

impl MoonPay {
    /// A provider for `config`.
    pub fn new(config: MoonPayConfig, timeout: Duration) -> Self {
        Self {
            config,
            http: crate::outbound::configured_client(timeout),
        }
    }
}

/// MoonPay's currency code for an asset on a network: the symbol on Ethereum,
/// `symbol_network` elsewhere (`usdc_base`), lower case.
pub fn moonpay_currency(symbol: &str, network: &str) -> String {
    let symbol = symbol.to_ascii_lowercase();
    match network {
        "" | "ethereum" => symbol,
        "avalanche-c-chain" => format!("{symbol}_cchain"),
        other => format!("{symbol}_{other}"),
    }
}

fn money(value: &Value, currency: &str) -> anyhow::Result<Money> {
    let amount = match value {
        Value::Number(n) => n.to_string(),
        Value::String(s) => s.clone(),
        _ => return Err(anyhow!("a quote amount is missing")),
    };
    Ok(Money {
        amount,
        currency: currency.to_owned(),
    })
}

#[async_trait::async_trait]
impl Provider for MoonPay {
    fn id(&self) -> &'static str {
        "moonpay"
    }

    async fn options(&self) -> anyhow::Result<OnrampOptions> {
        Ok(default_options())
    }

    /// `GET /v3/currencies/{code}/buy_quote` (fees included in the amount paid).
    async fn quote(&self, ask: &QuoteAsk) -> anyhow::Result<OnrampQuote> {
        let code = moonpay_currency(&ask.purchase_currency, &ask.network);
        let url = format!(
            "{}/v3/currencies/{code}/buy_quote",
            self.config.api_url.trim_end_matches('/')
        );
        let fiat = ask.payment_currency.to_ascii_lowercase();
        let reply: Value = self
            .http
            .get(url)
            .query(&[
                ("apiKey", self.config.api_key.as_str()),
                ("baseCurrencyCode", fiat.as_str()),
                ("baseCurrencyAmount", format_fiat(ask.cents).as_str()),
                ("paymentMethod", provider_method("moonpay", &ask.method)),
                ("areFeesIncluded", "true"),
            ])
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        let pay = ask.payment_currency.as_str();
        let fee = reply["feeAmount"].as_f64().unwrap_or(0.0) + reply["extraFeeAmount"].as_f64().unwrap_or(0.0);
        Ok(OnrampQuote {
            coinbase_fee: Money {
                amount: format!("{fee:.2}"),
                currency: pay.to_owned(),
            },
            network_fee: money(&reply["networkFeeAmount"], pay)?,
            payment_subtotal: money(&reply["baseCurrencyAmount"], pay)?,
            payment_total: money(&reply["totalAmount"], pay)?,
            purchase_amount: money(&reply["quoteCurrencyAmount"], &ask.purchase_currency)?,
            quote_id: reply["id"].as_str().unwrap_or("moonpay").to_owned(),
            estimate: false,
        })
    }

    async fn url(&self, ask: &UrlAsk) -> ApiResult<String> {
        let fiat = ask.fiat_cents.map(format_fiat).unwrap_or_default();
        let currency = moonpay_currency(ask.assets.first().map_or("eth", String::as_str), &ask.network);
        let base = ask.fiat_currency.to_ascii_lowercase();
        Ok(urls::moonpay_url(
            &urls::MoonPayUrl {
                api_key: &self.config.api_key,
                currency_code: &currency,
                wallet_address: &ask.address,
                base_currency_code: &base,
                base_currency_amount: &fiat,
                quote_currency_amount: ask.crypto_amount.as_deref().unwrap_or(""),
                payment_method: provider_method("moonpay", &ask.method),
                external_customer_id: &ask.partner_user_id,
                sandbox: self.config.sandbox,
            },
            &self.config.secret_key.0,
        ))
    }
}

/// Transak: a plain widget URL with the partner key.
pub struct Transak {
    config: TransakConfig,
}

impl Transak {
    /// A provider for `config`.
    pub fn new(config: TransakConfig) -> Self {
        Self { config }
    }
}

#[async_trait::async_trait]
impl Provider for Transak {
    fn id(&self) -> &'static str {
        "transak"
    }

    async fn options(&self) -> anyhow::Result<OnrampOptions> {
        Ok(default_options())
    }

    async fn quote(&self, _: &QuoteAsk) -> anyhow::Result<OnrampQuote> {
        Err(anyhow!("Transak quotes are estimated"))
    }

    async fn url(&self, ask: &UrlAsk) -> ApiResult<String> {
        let fiat = ask.fiat_cents.map(format_fiat).unwrap_or_default();
        Ok(urls::transak_url(&urls::TransakUrl {
            api_key: &self.config.api_key,
            crypto_currency_code: ask.assets.first().map_or("", String::as_str),
            network: &ask.network,
            wallet_address: &ask.address,
            fiat_currency: &ask.fiat_currency,
            fiat_amount: &fiat,
            crypto_amount: ask.crypto_amount.as_deref().unwrap_or(""),
            payment_method: provider_method("transak", &ask.method),
            partner_customer_id: &ask.partner_user_id,
            sandbox: self.config.sandbox,
        }))
    }
}
