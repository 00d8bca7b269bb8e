//! Every business number of docs/behaviour (section 7) in one place. Rules in this
//! crate read them from [`CONSTANTS`]; TypeScript reads the same object through
//! `@latch/wasm`'s `constants()` instead of repeating the numbers.
//!
//! Durations are milliseconds and their names end in `Ms`; sizes and counts are
//! plain numbers; CSS lengths are text with their unit.

use serde::Serialize;

/// All constants, grouped by what they govern.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Constants {
    /// Cooldowns and time-outs of requests (behaviour 7.1).
    pub cooldowns: Cooldowns,
    /// How long cached answers stay fresh (behaviour 7.2).
    pub cache_expiry: CacheExpiry,
    /// Size limits of stored lists and caches (behaviour 7.3, 7.2).
    pub limits: Limits,
    /// UI and protocol delays (behaviour 7.4).
    pub timings: Timings,
    /// The pairing-link lifetime rules (behaviour 2.6 Connection status).
    pub pairing: Pairing,
    /// On-ramp fallback options (behaviour 5.9 "onramp options fall back to built-in defaults", behaviour 7.6).
    pub onramp: Onramp,
    /// Swap defaults (behaviour 7.7).
    pub swap: Swap,
    /// Wallet catalogue paging (behaviour 7.8).
    pub catalogue: Catalogue,
    /// Display precision (behaviour 7.12).
    pub precision: Precision,
    /// Logging defaults (behaviour 7.11).
    pub logging: Logging,
    /// Modal geometry and animation (behaviour 1.8).
    pub modal: Modal,
    /// Theme defaults (behaviour 1.15).
    pub theme: Theme,
    /// Chain JSON-RPC transport (behaviour 6.15).
    pub rpc: Rpc,
    /// Named HTTP status codes (behaviour 7.11).
    pub http_status: HttpStatus,
    /// Calendar units, 1 s to 365 days (behaviour 7.11).
    pub time: Time,
}

/// Cooldowns and time-outs (behaviour 7.1).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cooldowns {
    /// A new e-mail login is refused this soon after the last one.
    pub email_login_ms: u64,
    /// The embedded-wallet frame's connect call gives up after this.
    pub frame_connect_timeout_ms: u64,
    /// After a failed balance fetch, no retry sooner than this.
    pub balance_retry_ms: u64,
}

/// Cache freshness (behaviour 7.2).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CacheExpiry {
    /// Token portfolio.
    pub portfolio_ms: u64,
    /// Native balance.
    pub native_balance_ms: u64,
    /// ENS name of an address.
    pub ens_name_ms: u64,
    /// Identity (name and avatar) of an address.
    pub identity_ms: u64,
}

/// Sizes (behaviour 7.3).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Recent wallets remembered.
    pub recent_wallets_max: u32,
    /// Pending transactions fetched for the activity list.
    pub pending_transactions: u32,
    /// Entries of the address cache.
    pub address_cache_size: u32,
}

/// UI and protocol delays (behaviour 7.4).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Timings {
    /// Between closing one toast and showing the next.
    pub toast_swap_ms: u64,
    /// Before view-history cleanup after going back.
    pub back_cleanup_ms: u64,
    /// Before an unknown RPC method's error shows in the modal.
    pub rpc_rejection_message_ms: u64,
    /// The shake flag clears itself after this.
    pub shake_ms: u64,
    /// Image prefetch before opening races against this time-out.
    pub image_preload_race_ms: u64,
    /// Default debounce.
    pub debounce_ms: u64,
    /// Heartbeat interval.
    pub heartbeat_ms: u64,
    /// The login frame is ready this long after it loads.
    pub frame_ready_delay_ms: u64,
}

/// Pairing-link lifetime (behaviour 2.6).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Pairing {
    /// A new pairing link expires this long after it is made.
    pub lifetime_ms: u64,
    /// A link with less than this left must be regenerated.
    pub near_expiry_ms: u64,
    /// At least this long between two attempts.
    pub retry_gap_ms: u64,
}

/// On-ramp fallback options (behaviour 5.9 "Onramp options", behaviour 7.6).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Onramp {
    /// The payment currencies and their per-method limits.
    pub payment_currencies: [PaymentCurrency; 2],
}

