//! The wallet frame's requests (behaviour 5.17 "Embedded-wallet message schemas", behaviour 5.15
//! "Embedded-wallet frame"): what the host page may ask the frame over their
//! `MessageChannel`, checked before the frame acts on it. A request is
//! `{id, type, payload}`; the answer is `<type>_SUCCESS` or `<type>_ERROR` with
//! the same id (the frame writes those itself).
//!
//! Refusals carry the behaviour 5.17 messages, `Required` or `Invalid input`, and the field.
//! A good request comes back normalized: the e-mail trimmed and its domain
//! lower-cased, a numeric chain id as CAIP-2, payload keys the type does not
//! read dropped (so nothing unchecked reaches the frame's code).

use crate::json::{Object, Value};

use super::{invalid, required, validate_email, validate_otp, SchemaError, SchemaResult};

/// Largest request the frame reads, as JSON text.
pub const MAX_REQUEST_BYTES: usize = 16 * 1024;
/// Longest request id (ours are 32 hex digits).
pub const MAX_ID_BYTES: usize = 64;
/// Longest free-text value (`sdkVersion`, a theme variable, …).
const MAX_TEXT_BYTES: usize = 256;
/// Most theme variables or metadata fields.
const MAX_ENTRIES: usize = 32;

/// behaviour 5.17 "social provider one of google, github, apple, facebook, x, discord": the
/// providers with presets. An operator may add any OpenID Connect issuer under an id of its own
/// ([`is_social_provider_id`]); the frame then accepts only the ids its server lists.
pub const SOCIAL_PROVIDERS: [&str; 6] = ["google", "github", "apple", "facebook", "x", "discord"];

/// Longest social provider id.
pub const MAX_SOCIAL_ID_BYTES: usize = 32;

/// The shape of a social provider id: 1 to 32 of `a-z 0-9 -` (it is a path segment of
/// `/v1/embedded/social/{id}/start` and a test id, `social-<id>`).
pub fn is_social_provider_id(id: &str) -> bool {
    (1..=MAX_SOCIAL_ID_BYTES).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
}
/// behaviour 5.17 "connect action VERIFY_DEVICE, VERIFY_OTP, CONNECT".
pub const CONNECT_ACTIONS: [&str; 3] = ["VERIFY_DEVICE", "VERIFY_OTP", "CONNECT"];
/// behaviour 5.17 "update-email action VERIFY_PRIMARY_OTP, VERIFY_SECONDARY_OTP".
pub const UPDATE_EMAIL_ACTIONS: [&str; 2] = ["VERIFY_PRIMARY_OTP", "VERIFY_SECONDARY_OTP"];

/// The requests the frame answers (behaviour 5.15), each answered `<type>_SUCCESS` or `<type>_ERROR`.
pub const REQUEST_TYPES: [&str; 18] = [
    "CONNECT_EMAIL",
    "CONNECT_DEVICE",
    "CONNECT_OTP",
    "CONNECT_SOCIAL",
    "GET_SOCIAL_REDIRECT_URI",
    "GET_USER",
    "SIGN_OUT",
    "IS_CONNECTED",
    "GET_CHAIN_ID",
    "SWITCH_NETWORK",
    "SYNC_THEME",
    "SYNC_DAPP_DATA",
    "RELOAD",
    "UPDATE_EMAIL",
    "UPDATE_EMAIL_PRIMARY_OTP",
    "UPDATE_EMAIL_SECONDARY_OTP",
    "RPC_REQUEST",
    // The host closed ApproveTransaction: the open approval is rejected (behaviour 5.19).
    "RPC_ABORT",
];

/// Longest JSON-RPC method name in an `RPC_REQUEST` (the longest known one is 38 bytes).
pub const MAX_METHOD_BYTES: usize = 64;

/// A checked request.
#[derive(Debug, Clone, PartialEq)]
pub struct FrameRequest {
    /// The caller's id, echoed in the answer.
    pub id: String,
    /// One of [`REQUEST_TYPES`].
    pub kind: &'static str,
    /// The payload, normalized (an object, possibly empty).
    pub payload: Value,
}

