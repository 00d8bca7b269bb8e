//! `vectors/siwx.json` against latch-core (behaviour 4.3, 4.5, 4.7 sign-in).

mod common;

use common::{check_file, text};
use latch_core::siwx::{self, SignInMessage, SiweMessage, SiwxMessage};
use serde::de::{DeserializeOwned, IgnoredAny};
use serde_json::{json, Value};

/// A message object as JS passes it.
fn message<T: DeserializeOwned>(args: &[Value]) -> T {
    serde_json::from_value(args[0].clone()).expect("vector message matches the TypeScript type")
}

#[test]
fn siwx_vectors() {
    check_file(
        include_str!("../vectors/siwx.json"),
        &[
            ("buildSiweMessage", |a| Ok(json!(message::<SiweMessage>(a).build()?))),
            ("parseSiweMessage", |a| Ok(json!(SiweMessage::parse(text(a, 0))?))),
            ("buildSiwxMessage", |a| Ok(json!(message::<SiwxMessage>(a).build()?))),
            ("parseSiwxMessage", |a| Ok(json!(SiwxMessage::parse(text(a, 0))?))),
            ("checkSiweTimes", |a| {
                let now_ms = a[1].as_i64().expect("nowMs is an integer");
                message::<SignInMessage<IgnoredAny>>(a).check_times(now_ms)?;
                Ok(Value::Null)
            }),
            ("recoverPersonalSignAddress", |a| {
                Ok(json!(siwx::recover_personal_sign_address(text(a, 0), text(a, 1))?))
            }),
            ("verifySolanaSignature", |a| {
                Ok(json!(siwx::verify_solana_signature(
                    text(a, 0),
                    text(a, 1),
                    text(a, 2)
                )?))
            }),
        ],
    );
}
