//! Buying crypto with fiat (behaviour 5.9 "Onramp options/quote", behaviour 6.10 onramp endpoints,
//! behaviour 5.9 fallbacks, behaviour 7.6 limits and chains): fiat amounts read exactly (cents, never
//! floats), the per-method limits, the built-in default options, a quote's
//! fee/total arithmetic and the estimate answered when a provider's quote fails.
//! Provider URL formats live in [`urls`].

pub mod urls;

#[cfg(test)]
mod tests;

use alloy_primitives::U256;
use serde::{Deserialize, Serialize};

use crate::format::format_units;
use crate::send::base_units;
use crate::{Error, Result};

/// Largest fiat amount accepted, in cents (one billion in any currency): no
/// purchase comes near it, and it keeps every product inside `u64`.
pub const MAX_FIAT_CENTS: u64 = 100_000_000_000;

/// Fee in basis points the estimate charges (behaviour 7.6: provider fees are 1–2 %, so the
/// estimate assumes the dearer end rather than promise too much).
pub const ESTIMATE_FEE_BPS: u32 = 200;

/// Payment method ids (the original provider's vocabulary).
pub const METHOD_CARD: &str = "CARD";
/// ACH bank transfer.
pub const METHOD_ACH: &str = "ACH_BANK_ACCOUNT";

/// A fiat amount (`10`, `10.5`, `10.00`) in cents. Refuses signs, exponents,
/// more than two fraction digits (a payment cannot charge part of a cent) and
/// amounts above [`MAX_FIAT_CENTS`].
pub fn parse_fiat(text: &str) -> Result<u64> {
    let invalid = |reason| Err(Error::InvalidAmount { reason });
    let Some((int, frac)) = plain_decimal(text.trim()) else {
        return invalid("expected a fiat amount such as 25.00");
    };
    if frac.len() > 2 {
        return invalid("a fiat amount has at most two decimal places");
    }
    // Twelve digits bound the work on hostile text; MAX_FIAT_CENTS is the real limit.
    if int.trim_start_matches('0').len() > 12 {
        return invalid("the amount is too large");
    }
    match u64::try_from(base_units(int, frac, 2)?) {
        Ok(total) if total <= MAX_FIAT_CENTS => Ok(total),
        _ => invalid("the amount is too large"),
    }
}

/// Plain unsigned decimal text (`12`, `12.5`, `.5`, `5.`; no sign, exponent or
/// separator) as its integer and fraction digits; `None` for anything else.
fn plain_decimal(text: &str) -> Option<(&str, &str)> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    (!(int.is_empty() && frac.is_empty()) && digits(int) && digits(frac)).then_some((int, frac))
}

/// Cents written with exactly two decimals (`1050` → `10.50`).
pub fn format_fiat(cents: u64) -> String {
    format!("{}.{:02}", cents / 100, cents % 100)
}

/// Whether `code` is an ISO 4217-shaped fiat code (three upper-case letters).
pub fn is_fiat_code(code: &str) -> bool {
    code.len() == 3 && code.bytes().all(|b| b.is_ascii_uppercase())
}

/// Whether `symbol` is a plausible crypto asset symbol (2–10 upper-case letters or digits).
pub fn is_asset_symbol(symbol: &str) -> bool {
    (2..=10).contains(&symbol.len()) && symbol.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
}

/// One payment method's limits, as the options answer them (decimal text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MethodLimit {
    /// `CARD`, `ACH_BANK_ACCOUNT`, …
    pub id: String,
    /// Smallest amount, e.g. `10.00`.
    pub min: String,
    /// Largest amount, e.g. `7500.00`.
    pub max: String,
}

/// A fiat currency and what each method may charge in it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PaymentCurrency {
    /// ISO code, e.g. `USD`.
    pub id: String,
    /// Per-method limits.
    pub payment_method_limits: Vec<MethodLimit>,
}

/// A network an asset is bought on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PurchaseNetwork {
    /// The provider's chain name (`ethereum`, `base`, …).
    pub name: String,
    /// For people.
    pub display_name: String,
    /// The chain's reference (`1`, `8453`, a Solana genesis hash).
    pub chain_id: String,
    /// The token contract; empty for the native coin.
    pub contract_address: String,
}