/// One payment currency of the on-ramp defaults.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentCurrency {
    /// ISO 4217 code.
    pub id: &'static str,
    /// Limits per payment method.
    pub payment_method_limits: [PaymentMethodLimit; 2],
}

/// Amount limits of one payment method. Amounts are decimal text, as the
/// on-ramp service sends them, so no float ever rounds money.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PaymentMethodLimit {
    /// `card` or `ach_bank_account`.
    pub id: &'static str,
    /// Smallest amount.
    pub min: &'static str,
    /// Largest amount.
    pub max: &'static str,
}

/// Swap defaults (behaviour 7.7).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Swap {
    /// Slippage tolerance in percent.
    pub slippage_tolerance_percent: u32,
    /// EVM chain ids where swaps are offered.
    pub supported_chain_ids: [u64; 12],
}

/// Wallet catalogue paging (behaviour 7.8).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Catalogue {
    /// Featured wallets when no featured id list is configured.
    pub featured_count: u32,
    /// Recommended wallets.
    pub recommended_count: u32,
    /// Wallets per page of the full list.
    pub page_size: u32,
    /// Wallets per search.
    pub search_size: u32,
    /// A search shows its spinner at least this long.
    pub search_min_wait_ms: u64,
    /// Images prefetched from the start of each page.
    pub image_prefetch_count: u32,
}

/// Display precision (behaviour 7.12).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Precision {
    /// Decimals of a displayed balance (floored).
    pub balance_decimals: u32,
    /// Decimals of a token value.
    pub token_value_decimals: u32,
}

/// Logging defaults (behaviour 7.11).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Logging {
    /// Size of the in-memory log buffer.
    pub buffer_bytes: u32,
    /// Level used when none is configured.
    pub default_level: &'static str,
}

/// Modal geometry and animation (behaviour 1.8).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Modal {
    /// Width in CSS pixels.
    pub width_px: u32,
    /// View transition.
    pub transition_ms: u64,
    /// Header text transition.
    pub header_text_ms: u64,
    /// Modal height animation.
    pub height_ms: u64,
}

/// Theme defaults (behaviour 1.15).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Theme {
    /// `dark` unless the host chooses.
    pub default_mode: &'static str,
    /// Master font size (CSS length).
    pub font_size_master: &'static str,
    /// Master border radius (CSS length).
    pub border_radius_master: &'static str,
    /// Stacking order of the modal.
    pub z_index: u32,
    /// Background of the light theme.
    pub background_light: &'static str,
    /// Background of the dark theme.
    pub background_dark: &'static str,
}

/// Chain JSON-RPC transport (behaviour 6.15).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rpc {
    /// Calls per batch.
    pub batch_size: u32,
    /// A request fails after this.
    pub timeout_ms: u64,
    /// Weight of latency when ranking fallback transports.
    pub ranking_latency_weight: f64,
    /// Weight of stability when ranking fallback transports.
    pub ranking_stability_weight: f64,
    /// Samples kept per transport for ranking.
    pub ranking_sample_count: u32,
    /// Interval between ranking probes.
    pub ranking_interval_ms: u64,
}

/// Named HTTP status codes (behaviour 7.11).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HttpStatus {
    /// 403: origin not on the allowlist (behaviour 6.2 "Invalid App Configuration").
    pub forbidden: u16,
    /// 503.
    pub service_unavailable: u16,
}

/// Calendar units (behaviour 7.11 "time constants 1 s to 365 days").
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Time {
    /// One second.
    pub second_ms: u64,
    /// One minute.
    pub minute_ms: u64,
    /// One hour.
    pub hour_ms: u64,
    /// One day.
    pub day_ms: u64,
    /// One week.
    pub week_ms: u64,
    /// 30 days.
    pub month_ms: u64,
    /// 365 days.
    pub year_ms: u64,
}

const SECOND_MS: u64 = 1_000;
const MINUTE_MS: u64 = 60 * SECOND_MS;
const HOUR_MS: u64 = 60 * MINUTE_MS;
const DAY_MS: u64 = 24 * HOUR_MS;

const CARD_LIMIT: PaymentMethodLimit = PaymentMethodLimit {
    id: "card",
    min: "10.00",
    max: "7500.00",
};
const ACH_LIMIT: PaymentMethodLimit = PaymentMethodLimit {
    id: "ach_bank_account",
    min: "10.00",
    max: "25000.00",
};