impl FrameRequest {
    /// `{id, type, payload}`, as the frame's façade hands it to JS; [`parse_request`] reads it
    /// back as the same request.
    pub fn to_json(&self) -> Value {
        crate::json!({"id": self.id, "type": self.kind, "payload": self.payload})
    }
}

/// [`parse_request`] on JSON text (what the wasm façade hands over).
pub fn parse_request_json(text: &str) -> SchemaResult<FrameRequest> {
    if text.len() > MAX_REQUEST_BYTES {
        return Err(invalid("payload"));
    }
    let message = Value::parse(text).map_err(|_| invalid("payload"))?;
    parse_request(&message)
}

/// Checks one request from the host page.
pub fn parse_request(message: &Value) -> SchemaResult<FrameRequest> {
    let Some(message) = message.as_object() else {
        return Err(invalid("payload"));
    };
    let id = text_field(message, "id")?;
    let ok_id = id.len() <= MAX_ID_BYTES && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok_id {
        return Err(invalid("id"));
    }
    let kind = text_field(message, "type")?;
    let kind = REQUEST_TYPES
        .iter()
        .copied()
        .find(|t| *t == kind)
        .ok_or_else(|| invalid("type"))?;
    let empty = Object::new();
    let payload = match message.get("payload") {
        None | Some(Value::Null) => &empty,
        Some(Value::Object(payload)) => payload,
        Some(_) => return Err(invalid("payload")),
    };
    let mut out = Object::new();
    match kind {
        "CONNECT_EMAIL" | "UPDATE_EMAIL" => {
            let email = validate_email(text_field(payload, "email")?)?;
            out.insert("email".into(), email.into());
        }
        "CONNECT_OTP" | "UPDATE_EMAIL_PRIMARY_OTP" | "UPDATE_EMAIL_SECONDARY_OTP" => {
            let otp = text_field(payload, "otp")?;
            validate_otp("otp", otp)?;
            out.insert("otp".into(), otp.into());
        }
        "CONNECT_SOCIAL" | "GET_SOCIAL_REDIRECT_URI" => {
            let provider = text_field(payload, "provider")?;
            if !is_social_provider_id(provider) {
                return Err(invalid("provider"));
            }
            out.insert("provider".into(), provider.into());
        }
        "SWITCH_NETWORK" => {
            let chain = payload.get("chainId").ok_or_else(|| required("chainId"))?;
            out.insert("chainId".into(), chain_id(chain)?.into());
        }
        "GET_USER" => {
            if let Some(chain) = payload.get("chainId").filter(|v| !v.is_null()) {
                out.insert("chainId".into(), chain_id(chain)?.into());
            }
            if let Some(kind) = optional_text(payload, "preferredAccountType")? {
                if !matches!(kind, "eoa" | "smartAccount") {
                    return Err(invalid("preferredAccountType"));
                }
                out.insert("preferredAccountType".into(), kind.into());
            }
        }
        "SYNC_THEME" => {
            if let Some(mode) = optional_text(payload, "themeMode")? {
                if !matches!(mode, "light" | "dark") {
                    return Err(invalid("themeMode"));
                }
                out.insert("themeMode".into(), mode.into());
            }
            if let Some(variables) = payload.get("themeVariables").filter(|v| !v.is_null()) {
                out.insert("themeVariables".into(), flat_object("themeVariables", variables)?);
            }
        }
        "SYNC_DAPP_DATA" => {
            for key in ["projectId", "sdkVersion", "sdkType"] {
                if let Some(text) = optional_text(payload, key)? {
                    out.insert(key.into(), text.into());
                }
            }
            if let Some(metadata) = payload.get("metadata").filter(|v| !v.is_null()) {
                out.insert("metadata".into(), flat_object("metadata", metadata)?);
            }
            // The modal's locale, which the frame's approval panel speaks (it falls back to
            // English for one it lacks).
            if let Some(locale) = optional_text(payload, "locale")? {
                if !is_language_tag(locale) {
                    return Err(invalid("locale"));
                }
                out.insert("locale".into(), locale.into());
            }
        }
        "RPC_REQUEST" => {
            // The method's shape only: which methods run is policy::classify_rpc_method's, and
            // the frame answers the others "Requested RPC call is not allowed".
            let method = text_field(payload, "method")?;
            let ok = method.len() <= MAX_METHOD_BYTES && method.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
            if !ok {
                return Err(invalid("method"));
            }
            out.insert("method".into(), method.into());
            let params = match payload.get("params") {
                None | Some(Value::Null) => Value::Array(Vec::new()),
                Some(params @ (Value::Array(_) | Value::Object(_))) => params.clone(),
                Some(_) => return Err(invalid("params")),
            };
            out.insert("params".into(), params);
            // The chain the request is for, when not the frame's current one: a Solana sign
            // method names its Solana network while the host's EVM network stays current.
            if let Some(chain) = payload.get("chainId").filter(|v| !v.is_null()) {
                out.insert("chainId".into(), chain_id(chain)?.into());
            }
        }
        // CONNECT_DEVICE, SIGN_OUT, IS_CONNECTED, GET_CHAIN_ID, RELOAD, RPC_ABORT read nothing.
        _ => {}
    }
    Ok(FrameRequest {
        id: id.to_owned(),
        kind,
        payload: Value::Object(out),
    })
}

