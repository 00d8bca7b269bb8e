//! `vectors/policy.json` against latch-core (behaviour 1.10, 2.3, 5.18, 7.9).

mod common;

use common::text;
use latch_core::policy;
use latch_core::Error;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

fn from_value<T: DeserializeOwned>(value: &Value, what: &'static str) -> latch_core::Result<T> {
    serde_json::from_value(value.clone()).map_err(|e| Error::InvalidInput {
        what,
        reason: e.to_string(),
    })
}

fn to_value<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("serialisable")
}

#[test]
fn policy_vectors() {
    common::check_file(
        include_str!("../vectors/policy.json"),
        &[
            ("filterRestrictedWallets", |a| {
                let restricted: policy::RestrictedWallets = from_value(&a[1], "restricted wallets")?;
                let wallets = a[0].as_array().expect("an array of wallets");
                let kept = wallets
                    .iter()
                    .filter(|w| !restricted.hides(w["rdns"].as_str(), w["name"].as_str()));
                Ok(Value::Array(kept.cloned().collect()))
            }),
            ("shouldHideInjectedConnector", |a| {
                Ok(json!(policy::should_hide_injected_connector(from_value(
                    &a[0],
                    "injected connector context"
                )?)))
            }),
            ("filterTelegramSocials", |a| {
                let socials: Vec<String> = from_value(&a[0], "socials")?;
                Ok(to_value(policy::filter_telegram_socials(&socials, text(a, 1))))
            }),
            ("connectMethodOrder", |a| {
                let request = match a.first() {
                    None | Some(Value::Null) => policy::ConnectMethodOrderRequest::default(),
                    Some(value) => from_value(value, "connect method order request")?,
                };
                Ok(to_value(policy::connect_method_order(&request)?))
            }),
            ("defaultConnectorTypeOrder", |_| {
                Ok(to_value(policy::DEFAULT_CONNECTOR_TYPE_ORDER))
            }),
            ("walletFeatureOrder", |_| Ok(to_value(policy::WALLET_FEATURE_ORDER))),
            ("defaultSocials", |_| Ok(to_value(policy::DEFAULT_SOCIALS))),
            ("defaultFeatures", |_| Ok(to_value(policy::DEFAULT_FEATURES))),
            ("classifyRpcMethod", |a| {
                Ok(json!(policy::classify_rpc_method(text(a, 0)).as_str()))
            }),
            ("assertRpcMethodAllowed", |a| {
                Ok(json!(policy::assert_rpc_method_allowed(text(a, 0))?.as_str()))
            }),
            ("actionNotAllowedMessage", |_| {
                Ok(json!(policy::ACTION_NOT_ALLOWED_MESSAGE))
            }),
        ],
    );
}