/// The constants (behaviour 7 unless noted on the field).
pub const CONSTANTS: Constants = Constants {
    cooldowns: Cooldowns {
        email_login_ms: 30 * SECOND_MS,
        frame_connect_timeout_ms: 30 * SECOND_MS,
        balance_retry_ms: 30 * SECOND_MS,
    },
    cache_expiry: CacheExpiry {
        portfolio_ms: 30 * SECOND_MS,
        native_balance_ms: 30 * SECOND_MS,
        ens_name_ms: 5 * MINUTE_MS,
        identity_ms: 5 * MINUTE_MS,
    },
    limits: Limits {
        recent_wallets_max: 2,
        pending_transactions: 99,
        address_cache_size: 8192,
    },
    timings: Timings {
        toast_swap_ms: 150,
        back_cleanup_ms: 100,
        rpc_rejection_message_ms: 300,
        shake_ms: 500,
        image_preload_race_ms: 2 * SECOND_MS,
        debounce_ms: 500,
        heartbeat_ms: 5 * SECOND_MS,
        frame_ready_delay_ms: 500,
    },
    pairing: Pairing {
        lifetime_ms: 4 * MINUTE_MS,
        near_expiry_ms: 10 * SECOND_MS,
        retry_gap_ms: SECOND_MS,
    },
    onramp: Onramp {
        payment_currencies: [
            PaymentCurrency {
                id: "USD",
                payment_method_limits: [CARD_LIMIT, ACH_LIMIT],
            },
            PaymentCurrency {
                id: "EUR",
                payment_method_limits: [CARD_LIMIT, ACH_LIMIT],
            },
        ],
    },
    swap: Swap {
        slippage_tolerance_percent: 1,
        supported_chain_ids: [1, 42161, 10, 324, 8453, 56, 137, 100, 43114, 250, 8217, 1313161554],
    },
    catalogue: Catalogue {
        featured_count: 4,
        recommended_count: 4,
        page_size: 40,
        search_size: 100,
        search_min_wait_ms: 300,
        image_prefetch_count: 20,
    },
    precision: Precision {
        balance_decimals: 3,
        token_value_decimals: 2,
    },
    logging: Logging {
        buffer_bytes: 1_024_000,
        default_level: "error",
    },
    modal: Modal {
        width_px: 360,
        transition_ms: 150,
        header_text_ms: 120,
        height_ms: 150,
    },
    theme: Theme {
        default_mode: "dark",
        font_size_master: "10px",
        border_radius_master: "4px",
        z_index: 999,
        background_light: "#ffffff",
        background_dark: "#121313",
    },
    rpc: Rpc {
        batch_size: 1000,
        timeout_ms: 10 * SECOND_MS,
        ranking_latency_weight: 0.3,
        ranking_stability_weight: 0.7,
        ranking_sample_count: 10,
        ranking_interval_ms: 4 * SECOND_MS,
    },
    http_status: HttpStatus {
        forbidden: 403,
        service_unavailable: 503,
    },
    time: Time {
        second_ms: SECOND_MS,
        minute_ms: MINUTE_MS,
        hour_ms: HOUR_MS,
        day_ms: DAY_MS,
        week_ms: 7 * DAY_MS,
        month_ms: 30 * DAY_MS,
        year_ms: 365 * DAY_MS,
    },
};

#[cfg(test)]
mod tests {
    use super::*;

    // Behaviour 7, spot checks of values written as products above.
    #[test]
    fn derived_values_match_the_spec() {
        assert_eq!(CONSTANTS.pairing.lifetime_ms, 240_000); // "Pairing lifetime 4 min"
        assert_eq!(CONSTANTS.cache_expiry.ens_name_ms, 300_000); // "ENS name 5 min"
        assert_eq!(CONSTANTS.time.year_ms, 31_536_000_000); // "365 days"
        assert_eq!(CONSTANTS.swap.supported_chain_ids.len(), 12); // "Swap-supported networks (12)"
    }

    // The ranking weights are a split of one whole.
    #[test]
    fn ranking_weights_sum_to_one() {
        assert!((CONSTANTS.rpc.ranking_latency_weight + CONSTANTS.rpc.ranking_stability_weight - 1.0).abs() < 1e-12);
    }
}