/// An asset one can buy.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PurchaseCurrency {
    /// The provider's id (the symbol for the built-in defaults).
    pub id: String,
    /// For people, e.g. `Ether`.
    pub name: String,
    /// e.g. `ETH`.
    pub symbol: String,
    /// Where it can be delivered.
    pub networks: Vec<PurchaseNetwork>,
}

/// `GET /v1/onramp/options` (behaviour 6.10), field names as documented there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampOptions {
    /// Fiat currencies with per-method limits.
    pub payment_currencies: Vec<PaymentCurrency>,
    /// Assets with their networks.
    pub purchase_currencies: Vec<PurchaseCurrency>,
}

fn limit(id: &str, min: &str, max: &str) -> MethodLimit {
    MethodLimit {
        id: id.into(),
        min: min.into(),
        max: max.into(),
    }
}

fn network(name: &str, display: &str, chain_id: &str, contract: &str) -> PurchaseNetwork {
    PurchaseNetwork {
        name: name.into(),
        display_name: display.into(),
        chain_id: chain_id.into(),
        contract_address: contract.into(),
    }
}

/// The built-in options (behaviour 7.6), answered when a provider's options fail (behaviour 5.9):
/// card 10.00–7500.00 and ACH bank 10.00–25000.00, in USD and EUR; ETH and USDC
/// on the on-ramp chains behaviour 6.10 lists (USDC on the chains Circle issues it).
pub fn default_options() -> OnrampOptions {
    let limits = vec![
        limit(METHOD_CARD, "10.00", "7500.00"),
        limit(METHOD_ACH, "10.00", "25000.00"),
    ];
    let payment_currencies = ["USD", "EUR"]
        .iter()
        .map(|id| PaymentCurrency {
            id: (*id).into(),
            payment_method_limits: limits.clone(),
        })
        .collect();
    let eth = [
        "ethereum:Ethereum:1",
        "arbitrum:Arbitrum:42161",
        "optimism:Optimism:10",
        "base:Base:8453",
    ]
    .iter()
    .map(|entry| {
        let mut parts = entry.split(':');
        let (name, display, id) = (
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
            parts.next().unwrap_or(""),
        );
        network(name, display, id, "")
    })
    .collect();
    let usdc = vec![
        network(
            "ethereum",
            "Ethereum",
            "1",
            "0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48",
        ),
        network(
            "arbitrum",
            "Arbitrum",
            "42161",
            "0xaf88d065e77c8cc2239327c5edb3a432268e5831",
        ),
        network(
            "polygon",
            "Polygon",
            "137",
            "0x3c499c542cef5e3811e1192ce70d8cc03d5c3359",
        ),
        network(
            "avalanche-c-chain",
            "Avalanche C-Chain",
            "43114",
            "0xb97ef9ef8734c71904d8002f8b6bc66dd9c48a6e",
        ),
        network(
            "optimism",
            "Optimism",
            "10",
            "0x0b2c639c533813f4aa9d7837caf62653d097ff85",
        ),
        network("celo", "Celo", "42220", "0xceba9300f2b948710d2653dd7b07f33a8b32118c"),
        network("base", "Base", "8453", "0x833589fcd6edd8d3bee9ae43b3cbb2e3f0e06ee0"),
    ];
    OnrampOptions {
        payment_currencies,
        purchase_currencies: vec![
            PurchaseCurrency {
                id: "ETH".into(),
                name: "Ether".into(),
                symbol: "ETH".into(),
                networks: eth,
            },
            PurchaseCurrency {
                id: "USDC".into(),
                name: "USD Coin".into(),
                symbol: "USDC".into(),
                networks: usdc,
            },
        ],
    }
}

/// Why an amount cannot be paid with a currency and method.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// Not a fiat amount.
    #[error("{0}")]
    Invalid(Error),
    /// The currency is not offered.
    #[error("{0} is not offered")]
    UnknownCurrency(String),
    /// The method is not offered in this currency.
    #[error("{method} is not offered in {currency}")]
    UnknownMethod {
        /// The method asked for.
        method: String,
        /// The currency asked for.
        currency: String,
    },
    /// Below the method's minimum.
    #[error("the smallest amount is {min} {currency}")]
    BelowMin {
        /// The minimum, e.g. `10.00`.
        min: String,
        /// Its currency.
        currency: String,
    },
    /// Above the method's maximum.
    #[error("the largest amount is {max} {currency}")]
    AboveMax {
        /// The maximum.
        max: String,
        /// Its currency.
        currency: String,
    },
}

