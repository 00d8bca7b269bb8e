//! `vectors/network.json` against latch-core (behaviour 3.2, 3.6, 3.9, 7.7).

mod common;

use common::{opt_text, text};
use latch_core::network;
use latch_core::Error;
use serde_json::{json, Value};

fn to_value<T: serde::Serialize>(value: T) -> Value {
    serde_json::to_value(value).expect("serialisable")
}

#[test]
fn network_vectors() {
    common::check_file(
        include_str!("../vectors/network.json"),
        &[
            ("getNetworks", |_| Ok(to_value(network::networks()))),
            ("getNetwork", |a| Ok(to_value(network::network(text(a, 0))?))),
            ("unsupportedNetworkPlaceholder", |a| {
                Ok(to_value(network::unsupported_network_placeholder(opt_text(a, 0))?))
            }),
            ("restoreNetwork", |a| {
                let request = serde_json::from_value(a[0].clone()).map_err(|e| Error::InvalidInput {
                    what: "restore network request",
                    reason: e.to_string(),
                })?;
                Ok(to_value(network::restore_network(request)?))
            }),
            ("startNetwork", |a| {
                let ids = |value: &Value| -> Vec<String> {
                    value
                        .as_array()
                        .expect("a list of ids")
                        .iter()
                        .map(|id| id.as_str().expect("an id").to_owned())
                        .collect()
                };
                // As @latch/wasm answers: the index, -1 for the placeholder, -2 for the default.
                Ok(json!(
                    match network::start_network(opt_text(a, 0), &ids(&a[1]), &ids(&a[2])) {
                        network::StartNetwork::Requested(index) => index as i64,
                        network::StartNetwork::Placeholder => -1,
                        network::StartNetwork::Default => -2,
                    }
                ))
            }),
            ("isAddChainTrigger", |a| {
                Ok(json!(network::is_add_chain_trigger(a[0].as_f64().expect("a number"))))
            }),
            ("defaultAccountType", |a| {
                Ok(to_value(network::default_account_type(text(a, 0))))
            }),
            ("supportsFeature", |a| {
                Ok(json!(network::supports_feature(text(a, 0).parse()?, text(a, 1))))
            }),
            ("walletFeatures", |a| Ok(to_value(network::wallet_features(text(a, 0))))),
            ("embeddedWalletNetworks", |_| {
                Ok(to_value(network::EMBEDDED_WALLET_NETWORKS))
            }),
            ("onrampChain", |a| Ok(json!(network::onramp_chain(text(a, 0))?))),
        ],
    );
}
