//! `vectors/validate.json` against latch-core (behaviour 5.16, 5.11, 5.5).

mod common;

use common::{check_file, millis, opt_text, records, text, to_array};
use latch_core::validate::{self, ExpirerTarget, GasCheck, SendDraft, TargetValue, TokenBalance};
use latch_core::Error;
use serde_json::{json, Value};

#[test]
fn validate_vectors() {
    check_file(
        include_str!("../vectors/validate.json"),
        &[
            ("validateName", |a| Ok(json!(validate::validate_name(text(a, 0))?))),
            ("evmChainIdToCoinType", |a| {
                // A JS number that is not a whole non-negative number is no chain id.
                let id = a[0].as_u64().ok_or(Error::InvalidChainId)?;
                Ok(json!(validate::evm_chain_id_to_coin_type(id)?))
            }),
            ("validateSendDraft", |a| {
                let draft: SendDraft = validate::deserialize_input("send draft", a[0].clone())?;
                validate::validate_send_draft(&draft)?;
                Ok(Value::Null)
            }),
            ("isInsufficientGas", |a| {
                let check: GasCheck = validate::deserialize_input("gas check", a[0].clone())?;
                Ok(json!(validate::is_insufficient_gas(&check)))
            }),
            ("filterLowQualityTokens", |a| {
                let balances = records::<TokenBalance>("token balances", "token balance", &a[0])?;
                Ok(to_array(validate::filter_low_quality_tokens(balances)))
            }),
            ("isValidWalletAsset", |a| {
                Ok(json!(validate::is_valid_wallet_asset(&a[0])))
            }),
            ("validateExpirerTarget", |a| {
                Ok(serde_json::to_value(text(a, 0).parse::<ExpirerTarget>()?).unwrap())
            }),
            ("formatExpirerTarget", |a| {
                let value = match &a[1] {
                    Value::String(text) => TargetValue::Text(text),
                    Value::Number(n) => TargetValue::Number(n.as_f64().unwrap()),
                    _ => TargetValue::Other,
                };
                Ok(json!(ExpirerTarget::build(text(a, 0), value)?.to_string()))
            }),
            ("checkSiwxOptions", |a| {
                let is_set = |key| a[0].get(key).is_some_and(|v| !v.is_null());
                validate::check_siwx_options(is_set("siweConfig"), is_set("siwx"))?;
                Ok(Value::Null)
            }),
            ("checkProjectId", |a| {
                validate::check_project_id(opt_text(a, 0))?;
                Ok(Value::Null)
            }),
            ("emailCooldownMessage", |a| {
                let last = a[0].as_f64().map(|_| millis(a, 0));
                Ok(json!(validate::email_cooldown_message(last, millis(a, 1))))
            }),
        ],
    );
}
