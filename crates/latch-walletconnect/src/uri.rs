//! Pairing URIs: `wc:{topic}@2?relay-protocol=irn&symKey={hex}&expiryTimestamp={s}`
//! (and optionally `relay-data` and `methods`), formatted in the same order as
//! the official client so a wallet or a QR code sees the usual text.

use std::fmt;
use std::str::FromStr;

use crate::crypto::{parse_hex32, topic_of, SymKey};
use crate::{Error, Result};

/// Longest URI accepted; real ones are ~200 characters.
const MAX_URI_LEN: usize = 4096;

/// A parsed or freshly made pairing URI.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PairingUri {
    /// The pairing topic: sha256 of the sym key, 64 lowercase hex.
    pub topic: String,
    /// Protocol version; only 2 is accepted.
    pub version: u32,
    /// The pairing's symmetric key.
    pub sym_key: SymKey,
    /// `relay-protocol` (`irn`).
    pub relay_protocol: String,
    /// `relay-data`, when the relay needs extra data.
    pub relay_data: Option<String>,
    /// `expiryTimestamp`, unix seconds.
    pub expiry_timestamp: Option<u64>,
    /// `methods`: the pairing methods the dapp will use (rarely sent).
    pub methods: Option<Vec<String>>,
}

impl PairingUri {
    /// A v2 `irn` pairing for `sym_key`, expiring at `expiry` (unix seconds).
    pub fn new(sym_key: SymKey, expiry: u64) -> Self {
        PairingUri {
            topic: topic_of(&sym_key),
            version: 2,
            sym_key,
            relay_protocol: "irn".into(),
            relay_data: None,
            expiry_timestamp: Some(expiry),
            methods: None,
        }
    }
}

impl fmt::Display for PairingUri {
    /// Relay params first (sorted: `relay-data`, `relay-protocol`), then
    /// `symKey`, `expiryTimestamp`, `methods` (comma-joined), URL-encoded.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut query = form_urlencoded::Serializer::new(String::new());
        if let Some(data) = &self.relay_data {
            query.append_pair("relay-data", data);
        }
        query.append_pair("relay-protocol", &self.relay_protocol);
        query.append_pair("symKey", &self.sym_key.to_hex());
        if let Some(expiry) = self.expiry_timestamp {
            query.append_pair("expiryTimestamp", &expiry.to_string());
        }
        if let Some(methods) = &self.methods {
            query.append_pair("methods", &methods.join(","));
        }
        write!(f, "wc:{}@{}?{}", self.topic, self.version, query.finish())
    }
}

impl FromStr for PairingUri {
    type Err = Error;

