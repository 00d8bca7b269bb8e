//! What a pairing expirer watches (behaviour 2.8).

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use super::MAX_SAFE_INTEGER;
use crate::{Error, Result};
/// What a pairing expirer watches: a session topic or a JSON-RPC request id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExpirerTarget {
    /// `topic:<string>`: a pairing or session topic.
    Topic(String),
    /// `id:<number>`: a request id, a whole number JS holds exactly.
    Id(u64),
}

impl FromStr for ExpirerTarget {
    type Err = Error;

    /// `topic:<non-empty text>` or `id:<digits>` (at most 2^53 - 1), else
    /// `Invalid target, expected id:number or topic:string` (behaviour 2.8). Everything
    /// after the first colon is the value, so topics may contain colons.
    fn from_str(target: &str) -> Result<Self> {
        let invalid = || Error::InvalidExpirerTarget {
            input: target.to_owned(),
        };
        match target.split_once(':') {
            Some(("topic", topic)) if !topic.is_empty() => Ok(ExpirerTarget::Topic(topic.to_owned())),
            Some(("id", id)) if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) => id
                .parse()
                .ok()
                .filter(|id| *id <= MAX_SAFE_INTEGER)
                .map(ExpirerTarget::Id)
                .ok_or_else(invalid),
            _ => Err(invalid()),
        }
    }
}

impl fmt::Display for ExpirerTarget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExpirerTarget::Topic(topic) => write!(f, "topic:{topic}"),
            ExpirerTarget::Id(id) => write!(f, "id:{id}"),
        }
    }
}

/// A value handed to [`ExpirerTarget::build`], typed as JS typed it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum TargetValue<'a> {
    /// A JS string.
    Text(&'a str),
    /// A JS number.
    Number(f64),
    /// Anything else.
    Other,
}

impl ExpirerTarget {
    /// The typed builder: `topic` takes text, `id` a whole number, else behaviour 2.8
    /// `Value must be "string" for expirer target type: topic` (or the number /
    /// id equivalent). A fractional or out-of-range id, an empty topic or
    /// another kind is not a target: `Invalid target…`.
    pub fn build(kind: &str, value: TargetValue<'_>) -> Result<Self> {
        match (kind, value) {
            ("topic", TargetValue::Text(topic)) => format!("topic:{topic}").parse(),
            ("topic", _) => Err(Error::ExpirerValueType {
                kind: "topic",
                expected: "string",
            }),
            ("id", TargetValue::Number(n)) if n.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(&n) => {
                Ok(ExpirerTarget::Id(n as u64))
            }
            ("id", TargetValue::Number(n)) => Err(Error::InvalidExpirerTarget {
                input: format!("id:{n}"),
            }),
            ("id", _) => Err(Error::ExpirerValueType {
                kind: "id",
                expected: "number",
            }),
            (kind, _) => Err(Error::InvalidExpirerTarget {
                input: format!("{kind}:"),
            }),
        }
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Behaviour 2.8: "Expirer targets must be topic:string or id:number, else 'Invalid target, expected id:number or topic:string'."
    #[test]
    fn expirer_targets() {
        assert_eq!("topic:abc".parse(), Ok(ExpirerTarget::Topic("abc".to_owned())));
        assert_eq!("topic:a:b".parse(), Ok(ExpirerTarget::Topic("a:b".to_owned())));
        assert_eq!(
            "id:1700000000000123".parse(),
            Ok(ExpirerTarget::Id(1_700_000_000_000_123))
        );
        for bad in [
            "topic:",
            "id:",
            "id:-1",
            "id:1.5",
            "id:9007199254740992",
            "id:x",
            "pairing:abc",
            "abc",
            "",
        ] {
            let err = bad.parse::<ExpirerTarget>().unwrap_err();
            assert_eq!(
                err.to_string(),
                "Invalid target, expected id:number or topic:string",
                "{bad:?}"
            );
        }
        assert_eq!(
            ExpirerTarget::build("topic", TargetValue::Text("abc")),
            Ok(ExpirerTarget::Topic("abc".to_owned()))
        );
        assert_eq!(
            ExpirerTarget::build("id", TargetValue::Number(42.0)),
            Ok(ExpirerTarget::Id(42))
        );
        let string = "Value must be \"string\" for expirer target type: topic";
        let number = "Value must be \"number\" for expirer target type: id";
        let invalid = "Invalid target, expected id:number or topic:string";
        for (kind, value, message) in [
            ("topic", TargetValue::Number(1.0), string),
            ("id", TargetValue::Text("1"), number),
            ("id", TargetValue::Other, number),
            ("id", TargetValue::Number(1.5), invalid),
            ("other", TargetValue::Text("x"), invalid),
        ] {
            assert_eq!(ExpirerTarget::build(kind, value).unwrap_err().to_string(), message);
        }
    }

    proptest! {
        // Every target prints back to the text it was parsed from.
        #[test]
        fn expirer_target_round_trips(topic in "\\PC+", id in 0u64..=MAX_SAFE_INTEGER) {
            for target in [ExpirerTarget::Topic(topic.clone()), ExpirerTarget::Id(id)] {
                prop_assert_eq!(target.to_string().parse::<ExpirerTarget>(), Ok(target));
            }
        }
    }
}
