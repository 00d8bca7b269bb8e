//! The documented constants and timing rules (latch_core::constants, latch_core::timing).

use latch_core::{constants::CONSTANTS, timing};
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Every business number of docs/behaviour; durations in milliseconds (names end in `Ms`). */
export interface LatchConstants {
  readonly cooldowns: { readonly emailLoginMs: number; readonly frameConnectTimeoutMs: number; readonly balanceRetryMs: number };
  readonly cacheExpiry: { readonly portfolioMs: number; readonly nativeBalanceMs: number; readonly ensNameMs: number; readonly identityMs: number };
  readonly limits: { readonly recentWalletsMax: number; readonly pendingTransactions: number; readonly addressCacheSize: number };
  readonly timings: {
    readonly toastSwapMs: number; readonly backCleanupMs: number; readonly rpcRejectionMessageMs: number; readonly shakeMs: number;
    readonly imagePreloadRaceMs: number; readonly debounceMs: number; readonly heartbeatMs: number; readonly frameReadyDelayMs: number;
  };
  readonly pairing: { readonly lifetimeMs: number; readonly nearExpiryMs: number; readonly retryGapMs: number };
  readonly onramp: {
    readonly paymentCurrencies: ReadonlyArray<{
      readonly id: string;
      readonly paymentMethodLimits: ReadonlyArray<{ readonly id: string; readonly min: string; readonly max: string }>;
    }>;
  };
  readonly swap: { readonly slippageTolerancePercent: number; readonly supportedChainIds: ReadonlyArray<number> };
  readonly catalogue: {
    readonly featuredCount: number; readonly recommendedCount: number; readonly pageSize: number; readonly searchSize: number;
    readonly searchMinWaitMs: number; readonly imagePrefetchCount: number;
  };
  readonly precision: { readonly balanceDecimals: number; readonly tokenValueDecimals: number };
  readonly logging: { readonly bufferBytes: number; readonly defaultLevel: string };
  readonly modal: { readonly widthPx: number; readonly transitionMs: number; readonly headerTextMs: number; readonly heightMs: number };
  readonly theme: {
    readonly defaultMode: 'light' | 'dark'; readonly fontSizeMaster: string; readonly borderRadiusMaster: string; readonly zIndex: number;
    readonly backgroundLight: string; readonly backgroundDark: string;
  };
  readonly rpc: {
    readonly batchSize: number; readonly timeoutMs: number; readonly rankingLatencyWeight: number; readonly rankingStabilityWeight: number;
    readonly rankingSampleCount: number; readonly rankingIntervalMs: number;
  };
  readonly httpStatus: { readonly forbidden: number; readonly serviceUnavailable: number };
  readonly time: {
    readonly secondMs: number; readonly minuteMs: number; readonly hourMs: number; readonly dayMs: number;
    readonly weekMs: number; readonly monthMs: number; readonly yearMs: number;
  };
}
"#;

/// Freezes `value` and everything inside it, so no caller can change a constant for the others.
fn deep_freeze(value: &JsValue) {
    if let Some(object) = value.dyn_ref::<js_sys::Object>() {
        for inner in js_sys::Object::values(object).iter() {
            deep_freeze(&inner);
        }
        js_sys::Object::freeze(object);
    }
}

/// Every documented constant, as one deeply frozen object.
#[cfg(feature = "extra")]
#[wasm_bindgen(unchecked_return_type = "LatchConstants")]
pub fn constants() -> Result<JsValue, JsValue> {
    let value = to_js(&CONSTANTS)?;
    deep_freeze(&value);
    Ok(value)
}

fn millis(value: f64) -> Result<u64, JsValue> {
    timing::timestamp_from_js(value).map_err(js_error)
}

/// When a pairing link made now expires: `nowMs` plus 4 minutes.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = pairingExpiry)]
pub fn pairing_expiry(now_ms: f64) -> Result<f64, JsValue> {
    // At most 2^53 plus 4 minutes: the conversion to a JS number stays (nearly) exact.
    Ok(timing::pairing_expiry(millis(now_ms)?) as f64)
}

/// Whether the pairing link must be regenerated: under 10 s remain.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = isPairingNearExpiry)]
pub fn is_pairing_near_expiry(expiry_ms: f64, now_ms: f64) -> Result<bool, JsValue> {
    Ok(timing::is_pairing_near_expiry(millis(expiry_ms)?, millis(now_ms)?))
}

/// Whether pairing may be retried: at least 1 s since the last attempt.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = canRetryPairing)]
pub fn can_retry_pairing(last_attempt_ms: f64, now_ms: f64) -> Result<bool, JsValue> {
    Ok(timing::can_retry_pairing(millis(last_attempt_ms)?, millis(now_ms)?))
}