/// Whether `action` is a behaviour 5.17 connect action.
pub fn is_connect_action(action: &str) -> bool {
    CONNECT_ACTIONS.contains(&action)
}

/// Whether `action` is a behaviour 5.17 update-email action.
pub fn is_update_email_action(action: &str) -> bool {
    UPDATE_EMAIL_ACTIONS.contains(&action)
}

/// A required non-empty string field.
fn text_field<'a>(object: &'a Object, field: &'static str) -> SchemaResult<&'a str> {
    match object.get(field) {
        None | Some(Value::Null) => Err(required(field)),
        Some(Value::String(text)) if text.is_empty() => Err(required(field)),
        Some(Value::String(text)) => Ok(text),
        Some(_) => Err(invalid(field)),
    }
}

/// An optional string field of at most [`MAX_TEXT_BYTES`].
fn optional_text<'a>(object: &'a Object, field: &'static str) -> SchemaResult<Option<&'a str>> {
    match object.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(text)) if text.len() <= MAX_TEXT_BYTES => Ok(Some(text)),
        Some(_) => Err(invalid(field)),
    }
}

/// A BCP 47 language tag's shape (`en`, `zh-CN`, `pt-BR`): a 2–3 letter language, then up to
/// three subtags of 2–8 letters or digits.
fn is_language_tag(text: &str) -> bool {
    let mut parts = text.split('-');
    let language = parts.next().unwrap_or_default();
    let rest: Vec<&str> = parts.collect();
    (2..=3).contains(&language.len())
        && language.bytes().all(|b| b.is_ascii_alphabetic())
        && rest.len() <= 3
        && rest
            .iter()
            .all(|part| (2..=8).contains(&part.len()) && part.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// A chain as CAIP-2: `eip155:<decimal>` or `solana:<base58 reference>`, or a bare
/// positive EVM chain id (number or decimal text), answered as `eip155:<id>`.
fn chain_id(value: &Value) -> SchemaResult<String> {
    let field = "chainId";
    let evm = |digits: &str| -> SchemaResult<String> {
        let ok = !digits.is_empty() && digits.len() <= 16 && digits.bytes().all(|b| b.is_ascii_digit());
        match digits.parse::<u64>() {
            Ok(id) if ok && id > 0 && id <= (1u64 << 53) => Ok(format!("eip155:{id}")),
            _ => Err(invalid(field)),
        }
    };
    match value {
        Value::Number(n) => evm(&n.as_u64().map(|n| n.to_string()).unwrap_or_default()),
        Value::String(text) if text.is_empty() => Err(required(field)),
        Value::String(text) => match text.split_once(':') {
            None => evm(text),
            Some(("eip155", reference)) => evm(reference),
            Some(("solana", reference)) => {
                let base58 = |b: u8| b.is_ascii_alphanumeric() && !matches!(b, b'0' | b'O' | b'I' | b'l');
                if (1..=32).contains(&reference.len()) && reference.bytes().all(base58) {
                    Ok(text.clone())
                } else {
                    Err(invalid(field))
                }
            }
            Some(_) => Err(invalid(field)),
        },
        _ => Err(invalid(field)),
    }
}

/// An object of at most [`MAX_ENTRIES`] string, number or boolean values, strings and
/// keys at most [`MAX_TEXT_BYTES`] (theme variables, dapp metadata; `icons` may be a list
/// of strings).
fn flat_object(field: &'static str, value: &Value) -> SchemaResult<Value> {
    let Some(object) = value.as_object() else {
        return Err(invalid(field));
    };
    if object.len() > MAX_ENTRIES {
        return Err(invalid(field));
    }
    let short = |v: &Value| match v {
        Value::String(s) => s.len() <= MAX_TEXT_BYTES,
        Value::Number(_) | Value::Bool(_) => true,
        _ => false,
    };
    for (key, value) in object {
        let ok = key.len() <= MAX_TEXT_BYTES
            && match value {
                Value::Array(items) => {
                    items.len() <= MAX_ENTRIES && items.iter().all(Value::is_string) && items.iter().all(short)
                }
                other => short(other),
            };
        if !ok {
            return Err(invalid(field));
        }
    }
    Ok(value.clone())
}

/// The error a refused request is answered with (`<type>_ERROR`'s message): `field: message`.
pub fn refusal_message(error: &SchemaError) -> String {
    error.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json;
    use proptest::prelude::*;

    fn parse(message: Value) -> SchemaResult<FrameRequest> {
        parse_request(&message)
    }

    fn refused(message: Value) -> (&'static str, &'static str) {
        let error = parse(message).unwrap_err();
        (error.field, error.message)
    }

    #[test]
    fn connect_requests() {
        let request =
            parse(json!({"id": "a1", "type": "CONNECT_EMAIL", "payload": {"email": " Bob@Example.COM ", "extra": 1}}))
                .unwrap();
        assert_eq!(
            request.to_json(),
            json!({"id": "a1", "type": "CONNECT_EMAIL", "payload": {"email": "Bob@example.com"}})
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_EMAIL", "payload": {}})),
            ("email", "Required")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_EMAIL", "payload": {"email": ""}})),
            ("email", "Required")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_EMAIL", "payload": {"email": "nope"}})),
            ("email", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_EMAIL", "payload": {"email": 7}})),
            ("email", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_EMAIL"})),
            ("email", "Required")
        );
        let otp = parse(json!({"id": "b", "type": "CONNECT_OTP", "payload": {"otp": "012345"}})).unwrap();
        assert_eq!(otp.payload, json!({"otp": "012345"}));
        assert_eq!(
            refused(json!({"id": "a", "type": "CONNECT_OTP", "payload": {"otp": "12ab56"}})),
            ("otp", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "UPDATE_EMAIL_SECONDARY_OTP", "payload": {}})),
            ("otp", "Required")
        );
        for provider in SOCIAL_PROVIDERS {
            let request =
                parse(json!({"id": "s", "type": "GET_SOCIAL_REDIRECT_URI", "payload": {"provider": provider}}))
                    .unwrap();
            assert_eq!(request.payload["provider"], provider);
        }
        // An operator's own OpenID Connect id passes the schema; the frame then checks it is configured.
        let own = parse(json!({"id": "s", "type": "CONNECT_SOCIAL", "payload": {"provider": "acme-sso"}})).unwrap();
        assert_eq!(own.payload["provider"], "acme-sso");
        for provider in ["Google", "a/b", "social provider", &"x".repeat(MAX_SOCIAL_ID_BYTES + 1)] {
            assert_eq!(
                refused(json!({"id": "s", "type": "CONNECT_SOCIAL", "payload": {"provider": provider}})),
                ("provider", "Invalid input")
            );
        }
    }

    #[test]
    fn envelope_rules() {
        assert_eq!(refused(json!([])), ("payload", "Invalid input"));
        assert_eq!(refused(json!({"type": "SIGN_OUT"})), ("id", "Required"));
        assert_eq!(refused(json!({"id": 5, "type": "SIGN_OUT"})), ("id", "Invalid input"));
        assert_eq!(
            refused(json!({"id": "a b", "type": "SIGN_OUT"})),
            ("id", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "x".repeat(65), "type": "SIGN_OUT"})),
            ("id", "Invalid input")
        );
        assert_eq!(refused(json!({"id": "a"})), ("type", "Required"));
        assert_eq!(
            refused(json!({"id": "a", "type": "RPC_SUBSCRIBE"})),
            ("type", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "a", "type": "SIGN_OUT", "payload": "x"})),
            ("payload", "Invalid input")
        );
        for kind in [
            "SIGN_OUT",
            "IS_CONNECTED",
            "GET_CHAIN_ID",
            "RELOAD",
            "CONNECT_DEVICE",
            "RPC_ABORT",
        ] {
            let request = parse(json!({"id": "a", "type": kind, "payload": {"anything": [1]}})).unwrap();
            assert_eq!(request.payload, json!({}), "{kind}");
        }
        assert!(parse_request_json(&"x".repeat(MAX_REQUEST_BYTES + 1)).is_err());
        assert_eq!(parse_request_json("{").unwrap_err().message, "Invalid input");
    }

    #[test]
    fn networks_themes_and_dapp_data() {
        let switch = |chain: Value| parse(json!({"id": "n", "type": "SWITCH_NETWORK", "payload": {"chainId": chain}}));
        assert_eq!(switch(json!(1)).unwrap().payload, json!({"chainId": "eip155:1"}));
        assert_eq!(
            switch(json!("31337")).unwrap().payload,
            json!({"chainId": "eip155:31337"})
        );
        assert_eq!(
            switch(json!("eip155:8453")).unwrap().payload,
            json!({"chainId": "eip155:8453"})
        );
        let solana = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";
        assert_eq!(switch(json!(solana)).unwrap().payload, json!({"chainId": solana}));
        for bad in [
            json!(0),
            json!(-1),
            Value::parse("1.5").unwrap(),
            json!("eip155:"),
            json!("eip155:0x1"),
            json!("cosmos:hub"),
            json!("solana:0OIl"),
            json!(true),
            json!(9_007_199_254_740_993u64),
        ] {
            assert_eq!(switch(bad.clone()).unwrap_err().message, "Invalid input", "{bad}");
        }
        assert_eq!(
            refused(json!({"id": "n", "type": "SWITCH_NETWORK", "payload": {}})),
            ("chainId", "Required")
        );
        let user =
            parse(json!({"id": "u", "type": "GET_USER", "payload": {"chainId": 1, "preferredAccountType": "eoa"}}))
                .unwrap();
        assert_eq!(
            user.payload,
            json!({"chainId": "eip155:1", "preferredAccountType": "eoa"})
        );
        assert_eq!(
            refused(json!({"id": "u", "type": "GET_USER", "payload": {"preferredAccountType": "payment"}})),
            ("preferredAccountType", "Invalid input")
        );
        let theme = parse(json!({"id": "t", "type": "SYNC_THEME", "payload": {"themeMode": "light", "themeVariables": {"--latch-accent": "#f00"}}})).unwrap();
        assert_eq!(theme.payload["themeMode"], "light");
        assert_eq!(
            refused(json!({"id": "t", "type": "SYNC_THEME", "payload": {"themeMode": "blue"}})),
            ("themeMode", "Invalid input")
        );
        assert_eq!(
            refused(json!({"id": "t", "type": "SYNC_THEME", "payload": {"themeVariables": {"a": {"nested": 1}}}})),
            ("themeVariables", "Invalid input")
        );
        let dapp = parse(json!({"id": "d", "type": "SYNC_DAPP_DATA", "payload": {"sdkVersion": "1.0", "metadata": {"name": "Shop", "icons": ["https://shop.example/i.png"]}}})).unwrap();
        assert_eq!(dapp.payload["metadata"]["name"], "Shop");
        assert_eq!(
            refused(json!({"id": "d", "type": "SYNC_DAPP_DATA", "payload": {"sdkType": 3}})),
            ("sdkType", "Invalid input")
        );
        for locale in ["en", "zh-CN", "pt-BR", "de"] {
            let dapp = parse(json!({"id": "d", "type": "SYNC_DAPP_DATA", "payload": {"locale": locale}})).unwrap();
            assert_eq!(dapp.payload["locale"], locale);
        }
        for locale in [
            json!("e"),
            json!("english"),
            json!("en_US"),
            json!("en-"),
            json!("<b>"),
            json!(7),
        ] {
            assert_eq!(
                refused(json!({"id": "d", "type": "SYNC_DAPP_DATA", "payload": {"locale": locale}})),
                ("locale", "Invalid input"),
                "{locale}"
            );
        }
    }

    #[test]
    fn rpc_requests() {
        let rpc = |payload: Value| parse(json!({"id": "r", "type": "RPC_REQUEST", "payload": payload}));
        let request = rpc(json!({"method": "personal_sign", "params": ["0x68", "0xab"], "extra": 1})).unwrap();
        assert_eq!(
            request.payload,
            json!({"method": "personal_sign", "params": ["0x68", "0xab"]})
        );
        assert_eq!(
            rpc(json!({"method": "eth_blockNumber"})).unwrap().payload,
            json!({"method": "eth_blockNumber", "params": []})
        );
        assert_eq!(
            rpc(json!({"method": "x", "params": {"a": 1}})).unwrap().payload["params"],
            json!({"a": 1})
        );
        assert_eq!(
            refused(json!({"id": "r", "type": "RPC_REQUEST", "payload": {}})),
            ("method", "Required")
        );
        for bad in [
            json!("eth call"),
            json!("a".repeat(MAX_METHOD_BYTES + 1)),
            json!(5),
            json!("eth_call;"),
        ] {
            assert_eq!(rpc(json!({"method": bad})).unwrap_err(), invalid("method"));
        }
        assert_eq!(
            rpc(json!({"method": "eth_call", "params": "0x"})).unwrap_err(),
            invalid("params")
        );
        let devnet = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1";
        let solana =
            rpc(json!({"method": "solana_signMessage", "params": {"message": "2"}, "chainId": devnet})).unwrap();
        assert_eq!(solana.payload["chainId"], json!(devnet));
        assert_eq!(
            rpc(json!({"method": "x", "chainId": 1})).unwrap().payload["chainId"],
            json!("eip155:1")
        );
        assert_eq!(
            rpc(json!({"method": "x", "chainId": "cosmos:hub"})).unwrap_err(),
            invalid("chainId")
        );
    }

    #[test]
    fn actions() {
        assert!(CONNECT_ACTIONS.iter().all(|a| is_connect_action(a)));
        assert!(!is_connect_action("VERIFY_PRIMARY_OTP"));
        assert!(UPDATE_EMAIL_ACTIONS.iter().all(|a| is_update_email_action(a)));
        assert!(!is_update_email_action("CONNECT"));
        assert_eq!(refusal_message(&invalid("email")), "email: Invalid input");
    }

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            "\\PC{0,40}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 24, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-zA-Z]{1,12}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #[test]
        fn never_panics_and_is_idempotent(
            kind in prop::sample::select(REQUEST_TYPES.to_vec()),
            id in "[a-zA-Z0-9_-]{0,70}",
            payload in json_value(),
        ) {
            let message = json!({"id": id, "type": kind, "payload": payload});
            if let Ok(request) = parse(message) {
                // A normalized request is accepted again as it is.
                let again = parse(request.to_json()).unwrap();
                prop_assert_eq!(again, request);
            }
        }

        #[test]
        fn arbitrary_text_never_panics(text in "\\PC{0,200}") {
            let _ = parse_request_json(&text);
        }

        #[test]
        fn good_emails_and_codes_pass(local in "[a-z0-9]{1,20}", domain in "[a-z0-9]{1,20}\\.[a-z]{2,6}", otp in "[0-9]{6}") {
            let email = format!("{local}@{domain}");
            let request = parse(json!({"id": "r", "type": "CONNECT_EMAIL", "payload": {"email": email}})).unwrap();
            prop_assert_eq!(&request.payload["email"], &Value::String(email));
            let request = parse(json!({"id": "r", "type": "CONNECT_OTP", "payload": {"otp": otp}})).unwrap();
            prop_assert_eq!(&request.payload["otp"], &Value::String(otp));
        }
    }
}