impl LimitError {
    /// A stable machine code for clients (`AMOUNT_BELOW_MIN`, …).
    pub fn code(&self) -> &'static str {
        match self {
            LimitError::Invalid(_) => "INVALID_AMOUNT",
            LimitError::UnknownCurrency(_) => "UNSUPPORTED_CURRENCY",
            LimitError::UnknownMethod { .. } => "UNSUPPORTED_PAYMENT_METHOD",
            LimitError::BelowMin { .. } => "AMOUNT_BELOW_MIN",
            LimitError::AboveMax { .. } => "AMOUNT_ABOVE_MAX",
        }
    }
}

/// `amount` of `currency` in cents, if `method` may charge it under `options`'
/// limits (inclusive at both ends).
pub fn check_amount(
    options: &OnrampOptions,
    currency: &str,
    method: &str,
    amount: &str,
) -> std::result::Result<u64, LimitError> {
    let cents = parse_fiat(amount).map_err(LimitError::Invalid)?;
    let payment = options
        .payment_currencies
        .iter()
        .find(|c| c.id.eq_ignore_ascii_case(currency))
        .ok_or_else(|| LimitError::UnknownCurrency(currency.to_owned()))?;
    let limit = payment
        .payment_method_limits
        .iter()
        .find(|l| l.id.eq_ignore_ascii_case(method))
        .ok_or_else(|| LimitError::UnknownMethod {
            method: method.to_owned(),
            currency: payment.id.clone(),
        })?;
    // A provider's limit that does not parse does not limit (it is their data, not the user's).
    if let Ok(min) = parse_fiat(&limit.min) {
        if cents < min {
            return Err(LimitError::BelowMin {
                min: format_fiat(min),
                currency: payment.id.clone(),
            });
        }
    }
    if let Ok(max) = parse_fiat(&limit.max) {
        if cents > max {
            return Err(LimitError::AboveMax {
                max: format_fiat(max),
                currency: payment.id.clone(),
            });
        }
    }
    Ok(cents)
}

/// An amount with its currency, as a quote writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Money {
    /// Decimal text.
    pub amount: String,
    /// `USD`, `ETH`, …
    pub currency: String,
}

/// `POST /v1/onramp/quote` (behaviour 5.9, 6.10).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OnrampQuote {
    /// The provider's fee (the original's name for it).
    pub coinbase_fee: Money,
    /// The network's fee, in fiat.
    pub network_fee: Money,
    /// What buys the asset: total less fees.
    pub payment_subtotal: Money,
    /// What the buyer pays.
    pub payment_total: Money,
    /// What arrives in the wallet.
    pub purchase_amount: Money,
    /// The provider's id for the quote (`estimate-…` for an estimate).
    pub quote_id: String,
    /// True when the provider did not answer and this is [`estimate`]'s arithmetic (behaviour 5.9).
    #[serde(default)]
    pub estimate: bool,
}

/// What a quote is computed from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuoteInput<'a> {
    /// What the buyer pays, in cents (fees included).
    pub total_cents: u64,
    /// The fiat currency.
    pub payment_currency: &'a str,
    /// The asset symbol.
    pub purchase_currency: &'a str,
    /// The asset's decimals (the purchase amount is cut to at most 8 places shown).
    pub purchase_decimals: u8,
    /// The asset's price in the fiat currency, decimal text (e.g. `2000.5`).
    pub price: &'a str,
    /// Provider fee in basis points of the total.
    pub fee_bps: u32,
    /// The network fee, in cents.
    pub network_fee_cents: u64,
    /// The quote's id.
    pub quote_id: &'a str,
}

/// Places of the purchase amount kept: more than any wallet shows, fewer than
/// a price's own precision would justify.
const PURCHASE_PLACES: u8 = 8;

