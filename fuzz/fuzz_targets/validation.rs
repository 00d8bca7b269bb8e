//! The validation rules on arbitrary text and arbitrary JSON: none may panic,
//! and expirer targets print to text that parses back to them.
#![no_main]

use latch_core::history::Transaction;
use latch_core::validate::{self, ExpirerTarget, GasCheck, SendDraft, TargetValue, TokenBalance};
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Ok(name) = validate::validate_name(text) {
        assert_eq!(validate::validate_name(&name).as_deref(), Ok(name.as_str()));
    }
    // `id:007` is accepted as id 7 (JS reads it so), so the round trip is on the value.
    if let Ok(target) = text.parse::<ExpirerTarget>() {
        assert_eq!(target.to_string().parse::<ExpirerTarget>().as_ref(), Ok(&target));
    }
    let (kind, rest) = text.split_once(' ').unwrap_or((text, ""));
    let _ = ExpirerTarget::build(kind, TargetValue::Text(rest));
    if let Ok(n) = rest.parse::<f64>() {
        let _ = ExpirerTarget::build(kind, TargetValue::Number(n));
    }
    let number = u64::from_le_bytes(first_eight(data));
    let _ = validate::evm_chain_id_to_coin_type(number);
    let _ = validate::email_cooldown_message(Some(number as i64), (number as i64).wrapping_mul(31));
    let _ = validate::check_project_id(Some(text));

    let Ok(json) = serde_json::from_str::<Value>(text) else { return };
    if let Ok(draft) = validate::deserialize_input::<SendDraft, _>("send draft", json.clone()) {
        let _ = validate::validate_send_draft(&draft);
    }
    if let Ok(check) = validate::deserialize_input::<GasCheck, _>("gas check", json.clone()) {
        let _ = validate::is_insufficient_gas(&check);
    }
    if let Ok(balances) = validate::deserialize_input::<Vec<TokenBalance>, _>("token balances", json.clone()) {
        let _ = validate::filter_low_quality_tokens(balances);
    }
    if let Ok(transaction) = validate::deserialize_input::<Transaction, _>("transaction", json.clone()) {
        let _ = transaction.mined_at_ms();
        let _ = transaction.is_all_spam();
    }
    let _ = validate::is_valid_wallet_asset(json);
});

/// The first 8 bytes of `data`, zero-padded.
fn first_eight(data: &[u8]) -> [u8; 8] {
    let mut bytes = [0; 8];
    let n = data.len().min(8);
    bytes[..n].copy_from_slice(&data[..n]);
    bytes
}
