//! Validation rules (latch_core::validate).

use latch_core::validate::{self, ExpirerTarget, GasCheck, SendDraft, TargetValue, TokenBalance};
use latch_core::Error;
use wasm_bindgen::prelude::*;

use crate::input::{from_js, millis, records, to_array};
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A token balance as the balance API returns it. */
export interface TokenBalance {
  name: string;
  symbol: string;
  chainId: string;
  /** CAIP-10 token address; absent for the native token. */
  address?: string;
  value?: number;
  price: number;
  quantity: { decimals: string; numeric: string };
  iconUrl: string;
}
/** A wallet asset as `wallet_getAssets` reports it. */
export interface WalletAsset {
  address: string;
  /** Balance in base units, hex. */
  balance: string;
  type: 'ERC20' | 'NATIVE';
  metadata: { name: string; symbol: string; decimals: number; price: number; iconUrl: string; value?: number };
}
/** The send form's state; `chainNamespace` is the active network's. */
export interface SendDraft {
  chainNamespace: string;
  token?: Partial<TokenBalance> | null;
  sendTokenAmount?: number | string | null;
  receiverAddress?: string | null;
  gasPrice?: bigint | number | string | null;
}
export interface GasCheck {
  networkBalanceUsd?: number | string | null;
  gasPriceUsd?: number | string | null;
  isSmartAccount?: boolean | null;
}
export type ExpirerTarget = { topic: string } | { id: number };
"#;

/// The label in lower case when it has at least 4 characters, all letters,
/// digits or hyphens; else throws a message for the user.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = validateName)]
pub fn validate_name(name: &str) -> Result<String, JsValue> {
    validate::validate_name(name).map_err(js_error)
}

/// ENSIP-11 coin type: 60 for chain 1, else `0x80000000 | chainId`; throws
/// `Invalid chainId` for ids at or above 2^31 and for non-integers.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = evmChainIdToCoinType)]
pub fn evm_chain_id_to_coin_type(#[wasm_bindgen(js_name = "chainId")] chain_id: f64) -> Result<u32, JsValue> {
    if chain_id.fract() != 0.0 || !(0.0..=u64::MAX as f64).contains(&chain_id) {
        return Err(js_error(Error::InvalidChainId));
    }
    validate::evm_chain_id_to_coin_type(chain_id as u64).map_err(js_error)
}

/// Throws the message to show when the draft cannot be sent yet.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = validateSendDraft)]
pub fn validate_send_draft(#[wasm_bindgen(unchecked_param_type = "SendDraft")] draft: JsValue) -> Result<(), JsValue> {
    let draft: SendDraft = from_js("send draft", draft)?;
    validate::validate_send_draft(&draft).map_err(js_error)
}

/// True when the native balance in USD is zero or below the gas cost; smart accounts never.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = isInsufficientGas)]
pub fn is_insufficient_gas(#[wasm_bindgen(unchecked_param_type = "GasCheck")] input: JsValue) -> Result<bool, JsValue> {
    let check: GasCheck = from_js("gas check", input)?;
    Ok(validate::is_insufficient_gas(&check))
}

/// The balances without the low-quality ones (decimals `"0"`), the same objects in order.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = filterLowQualityTokens, unchecked_return_type = "TokenBalance[]")]
pub fn filter_low_quality_tokens(
    #[wasm_bindgen(unchecked_param_type = "TokenBalance[]")] balances: JsValue,
) -> Result<JsValue, JsValue> {
    let balances = records::<TokenBalance>("token balances", "token balance", &balances)?;
    Ok(to_array(validate::filter_low_quality_tokens(balances)).into())
}

/// Whether `asset` has the wallet-asset shape (any value may be passed).
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = isValidWalletAsset, unchecked_return_type = "asset is WalletAsset")]
pub fn is_valid_wallet_asset(#[wasm_bindgen(unchecked_param_type = "unknown")] asset: JsValue) -> bool {
    validate::is_valid_wallet_asset(serde_wasm_bindgen::Deserializer::from(asset))
}

/// Parses `topic:<string>` / `id:<number>`; throws
/// `Invalid target, expected id:number or topic:string`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = validateExpirerTarget, unchecked_return_type = "ExpirerTarget")]
pub fn validate_expirer_target(target: &str) -> Result<JsValue, JsValue> {
    to_js(&target.parse::<ExpirerTarget>().map_err(js_error)?)
}

/// Builds `topic:<value>` or `id:<value>`, checking the value's JS type.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = formatExpirerTarget)]
pub fn format_expirer_target(
    #[wasm_bindgen(js_name = "type", unchecked_param_type = "'topic' | 'id'")] kind: &str,
    #[wasm_bindgen(unchecked_param_type = "string | number")] value: JsValue,
) -> Result<String, JsValue> {
    let text = value.as_string();
    let value = match (&text, value.as_f64()) {
        (Some(text), _) => TargetValue::Text(text),
        (None, Some(number)) => TargetValue::Number(number),
        (None, None) => TargetValue::Other,
    };
    ExpirerTarget::build(kind, value)
        .map(|target| target.to_string())
        .map_err(js_error)
}

/// Throws ``Cannot set both `siweConfig` and `siwx` options`` when both are set.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = checkSiwxOptions)]
pub fn check_siwx_options(
    #[wasm_bindgen(unchecked_param_type = "{ siweConfig?: unknown; siwx?: unknown }")] options: JsValue,
) -> Result<(), JsValue> {
    // A missing options object, or a property that cannot be read, sets nothing.
    let is_set = |key: &str| {
        options.is_object()
            && js_sys::Reflect::get(&options, &key.into()).is_ok_and(|v| !v.is_null() && !v.is_undefined())
    };
    validate::check_siwx_options(is_set("siweConfig"), is_set("siwx")).map_err(js_error)
}

/// Throws `Project ID Not Configured` when the id is missing, empty or blank.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = checkProjectId)]
pub fn check_project_id(#[wasm_bindgen(js_name = "projectId")] project_id: Option<String>) -> Result<(), JsValue> {
    validate::check_project_id(project_id.as_deref()).map_err(js_error)
}

/// `Please try again after {n} seconds` within 30 s of the last e-mail login attempt, else null.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = emailCooldownMessage)]
pub fn email_cooldown_message(
    #[wasm_bindgen(js_name = "lastAttemptMs")] last_attempt_ms: Option<f64>,
    #[wasm_bindgen(js_name = "nowMs")] now_ms: f64,
) -> Result<Option<String>, JsValue> {
    let last = last_attempt_ms.map(millis).transpose()?;
    Ok(validate::email_cooldown_message(last, millis(now_ms)?))
}
