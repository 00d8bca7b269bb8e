//! Networks (latch_core::network).

use latch_core::network;
use wasm_bindgen::prelude::*;

use crate::input::from_js;
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A network (behaviour 3.2). `id` is the chain id on eip155, the CAIP-2 reference elsewhere. */
export interface Network {
  id: number | string;
  caipNetworkId: string;
  chainNamespace: string;
  name: string;
  nativeCurrency: { name: string; symbol: string; decimals: number };
  rpcUrls: { default: { http: string[] }; chainDefault?: { http: string[] } };
  assets?: { imageId?: string; imageUrl?: string };
  blockExplorers?: { default: { name: string; url: string } };
  testnet?: boolean;
}
/** A network in full, or the CAIP-2 id of a catalogue network. */
export type NetworkChoice = Network | string;
export interface RestoreNetworkRequest {
  /** The persisted active network id; a malformed value counts as none. */
  stored?: string | null;
  requested: NetworkChoice[];
  defaultNetwork?: NetworkChoice | null;
  /** Namespaces with an adapter; default: those of `requested`. */
  namespaces?: string[] | null;
}
export type AccountType = 'eoa' | 'smartAccount' | 'payment';
export type NamespaceFeature =
  | 'balances'
  | 'names'
  | 'activity'
  | 'onramp'
  | 'embeddedWallet'
  | 'swaps'
  | 'receive'
  | 'send';
/** An Account view action's feature (behaviour 1.12 "Wallet feature order"). */
export type WalletFeature = 'onramp' | 'swaps' | 'receive' | 'send';
"#;

fn optional_network(found: Option<network::Network>) -> Result<JsValue, JsValue> {
    found.map_or(Ok(JsValue::UNDEFINED), |n| to_js(&n))
}

/// Every network of the catalogue.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = getNetworks, unchecked_return_type = "Network[]")]
pub fn get_networks() -> Result<JsValue, JsValue> {
    to_js(&network::networks())
}

/// The catalogue network with this CAIP-2 id, `undefined` when unknown;
/// throws `Invalid CAIP-2 network id` when malformed.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = getNetwork, unchecked_return_type = "Network | undefined")]
pub fn get_network(caip_network_id: &str) -> Result<JsValue, JsValue> {
    optional_network(network::network(caip_network_id).map_err(js_error)?)
}

/// The unsupported-network placeholder: name `Unknown Network`, empty currency,
/// no RPC URLs; it keeps the given id (all id fields empty without one).
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = unsupportedNetworkPlaceholder, unchecked_return_type = "Network")]
pub fn unsupported_network_placeholder(caip_network_id: Option<String>) -> Result<JsValue, JsValue> {
    to_js(&network::unsupported_network_placeholder(caip_network_id.as_deref()).map_err(js_error)?)
}

/// The network to make active at start (behaviour 3.6); `undefined` when nothing was requested.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = restoreNetwork, unchecked_return_type = "Network | undefined")]
pub fn restore_network(
    #[wasm_bindgen(unchecked_param_type = "RestoreNetworkRequest")] request: JsValue,
) -> Result<JsValue, JsValue> {
    let request = from_js("restore network request", request)?;
    optional_network(network::restore_network(request).map_err(js_error)?)
}

/// The network to make active at start (behaviour 3.6) by ids: the stored id's
/// index among `requested`; `-1`: the unsupported placeholder for it (its
/// namespace is among `namespaces`; `unsupportedNetworkPlaceholder` in `extra`
/// builds it, as building it here cost `core` a kilobyte); `-2`: the app's
/// default. In `core`, the modal calls it before it opens and needs no
/// catalogue; a number rather than a serialised enum, and JS values rather than
/// `Vec<String>`, keep `core` small (each cost it most of a kilobyte).
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = startNetwork)]
pub fn start_network(
    stored: Option<String>,
    #[wasm_bindgen(unchecked_param_type = "string[]")] requested: Vec<JsValue>,
    #[wasm_bindgen(unchecked_param_type = "string[]")] namespaces: Vec<JsValue>,
) -> i32 {
    let text = |values: Vec<JsValue>| {
        values
            .iter()
            .map(|v| v.as_string().unwrap_or_default())
            .collect::<Vec<_>>()
    };
    match network::start_network(stored.as_deref(), &text(requested), &text(namespaces)) {
        network::StartNetwork::Requested(index) => i32::try_from(index).unwrap_or(-2),
        network::StartNetwork::Placeholder => -1,
        network::StartNetwork::Default => -2,
    }
}

/// Whether a wallet-switch error code triggers an add-chain request (4902,
/// 5000, 32603 or -32603).
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = isAddChainTrigger)]
pub fn is_add_chain_trigger(code: f64) -> bool {
    network::is_add_chain_trigger(code)
}

/// Whether a wallet error code says the user declined (4001, or
/// WalletConnect's 5000, 5001, 5002).
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = isUserRejection)]
pub fn is_user_rejection(code: f64) -> bool {
    network::is_user_rejection(code)
}

/// The default account type of a namespace; `undefined` for unknown namespaces.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = defaultAccountType, unchecked_return_type = "AccountType | undefined")]
pub fn default_account_type(namespace: &str) -> JsValue {
    network::default_account_type(namespace).map_or(JsValue::UNDEFINED, |t| t.as_str().into())
}

/// Whether a feature works on a namespace; throws `Invalid feature: …` for an unknown feature.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = supportsFeature)]
pub fn supports_feature(
    #[wasm_bindgen(unchecked_param_type = "NamespaceFeature")] feature: &str,
    namespace: &str,
) -> Result<bool, JsValue> {
    let feature = feature.parse().map_err(js_error)?;
    Ok(network::supports_feature(feature, namespace))
}

/// The Account view's wallet features that work on a namespace, in the documented
/// order. In the `core` module: the Account view asks as the modal shows.
#[cfg(feature = "core")]
#[wasm_bindgen(js_name = walletFeatures, unchecked_return_type = "WalletFeature[]")]
pub fn wallet_features(namespace: &str) -> Vec<String> {
    network::wallet_features(namespace)
        .into_iter()
        .map(String::from)
        .collect()
}

/// The CAIP-2 ids of the networks the embedded wallet works on.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = embeddedWalletNetworks, unchecked_return_type = "string[]")]
pub fn embedded_wallet_networks() -> Result<JsValue, JsValue> {
    to_js(&network::EMBEDDED_WALLET_NETWORKS)
}

/// The on-ramp provider's chain name for a network, `ethereum` when it has none.
#[cfg(feature = "extra")]
#[wasm_bindgen(js_name = onrampChain)]
pub fn onramp_chain(caip_network_id: &str) -> Result<String, JsValue> {
    network::onramp_chain(caip_network_id)
        .map(str::to_owned)
        .map_err(js_error)
}
