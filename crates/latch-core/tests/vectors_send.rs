//! `vectors/send.json` against latch-core (behaviour 5.6 "Send", behaviour 5.5).

mod common;

use common::{check_file, required_decimal};
use latch_core::send::{self, GasCostInput, MaxSendInput, SendRequest};
use latch_core::validate::deserialize_input;
use serde_json::json;

#[test]
fn send_vectors() {
    check_file(
        include_str!("../vectors/send.json"),
        &[
            ("buildSendTransaction", |a| {
                let request: SendRequest = deserialize_input("send request", a[0].clone())?;
                Ok(serde_json::to_value(send::build_send_transaction(&request)?).unwrap())
            }),
            ("maxSendAmount", |a| {
                let input: MaxSendInput = deserialize_input("max send input", a[0].clone())?;
                Ok(json!(send::max_send_amount(&input)?))
            }),
            ("gasCost", |a| {
                let input: GasCostInput = deserialize_input("gas cost input", a[0].clone())?;
                Ok(serde_json::to_value(send::gas_cost(&input)?).unwrap())
            }),
            ("fiatValue", |a| {
                let value = send::fiat_value(&required_decimal(a, 0)?, &required_decimal(a, 1)?);
                Ok(json!(value.to_string()))
            }),
        ],
    );
}
