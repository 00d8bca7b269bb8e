//! Validation rules of behaviour 5.5 (with the messages of behaviour 5.11): names, coin types,
//! send drafts, gas, token lists, wallet assets, expirer targets, sign-in and
//! project configuration, and the e-mail login cooldown (behaviour 5.16, 7.1).

mod assets;
mod expirer;
mod names;
mod options;
mod send;

use serde::{Deserialize, Deserializer};

pub use assets::*;
pub use expirer::*;
pub use names::*;
pub use options::*;
pub use send::*;

use crate::{Error, Result};

/// Largest integer a JS `number` holds exactly: ids above it would change on the way to JS.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// Reads a structured input from any serde source (JSON, a JS object), with
/// an error naming `what` and the missing or mistyped field.
pub fn deserialize_input<'de, T: Deserialize<'de>, D: Deserializer<'de>>(what: &'static str, input: D) -> Result<T> {
    T::deserialize(input).map_err(|e| Error::InvalidInput {
        what,
        reason: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*", n in any::<u64>(), f in any::<f64>(), a in any::<i64>(), b in any::<i64>()) {
            let _ = validate_name(&s);
            let _ = evm_chain_id_to_coin_type(n);
            let _ = s.parse::<ExpirerTarget>();
            let _ = ExpirerTarget::build(&s, TargetValue::Number(f));
            let _ = ExpirerTarget::build("id", TargetValue::Number(f));
            let _ = email_cooldown_message(Some(a), b);
        }
    }
}
