//! Lists, orders and the RPC method policy (latch_core::policy).

use latch_core::{policy, Error};
use wasm_bindgen::prelude::*;

use crate::input::from_js;
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Any wallet or connector object; only `rdns` and `name` are read. */
export interface WalletIdentity { rdns?: string | null; name?: string | null }
export interface RestrictedWallets { rdns?: string[]; names?: string[] }
export interface InjectedConnectorContext { isDesktop: boolean; injectedInstalled: boolean }
export type ConnectMethod = 'email' | 'social' | 'wallet';
/**
 * Omit `installedWalletShown` for the fixed order (email, social, wallet); pass it
 * for the order that puts wallets first when an injected or announced wallet shows.
 * `configured` (the host's own order) wins over both.
 */
export interface ConnectMethodOrderRequest { configured?: ConnectMethod[] | null; installedWalletShown?: boolean | null }
export interface Features {
  swaps: boolean; onramp: boolean; receive: boolean; send: boolean; email: boolean;
  emailShowWallets: boolean; history: boolean; analytics: boolean; allWallets: boolean;
  legalCheckbox: boolean; smartSessions: boolean; collapseWallets: boolean;
}
export type RpcMethodClass = 'safe' | 'approval' | 'notAllowed';
"#;

fn invalid_wallets(reason: &str) -> JsValue {
    js_error(Error::InvalidInput {
        what: "wallets",
        reason: reason.into(),
    })
}

/// Text of property `key` of `object`, if it is a string.
fn text_field(object: &JsValue, key: &str) -> Option<String> {
    js_sys::Reflect::get(object, &key.into()).ok()?.as_string()
}

/// The wallets (any objects with optional `rdns` and `name`) that are not restricted;
/// the objects themselves are returned untouched.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = filterRestrictedWallets, unchecked_return_type = "WalletIdentity[]")]
pub fn filter_restricted_wallets(
    #[wasm_bindgen(unchecked_param_type = "WalletIdentity[]")] wallets: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RestrictedWallets")] restricted: JsValue,
) -> Result<JsValue, JsValue> {
    if !js_sys::Array::is_array(&wallets) {
        return Err(invalid_wallets("expected an array"));
    }
    let restricted: policy::RestrictedWallets = from_js("restricted wallets", restricted)?;
    let kept = js_sys::Array::new();
    for wallet in js_sys::Array::from(&wallets).iter() {
        if !wallet.is_object() {
            return Err(invalid_wallets("expected objects"));
        }
        let (rdns, name) = (text_field(&wallet, "rdns"), text_field(&wallet, "name"));
        if !restricted.hides(rdns.as_deref(), name.as_deref()) {
            kept.push(&wallet);
        }
    }
    Ok(kept.into())
}

/// Whether to hide the browser-wallet connector: on desktop with none installed.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = shouldHideInjectedConnector)]
pub fn should_hide_injected_connector(
    #[wasm_bindgen(unchecked_param_type = "InjectedConnectorContext")] context: JsValue,
) -> Result<bool, JsValue> {
    Ok(policy::should_hide_injected_connector(from_js(
        "injected connector context",
        context,
    )?))
}

/// Socials without those a Telegram mini-app cannot open on `os`
/// (`ios`, `mac`/`macos`, `android`, case-insensitive; other values remove nothing).
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = filterTelegramSocials, unchecked_return_type = "string[]")]
pub fn filter_telegram_socials(
    #[wasm_bindgen(unchecked_param_type = "string[]")] socials: JsValue,
    os: &str,
) -> Result<JsValue, JsValue> {
    let socials: Vec<String> = from_js("socials", socials)?;
    to_js(&policy::filter_telegram_socials(&socials, os))
}

/// The order of the Connect view's groups; see `ConnectMethodOrderRequest`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = connectMethodOrder, unchecked_return_type = "ConnectMethod[]")]
pub fn connect_method_order(
    #[wasm_bindgen(unchecked_param_type = "ConnectMethodOrderRequest | undefined")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request = if request.is_undefined() || request.is_null() {
        policy::ConnectMethodOrderRequest::default()
    } else {
        from_js("connect method order request", request)?
    };
    to_js(&policy::connect_method_order(&request).map_err(js_error)?)
}

/// walletConnect, recent, injected, featured, custom, external, recommended.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = defaultConnectorTypeOrder, unchecked_return_type = "string[]")]
pub fn default_connector_type_order() -> Result<JsValue, JsValue> {
    to_js(&policy::DEFAULT_CONNECTOR_TYPE_ORDER)
}

/// onramp, swaps, receive, send.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = walletFeatureOrder, unchecked_return_type = "string[]")]
pub fn wallet_feature_order() -> Result<JsValue, JsValue> {
    to_js(&policy::WALLET_FEATURE_ORDER)
}

/// google, x, discord, farcaster, github, apple, facebook.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = defaultSocials, unchecked_return_type = "string[]")]
pub fn default_socials() -> Result<JsValue, JsValue> {
    to_js(&policy::DEFAULT_SOCIALS)
}

/// Which optional features are on by default.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = defaultFeatures, unchecked_return_type = "Features")]
pub fn default_features() -> Result<JsValue, JsValue> {
    to_js(&policy::DEFAULT_FEATURES)
}

/// `safe`, `approval` (ApproveTransaction first) or `notAllowed`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = classifyRpcMethod, unchecked_return_type = "RpcMethodClass")]
pub fn classify_rpc_method(method: &str) -> String {
    policy::classify_rpc_method(method).as_str().to_owned()
}

/// The class of an allowed method; throws `Requested RPC call is not allowed`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = assertRpcMethodAllowed, unchecked_return_type = "'safe' | 'approval'")]
pub fn assert_rpc_method_allowed(method: &str) -> Result<String, JsValue> {
    policy::assert_rpc_method_allowed(method)
        .map(|class| class.as_str().to_owned())
        .map_err(js_error)
}

/// The UI text for a refused RPC method: `Action not allowed`.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = actionNotAllowedMessage)]
pub fn action_not_allowed_message() -> String {
    policy::ACTION_NOT_ALLOWED_MESSAGE.to_owned()
}
