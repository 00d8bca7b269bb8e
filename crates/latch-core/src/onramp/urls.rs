//! Provider checkout URLs, each to its documented parameter names (behaviour 6.10
//! `/v1/generators/onrampurl`). Pure: the server passes the keys and, for
//! Coinbase, the session token it obtained.

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::link::encode_uri_component;

/// A query string `?a=1&b=2` from pairs, each value percent-encoded as JS
/// `encodeURIComponent` does (what the providers' own examples use). Empty
/// values are left out.
pub fn query(pairs: &[(&str, &str)]) -> String {
    let mut out = String::new();
    for (key, value) in pairs.iter().filter(|(_, v)| !v.is_empty()) {
        out.push(if out.is_empty() { '?' } else { '&' });
        out.push_str(key);
        out.push('=');
        out.push_str(&encode_uri_component(value));
    }
    out
}

/// Coinbase Onramp: `https://pay.coinbase.com/buy/select-asset?sessionToken=…`
/// (sandbox: `https://pay-sandbox.coinbase.com/?sessionToken=…`). Wallets and
/// assets travel inside the session token, so the URL carries only presets.
#[derive(Clone, Debug, Default)]
pub struct CoinbaseUrl<'a> {
    /// From the Onramp session token API.
    pub session_token: &'a str,
    /// e.g. `base`.
    pub default_network: &'a str,
    /// e.g. `USDC`.
    pub default_asset: &'a str,
    /// Fiat preset (`25.00`).
    pub preset_fiat_amount: &'a str,
    /// Crypto preset; the provider ignores the fiat preset when this is set.
    pub preset_crypto_amount: &'a str,
    /// e.g. `USD`.
    pub fiat_currency: &'a str,
    /// e.g. `CARD`.
    pub default_payment_method: &'a str,
    /// The app's own id for the buyer.
    pub partner_user_id: &'a str,
    /// The sandbox host.
    pub sandbox: bool,
}

/// The Coinbase Onramp URL (`defaultExperience=buy`).
pub fn coinbase_url(p: &CoinbaseUrl<'_>) -> String {
    let base = if p.sandbox {
        "https://pay-sandbox.coinbase.com/"
    } else {
        "https://pay.coinbase.com/buy/select-asset"
    };
    let q = query(&[
        ("sessionToken", p.session_token),
        ("defaultNetwork", p.default_network),
        ("defaultAsset", p.default_asset),
        ("presetCryptoAmount", p.preset_crypto_amount),
        ("presetFiatAmount", p.preset_fiat_amount),
        ("fiatCurrency", p.fiat_currency),
        ("defaultPaymentMethod", p.default_payment_method),
        ("partnerUserId", p.partner_user_id),
        ("defaultExperience", "buy"),
    ]);
    format!("{base}{q}")
}

/// MoonPay's buy widget; signed because it carries a wallet address.
#[derive(Clone, Debug, Default)]
pub struct MoonPayUrl<'a> {
    /// Publishable key (`pk_live_…` / `pk_test_…`).
    pub api_key: &'a str,
    /// MoonPay's currency code, lower case (`eth`, `usdc_base`).
    pub currency_code: &'a str,
    /// Destination wallet.
    pub wallet_address: &'a str,
    /// Fiat code, lower case (`usd`).
    pub base_currency_code: &'a str,
    /// Fiat preset.
    pub base_currency_amount: &'a str,
    /// Crypto preset.
    pub quote_currency_amount: &'a str,
    /// MoonPay's payment method id (`credit_debit_card`, `ach_bank_transfer`).
    pub payment_method: &'a str,
    /// The app's own id for the buyer.
    pub external_customer_id: &'a str,
    /// The sandbox host.
    pub sandbox: bool,
}

/// MoonPay's signature of a query string: base64 of HMAC-SHA256 keyed with the
/// secret key over the query string exactly as sent, leading `?` included.
pub fn moonpay_signature(query: &str, secret_key: &str) -> String {
    // HMAC takes keys of any length; this cannot fail.
    let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(secret_key.as_bytes()).unwrap_or_else(|_| unreachable!());
    mac.update(query.as_bytes());
    crate::base64::encode(&mac.finalize().into_bytes())
}

/// The signed MoonPay URL: the query, then `&signature=` with the signature percent-encoded.
pub fn moonpay_url(p: &MoonPayUrl<'_>, secret_key: &str) -> String {
    let base = if p.sandbox {
        "https://buy-sandbox.moonpay.com"
    } else {
        "https://buy.moonpay.com"
    };
    let q = query(&[
        ("apiKey", p.api_key),
        ("currencyCode", p.currency_code),
        ("walletAddress", p.wallet_address),
        ("baseCurrencyCode", p.base_currency_code),
        ("baseCurrencyAmount", p.base_currency_amount),
        ("quoteCurrencyAmount", p.quote_currency_amount),
        ("paymentMethod", p.payment_method),
        ("externalCustomerId", p.external_customer_id),
    ]);
    let signature = moonpay_signature(&q, secret_key);
    format!("{base}{q}&signature={}", encode_uri_component(&signature))
}

/// Transak's buy widget (query parameters as its documentation names them).
#[derive(Clone, Debug, Default)]
pub struct TransakUrl<'a> {
    /// The partner API key.
    pub api_key: &'a str,
    /// e.g. `ETH`.
    pub crypto_currency_code: &'a str,
    /// Transak's network name (`ethereum`, `base`, `solana`).
    pub network: &'a str,
    /// Destination wallet.
    pub wallet_address: &'a str,
    /// e.g. `USD`.
    pub fiat_currency: &'a str,
    /// Fiat preset.
    pub fiat_amount: &'a str,
    /// Crypto preset.
    pub crypto_amount: &'a str,
    /// Transak's method id (`credit_debit_card`, `us_bank_transfer`).
    pub payment_method: &'a str,
    /// The app's own id for the buyer.
    pub partner_customer_id: &'a str,
    /// The staging host.
    pub sandbox: bool,
}

/// The Transak URL (`productsAvailed=BUY`; the address cannot be edited there).
pub fn transak_url(p: &TransakUrl<'_>) -> String {
    let base = if p.sandbox {
        "https://global-stg.transak.com/"
    } else {
        "https://global.transak.com/"
    };
    let q = query(&[
        ("apiKey", p.api_key),
        ("productsAvailed", "BUY"),
        ("cryptoCurrencyCode", p.crypto_currency_code),
        ("network", p.network),
        ("walletAddress", p.wallet_address),
        ("disableWalletAddressForm", "true"),
        ("fiatCurrency", p.fiat_currency),
        ("fiatAmount", p.fiat_amount),
        ("cryptoAmount", p.crypto_amount),
        ("paymentMethod", p.payment_method),
        ("partnerCustomerId", p.partner_customer_id),
    ]);
    format!("{base}{q}")
}

/// A provider's name for a payment method id of the options (`CARD`, `ACH_BANK_ACCOUNT`).
pub fn provider_method(provider: &str, method: &str) -> &'static str {
    match (provider, method) {
        ("moonpay", "CARD") => "credit_debit_card",
        ("moonpay", "ACH_BANK_ACCOUNT") => "ach_bank_transfer",
        ("transak", "CARD") => "credit_debit_card",
        ("transak", "ACH_BANK_ACCOUNT") => "us_bank_transfer",
        ("coinbase", "CARD") => "CARD",
        ("coinbase", "ACH_BANK_ACCOUNT") => "ACH_BANK_ACCOUNT",
        _ => "",
    }
}