    /// Accepts `wc:` and `wc://` forms. Requires version 2, a 64-hex topic and
    /// `symKey`, and `relay-protocol`; hex is accepted in either case and kept lowercase.
    fn from_str(text: &str) -> Result<Self> {
        let bad = |why: &str| Error::InvalidUri(why.to_owned());
        if text.len() > MAX_URI_LEN {
            return Err(bad("too long"));
        }
        let rest = text
            .strip_prefix("wc://")
            .or_else(|| text.strip_prefix("wc:"))
            .ok_or_else(|| bad("does not start with wc:"))?;
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        let (topic, version) = path.split_once('@').ok_or_else(|| bad("missing @version"))?;
        let version: u32 = version.parse().map_err(|_| bad("version is not a number"))?;
        if version != 2 {
            return Err(bad("only version 2 is supported"));
        }
        let topic = hex::encode(parse_hex32(topic, "topic")?);
        let (mut sym_key, mut relay_protocol, mut relay_data, mut expiry, mut methods) = (None, None, None, None, None);
        for (key, value) in form_urlencoded::parse(query.as_bytes()) {
            // Later duplicates win, as with URLSearchParams.
            match &*key {
                "symKey" => sym_key = Some(SymKey(parse_hex32(&value, "symKey")?)),
                "relay-protocol" => relay_protocol = Some(value.into_owned()),
                "relay-data" => relay_data = Some(value.into_owned()),
                "expiryTimestamp" => expiry = Some(value.parse().map_err(|_| bad("expiryTimestamp is not a number"))?),
                "methods" => methods = Some(value.split(',').map(str::to_owned).collect()),
                _ => {}
            }
        }
        let relay_protocol = relay_protocol
            .filter(|p| !p.is_empty())
            .ok_or_else(|| bad("missing relay-protocol"))?;
        Ok(PairingUri {
            topic,
            version,
            sym_key: sym_key.ok_or_else(|| bad("missing symKey"))?,
            relay_protocol,
            relay_data,
            expiry_timestamp: expiry,
            methods,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const KEY: &str = "587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303";
    const TOPIC: &str = "7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9";

    #[test]
    fn formats_like_the_official_client() {
        let uri = PairingUri {
            topic: TOPIC.into(),
            ..PairingUri::new(SymKey(parse_hex32(KEY, "symKey").unwrap()), 1_700_000_300)
        };
        assert_eq!(
            uri.to_string(),
            format!("wc:{TOPIC}@2?relay-protocol=irn&symKey={KEY}&expiryTimestamp=1700000300")
        );
        let with_methods = PairingUri {
            methods: Some(vec!["wc_sessionPropose".into(), "wc_sessionAuthenticate".into()]),
            relay_data: Some("a b".into()),
            ..uri.clone()
        };
        let text = with_methods.to_string();
        assert!(text.contains("?relay-data=a+b&relay-protocol=irn&"), "{text}");
        assert!(
            text.ends_with("&methods=wc_sessionPropose%2Cwc_sessionAuthenticate"),
            "{text}"
        );
        assert_eq!(text.parse::<PairingUri>().unwrap(), with_methods);
    }

    #[test]
    fn parses_variants_and_refuses_clearly() {
        let canonical = format!("wc:{TOPIC}@2?relay-protocol=irn&symKey={KEY}");
        let parsed: PairingUri = canonical.parse().unwrap();
        assert_eq!(parsed.expiry_timestamp, None);
        assert_eq!(parsed.topic, TOPIC);
        let android = format!("wc://{}@2?symKey={}&relay-protocol=irn", TOPIC.to_uppercase(), KEY);
        assert_eq!(
            android.parse::<PairingUri>().unwrap(),
            parsed,
            "wc:// and upper-case hex"
        );
        for (text, why) in [
            ("https://example.com".to_owned(), "does not start with wc:"),
            (format!("wc:{TOPIC}?symKey={KEY}"), "missing @version"),
            (
                format!("wc:{TOPIC}@1?relay-protocol=irn&symKey={KEY}"),
                "only version 2",
            ),
            (format!("wc:{TOPIC}@2?relay-protocol=irn"), "missing symKey"),
            (format!("wc:{TOPIC}@2?symKey={KEY}"), "missing relay-protocol"),
            (
                format!("wc:{TOPIC}@2?relay-protocol=irn&symKey={KEY}&expiryTimestamp=soon"),
                "expiryTimestamp",
            ),
        ] {
            let error = text.parse::<PairingUri>().unwrap_err().to_string();
            assert!(error.contains(why), "{text}: {error}");
        }
        assert_eq!(
            format!("wc:abc@2?relay-protocol=irn&symKey={KEY}").parse::<PairingUri>(),
            Err(Error::InvalidHex { what: "topic", len: 64 })
        );
    }

    proptest! {
        #[test]
        fn never_panics(text in ".{0,300}") {
            let _ = text.parse::<PairingUri>();
            let _ = format!("wc:{text}").parse::<PairingUri>();
        }

        #[test]
        fn round_trips(
            key in any::<[u8; 32]>(),
            expiry in proptest::option::of(any::<u64>()),
            data in proptest::option::of("[ -~]{0,20}"),
            methods in proptest::option::of(proptest::collection::vec("[a-zA-Z_]{1,12}", 1..4)),
        ) {
            let uri = PairingUri {
                expiry_timestamp: expiry,
                relay_data: data,
                methods,
                ..PairingUri::new(SymKey(key), 0)
            };
            prop_assert_eq!(uri.to_string().parse::<PairingUri>(), Ok(uri));
        }
    }
}