/// The fee/total arithmetic of a quote: fee = total × bps rounded up to the
/// cent (the buyer is never promised more than arrives), subtotal = total − fee
/// − network fee, purchase = subtotal ÷ price cut down to the asset's places.
pub fn compute_quote(input: &QuoteInput<'_>) -> Result<OnrampQuote> {
    let fee = (u128::from(input.total_cents) * u128::from(input.fee_bps)).div_ceil(10_000);
    let fee = u64::try_from(fee).map_err(|_| Error::InvalidAmount {
        reason: "the fee is too large",
    })?;
    let subtotal = input
        .total_cents
        .checked_sub(fee)
        .and_then(|s| s.checked_sub(input.network_fee_cents))
        .filter(|s| *s > 0)
        .ok_or(Error::InvalidAmount {
            reason: "the amount does not cover the fees",
        })?;
    let price = parse_price(input.price)?;
    let places = input.purchase_decimals.min(PURCHASE_PLACES);
    // purchase (in 10^-places units) = subtotal_cents / 100 × 10^places / (price_scaled / 10^PRICE_SCALE)
    let numerator = U256::from(subtotal)
        * U256::from(10u64).pow(U256::from(places))
        * U256::from(10u64).pow(U256::from(PRICE_SCALE));
    let units = numerator / (price * U256::from(100u8));
    let purchase = format_units(&units.to_string(), places)?;
    let money = |cents: u64| Money {
        amount: format_fiat(cents),
        currency: input.payment_currency.to_owned(),
    };
    Ok(OnrampQuote {
        coinbase_fee: money(fee),
        network_fee: money(input.network_fee_cents),
        payment_subtotal: money(subtotal),
        payment_total: money(input.total_cents),
        purchase_amount: Money {
            amount: purchase,
            currency: input.purchase_currency.to_owned(),
        },
        quote_id: input.quote_id.to_owned(),
        estimate: false,
    })
}

/// Fraction digits a price may have.
const PRICE_SCALE: u8 = 8;

/// A positive price with at most [`PRICE_SCALE`] fraction digits, scaled to an integer.
pub fn parse_price(text: &str) -> Result<U256> {
    let bad = |reason| Error::InvalidAmount { reason };
    let (int, frac) = plain_decimal(text)
        .filter(|(int, _)| int.len() <= 30)
        .ok_or(bad("expected a price such as 2000.50"))?;
    if frac.len() > usize::from(PRICE_SCALE) {
        return Err(bad("a price has at most 8 decimal places"));
    }
    let value = base_units(int, frac, PRICE_SCALE)?;
    if value.is_zero() {
        return Err(bad("a price must be above zero"));
    }
    Ok(value)
}

/// The estimate answered when the provider's quote fails (behaviour 5.9: "falls back to a
/// mock quote"): [`ESTIMATE_FEE_BPS`], no network fee, marked `estimate`.
pub fn estimate(
    total_cents: u64,
    payment_currency: &str,
    purchase_currency: &str,
    purchase_decimals: u8,
    price: &str,
) -> Result<OnrampQuote> {
    let mut quote = compute_quote(&QuoteInput {
        total_cents,
        payment_currency,
        purchase_currency,
        purchase_decimals,
        price,
        fee_bps: ESTIMATE_FEE_BPS,
        network_fee_cents: 0,
        quote_id: "estimate",
    })?;
    quote.estimate = true;
    Ok(quote)
}

/// The network an asset is bought on for a wallet on `caip_network_id`: the
/// asset's network on that chain when it has one, else the on-ramp chain the
/// spec names for it, else `ethereum` (behaviour 7.6); `None` when the asset is offered on
/// neither.
pub fn select_network<'a>(asset: &'a PurchaseCurrency, caip_network_id: &str) -> Option<&'a PurchaseNetwork> {
    let reference = caip_network_id.split_once(':').map_or("", |(_, r)| r);
    if let Some(same) = asset.networks.iter().find(|n| n.chain_id == reference) {
        return Some(same);
    }
    let name = crate::network::onramp_chain(caip_network_id).unwrap_or(crate::network::ONRAMP_FALLBACK_CHAIN);
    asset.networks.iter().find(|n| n.name == name).or_else(|| {
        asset
            .networks
            .iter()
            .find(|n| n.name == crate::network::ONRAMP_FALLBACK_CHAIN)
    })
}
