use super::*;
use proptest::prelude::*;

const ANVIL_0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const SOLANA_MAINNET: &str = "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp";

fn siwe() -> SiweMessage {
    SiweMessage {
        scheme: None,
        domain: "example.com".into(),
        address: ANVIL_0.into(),
        statement: Some("Sign in to Latch".into()),
        uri: "https://example.com/login".into(),
        version: "1".into(),
        chain_id: 1,
        nonce: "abcdef1234567890".into(),
        issued_at: "2024-01-01T00:00:00.000Z".into(),
        expiration_time: Some("2024-01-02T00:00:00.000Z".into()),
        not_before: None,
        request_id: None,
        resources: Some(vec!["https://example.com/terms".into()]),
    }
}

// Written by viem's createSiweMessage with the same fields as `siwe()`.
const VIEM_TEXT: &str = "example.com wants you to sign in with your Ethereum account:
0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266

Sign in to Latch

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: abcdef1234567890
Issued At: 2024-01-01T00:00:00.000Z
Expiration Time: 2024-01-02T00:00:00.000Z
Resources:
- https://example.com/terms";

#[test]
fn builds_what_viem_builds() {
    assert_eq!(siwe().build().unwrap(), VIEM_TEXT);
    assert_eq!(SiweMessage::parse(VIEM_TEXT).unwrap(), siwe());
}

#[test]
fn no_statement_leaves_two_blank_lines() {
    // EIP-4361 ABNF: address LF LF [ statement LF ] LF "URI: …"; viem writes
    // this text for no statement and `resources: []`.
    let text = "example.com wants you to sign in with your Ethereum account:
0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266


URI: https://example.com
Version: 1
Chain ID: 31337
Nonce: abcdefgh
Issued At: 2024-01-01T00:00:00.000Z
Resources:";
    let message = SiweMessage::parse(text).unwrap();
    assert_eq!(message.statement, None);
    assert_eq!(message.chain_id, 31337);
    assert_eq!(message.resources, Some(vec![]));
    assert_eq!(message.build().unwrap(), text);
}

#[test]
fn eip_4361_examples() {
    // The three examples of EIP-4361: implicit scheme, explicit port, explicit scheme.
    let body = "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2

I accept the ExampleOrg Terms of Service: https://example.com/tos

URI: https://example.com/login
Version: 1
Chain ID: 1
Nonce: 32891756
Issued At: 2021-09-30T16:25:24Z
Resources:
- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/
- https://example.com/my-web2-claim.json";
    for (origin, scheme, domain) in [
        ("example.com", None, "example.com"),
        ("example.com:3388", None, "example.com:3388"),
        ("https://example.com", Some("https"), "example.com"),
    ] {
        let text = format!("{origin} wants you to sign in with your Ethereum account:\n{body}");
        let message = SiweMessage::parse(&text).unwrap();
        assert_eq!(message.scheme.as_deref(), scheme);
        assert_eq!(message.domain, domain);
        assert_eq!(message.resources.as_ref().map(Vec::len), Some(2));
        assert_eq!(message.build().unwrap(), text);
    }
}

#[test]
fn solana_messages() {
    // CAIP-122 data model with EIP-4361's line order; the Chain ID line holds
    // the CAIP-2 reference and the header names the namespace.
    let text = "https://service.org wants you to sign in with your Solana account:
GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1

I accept the ServiceOrg Terms of Service: https://service.org/tos

URI: https://service.org/login
Version: 1
Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp
Nonce: 32891757
Issued At: 2021-09-30T16:25:24.000Z
Not Before: 2021-09-30T16:25:24.000Z
Request ID: req-1
Resources:
- ipfs://Qme7ss3ARVgxv6rXqVPiikMJ8u2NLgmgszg13pYrDKEoiu";
    let message = SiwxMessage::parse(text).unwrap();
    assert_eq!(message.chain_id, SOLANA_MAINNET);
    assert_eq!(message.address, "GwAF45zjfyGzUbd3i3hXxzGeuchzEZXwpRYHZM5912F1");
    assert_eq!(message.request_id.as_deref(), Some("req-1"));
    assert_eq!(message.build().unwrap(), text);
    // The EIP-4361 view refuses it, and the generic view reads Ethereum too.
    assert_eq!(
        SiweMessage::parse(text).unwrap_err().to_string(),
        "Invalid sign-in message: not a Sign-In with Ethereum message: the account is not an Ethereum one"
    );
    assert_eq!(SiwxMessage::parse(VIEM_TEXT).unwrap().chain_id, "eip155:1");
    // SIWS-style named references are CAIP-2 references too.
    let named = text.replace("5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "mainnet");
    assert_eq!(SiwxMessage::parse(&named).unwrap().chain_id, "solana:mainnet");
}

fn refused(text: &str) -> String {
    SiwxMessage::parse(text).unwrap_err().to_string()
}

#[test]
fn parse_refusals() {
    let cases = [
        ("", "the first line must be `<domain> wants you to sign in with your <chain> account:`"),
        ("example.com wants you to sign in with your Cosmos account:", "no sign-in format for \"Cosmos\" accounts; expected Ethereum or Solana"),
        ("example.com wants you to sign in with your Ethereum account:", "the message ends before the address"),
        (&VIEM_TEXT.replace("\n\nSign in", "\nSign in"), "expected a blank line, found \"Sign in to Latch\""),
        (&VIEM_TEXT.replace("Latch\n\nURI", "Latch\nURI"), "expected a blank line, found \"URI: https://example.com/login\""),
        (&VIEM_TEXT.replace("Version: 1", "Version: 2"), "Version must be 1"),
        (&VIEM_TEXT.replace("Version: 1", "version: 1"), "expected `Version: …`, found \"version: 1\""),
        (&VIEM_TEXT.replace("Chain ID: 1", "Chain ID: 01"), "Chain ID must be an EIP-155 chain id: decimal, no leading zero, below 2^64"),
        (&VIEM_TEXT.replace("Chain ID: 1", "Chain ID: 0x1"), "Chain ID must be an EIP-155 chain id: decimal, no leading zero, below 2^64"),
        (&VIEM_TEXT.replace("Chain ID: 1", "Chain ID: 18446744073709551616"), "Chain ID must be an EIP-155 chain id: decimal, no leading zero, below 2^64"),
        (&VIEM_TEXT.replace("Nonce: abcdef1234567890", "Nonce: abc"), "Nonce must be at least 8 letters or digits"),
        (&VIEM_TEXT.replace("Nonce: abcdef1234567890", "Nonce: abcdef12-4567890"), "Nonce must be at least 8 letters or digits"),
        (&VIEM_TEXT.replace(ANVIL_0, &ANVIL_0.to_lowercase()), "address must be an EIP-55 checksummed Ethereum address"),
        (&VIEM_TEXT.replace("2024-01-02T00:00:00.000Z", "tomorrow"), "Expiration Time must be an RFC 3339 date-time"),
        (&VIEM_TEXT.replace("Issued At: 2024-01-01T00:00:00.000Z", "Issued At: 2024-01-01"), "Issued At must be an RFC 3339 date-time"),
        (&format!("{VIEM_TEXT}\n"), "expected `- <uri>` in Resources, found \"\""),
        (&VIEM_TEXT.replace("\nResources:\n- https://example.com/terms", "\n"), "unexpected line \"\""),
        // Optional lines out of order.
        (
            &VIEM_TEXT.replace("Expiration Time: 2024-01-02T00:00:00.000Z", "Request ID: 1\nExpiration Time: 2024-01-02T00:00:00.000Z"),
            "unexpected line \"Expiration Time: 2024-01-02T00:00:00.000Z\"",
        ),
        (&VIEM_TEXT.replace("example.com wants", "exa mple.com wants"), "domain must be an RFC 3986 authority (host and optional port)"),
        (&VIEM_TEXT.replace("example.com wants", "1https://example.com wants"), "scheme must be an RFC 3986 scheme"),
        (&VIEM_TEXT.replace("URI: https://example.com/login", "URI: example.com/login"), "URI must be an RFC 3986 URI"),
        (&VIEM_TEXT.replace("- https://example.com/terms", "- https://example.com/a b"), "each resource must be an RFC 3986 URI"),
        (&VIEM_TEXT.replace("Sign in to Latch", "Sign in to Latch ✓"), "statement must be one non-empty line of letters, digits, spaces and RFC 3986 reserved or unreserved characters"),
        (&VIEM_TEXT.replace("Sign in to Latch", "Sign in\r"), "statement must be one non-empty line of letters, digits, spaces and RFC 3986 reserved or unreserved characters"),
        (&VIEM_TEXT.replace("\n", "\r\n"), "the first line must be `<domain> wants you to sign in with your <chain> account:`"),
    ];
    for (text, reason) in cases {
        assert_eq!(refused(text), format!("Invalid sign-in message: {reason}"), "{text}");
    }
}

/// Makes one field of a valid message invalid.
type Spoil = fn(&mut SiweMessage);

#[test]
fn build_refusals() {
    let cases: [(Spoil, &str); 5] = [
        (|m| m.statement = Some(String::new()), "statement must be one non-empty line of letters, digits, spaces and RFC 3986 reserved or unreserved characters"),
        (|m| m.statement = Some("two\nlines".into()), "statement must be one non-empty line of letters, digits, spaces and RFC 3986 reserved or unreserved characters"),
        (|m| m.domain = "example.com\nURI: https://evil.example".into(), "domain must be an RFC 3986 authority (host and optional port)"),
        (|m| m.request_id = Some("a b".into()), "Request ID may only hold RFC 3986 path characters"),
        (|m| m.uri = "https://example.com/\nVersion: 1".into(), "URI must be an RFC 3986 URI"),
    ];
    for (spoil, reason) in cases {
        let mut message = siwe();
        spoil(&mut message);
        assert_eq!(
            message.build().unwrap_err().to_string(),
            format!("Invalid sign-in message: {reason}")
        );
    }
    let mut cosmos = SiwxMessage::parse(VIEM_TEXT).unwrap();
    cosmos.chain_id = "cosmos:cosmoshub-4".into();
    assert_eq!(
        cosmos.build().unwrap_err().to_string(),
        "Invalid sign-in message: no sign-in format for namespace \"cosmos\""
    );
    cosmos.chain_id = "solana".into();
    assert_eq!(
        cosmos.build().unwrap_err().to_string(),
        "Invalid sign-in message: chainId must be a CAIP-2 network id"
    );
    cosmos.chain_id = SOLANA_MAINNET.into();
    assert_eq!(
        cosmos.build().unwrap_err().to_string(),
        "Invalid sign-in message: address must be a base58 Solana address"
    );
}

#[test]
fn rfc_3986_shapes() {
    for authority in [
        "example.com",
        "localhost:3000",
        "127.0.0.1",
        "[::1]:8080",
        "user:pw@example.com",
        "xn--bcher-kva.example",
    ] {
        assert!(is_authority(authority), "{authority}");
    }
    for authority in [
        "",
        ":80",
        "example.com:",
        "example.com:123456",
        "[::1",
        "[]",
        "exa mple.com",
        "a@b@c",
        "example.com/path",
    ] {
        assert!(!is_authority(authority), "{authority}");
    }
    for uri in [
        "https://example.com",
        "https://example.com/a?b=c#d",
        "urn:isbn:0451450523",
        "file:///etc/hosts",
        "did:pkh:eip155:1:0xabc",
        "https://example.com/%20",
    ] {
        assert!(is_uri(uri), "{uri}");
    }
    for uri in [
        "",
        "example.com",
        "://example.com",
        "https://exa mple.com",
        "https://example.com/%2",
        "https://example.com/<>",
        "https://ex:ample:com/",
    ] {
        assert!(!is_uri(uri), "{uri}");
    }
}

#[test]
fn time_window() {
    // behaviour 4.8 "Session Expired": expired from the expiration time on; not yet
    // valid before the not-before time.
    let mut message = siwe();
    message.not_before = Some("2024-01-01T12:00:00Z".into());
    let noon = 1_704_110_400_000;
    let next_day = 1_704_153_600_000;
    assert_eq!(message.check_times(noon), Ok(()));
    assert_eq!(message.check_times(next_day - 1), Ok(()));
    assert_eq!(
        message.check_times(next_day).unwrap_err().to_string(),
        "Session Expired"
    );
    assert_eq!(message.check_times(next_day).unwrap_err().code(), "SIGN_IN_EXPIRED");
    assert_eq!(
        message.check_times(noon - 1).unwrap_err().to_string(),
        "Session not yet valid: check the clock and reconnect"
    );
    message.expiration_time = None;
    message.not_before = None;
    assert_eq!(message.check_times(i64::MIN), Ok(()));
    message.not_before = Some("soon".into());
    assert_eq!(
        message.check_times(0).unwrap_err().to_string(),
        "Invalid sign-in message: Not Before must be an RFC 3339 date-time"
    );
}

#[test]
fn serde_shape() {
    let json = serde_json::to_value(siwe()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({
            "domain": "example.com",
            "address": ANVIL_0,
            "statement": "Sign in to Latch",
            "uri": "https://example.com/login",
            "version": "1",
            "chainId": 1,
            "nonce": "abcdef1234567890",
            "issuedAt": "2024-01-01T00:00:00.000Z",
            "expirationTime": "2024-01-02T00:00:00.000Z",
            "resources": ["https://example.com/terms"],
        })
    );
    assert_eq!(serde_json::from_value::<SiweMessage>(json).unwrap(), siwe());
    // A misspelt field is an error rather than a silently missing line.
    let typo = serde_json::json!({"domain": "example.com", "expirationtime": "x"});
    assert!(serde_json::from_value::<SiweMessage>(typo).is_err());
}

// Strategies for valid messages of either namespace.

fn rfc3339() -> impl Strategy<Value = String> {
    (
        0u32..=9999,
        1u32..=12,
        1u32..=28,
        0u32..24,
        0u32..60,
        0u32..=60,
        prop::option::of("[0-9]{1,6}"),
        prop_oneof![Just("Z".to_owned()), "[+-](0[0-9]|1[0-9]|2[0-3]):[0-5][0-9]"],
    )
        .prop_map(|(y, mo, d, h, mi, s, fraction, offset)| {
            let fraction = fraction.map(|f| format!(".{f}")).unwrap_or_default();
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{fraction}{offset}")
        })
}

fn uri() -> impl Strategy<Value = String> {
    "(https|ipfs|urn)://[a-z0-9.-]{1,12}(:[0-9]{1,5})?(/[a-zA-Z0-9._~!$&'()*+,;=:@%/-]{0,12})?(\\?[a-z=&]{0,8})?(#[a-z]{0,4})?"
        .prop_filter("percent signs must start escapes", |u| is_uri(u))
}

fn message<C: std::fmt::Debug + Clone>(
    chain: impl Strategy<Value = C>,
    address: impl Strategy<Value = String>,
) -> impl Strategy<Value = SignInMessage<C>> {
    let head = (
        prop::option::of("[a-z][a-z0-9+.-]{0,6}"),
        "[a-z0-9-]{1,12}(\\.[a-z]{2,6})?(:[0-9]{1,5})?",
        address,
        prop::option::of("[a-zA-Z0-9 .,:;!?'()*+=/@#$&~_-]{1,40}"),
        uri(),
        chain,
    );
    let tail = (
        "[a-zA-Z0-9]{8,20}",
        rfc3339(),
        prop::option::of(rfc3339()),
        prop::option::of(rfc3339()),
        prop::option::of("[a-zA-Z0-9:@._~-]{0,12}"),
        prop::option::of(prop::collection::vec(uri(), 0..3)),
    );
    (head, tail).prop_map(
        |(
            (scheme, domain, address, statement, uri, chain_id),
            (nonce, issued_at, expiration_time, not_before, request_id, resources),
        )| SignInMessage {
            scheme,
            domain,
            address,
            statement,
            uri,
            version: "1".into(),
            chain_id,
            nonce,
            issued_at,
            expiration_time,
            not_before,
            request_id,
            resources,
        },
    )
}

fn evm_address() -> impl Strategy<Value = String> {
    proptest::array::uniform20(any::<u8>()).prop_map(|bytes| alloy_primitives::Address::from(bytes).to_checksum(None))
}

fn solana_address() -> impl Strategy<Value = String> {
    proptest::array::uniform32(any::<u8>()).prop_map(|bytes| bs58::encode(bytes).into_string())
}

proptest! {
    #[test]
    fn siwe_round_trip(message in message(any::<u64>(), evm_address())) {
        let text = message.build().unwrap();
        prop_assert_eq!(SiweMessage::parse(&text).unwrap(), message);
    }

    #[test]
    fn siwx_round_trip(message in message(
        prop_oneof![
            any::<u64>().prop_map(|id| format!("eip155:{id}")),
            "[-_a-zA-Z0-9]{1,32}".prop_map(|reference| format!("solana:{reference}")),
        ],
        solana_address(),
    ).prop_map(|mut m| {
        // Ethereum chains need an Ethereum address.
        if m.chain_id.starts_with("eip155:") {
            m.address = ANVIL_0.into();
        }
        m
    })) {
        let text = message.build().unwrap();
        prop_assert_eq!(SiwxMessage::parse(&text).unwrap(), message);
    }

    #[test]
    fn valid_text_round_trips(text in "\\PC*") {
        // Arbitrary text never panics, and whatever parses builds back to itself.
        if let Ok(message) = SiwxMessage::parse(&text) {
            prop_assert_eq!(message.build().unwrap(), text.clone());
        }
        if let Ok(message) = SiweMessage::parse(&text) {
            prop_assert_eq!(message.build().unwrap(), text);
        }
    }

    #[test]
    fn edited_valid_text_round_trips_or_is_refused(
        message in message(any::<u64>(), evm_address()),
        at in any::<prop::sample::Index>(),
        insert in "[\\n a-zA-Z0-9:/.-]{0,3}",
        delete in 0usize..4,
    ) {
        // Small edits of a valid text hit the grammar's edges far more often
        // than random text does.
        let text = message.build().unwrap();
        let start = at.index(text.len());
        let end = (start + delete).min(text.len());
        let edited = format!("{}{insert}{}", &text[..start], &text[end..]);
        if let Ok(parsed) = SiweMessage::parse(&edited) {
            prop_assert_eq!(parsed.build().unwrap(), edited);
        }
    }
}

#[test]
fn issued_at_window() {
    let message = siwe();
    let issued = rfc3339_unix_ms(&message.issued_at).unwrap();
    let window = 10 * 60 * 1000;
    assert_eq!(message.check_issued_at(issued, window), Ok(()));
    assert_eq!(message.check_issued_at(issued + window, window), Ok(()));
    assert_eq!(message.check_issued_at(issued - window, window), Ok(()));
    let late = message.check_issued_at(issued + window + 1, window).unwrap_err();
    assert_eq!(late.code(), "SIGN_IN_ISSUED_AT");
    assert!(late.to_string().contains("check the clock"), "{late}");
    assert_eq!(
        message.check_issued_at(issued - window - 1, window).unwrap_err().code(),
        "SIGN_IN_ISSUED_AT",
        "made in the future"
    );
    // Extreme clocks neither overflow nor pass.
    assert!(message.check_issued_at(i64::MIN, window).is_err());
    assert!(message.check_issued_at(i64::MAX, window).is_err());
}

#[test]
fn uri_origin() {
    let mut message = siwe();
    message.domain = "app.example.com".into();
    message.uri = "https://app.example.com/login?x=1".into();
    assert_eq!(message.check_uri_origin(), Ok(()));
    message.uri = "https://APP.example.com".into();
    assert_eq!(message.check_uri_origin(), Ok(()));
    for foreign in [
        "https://evil.example/login",
        "https://app.example.com.evil.example/",
        "https://app.example.com:444/",
        "https://user@app.example.com/",
        "urn:app.example.com",
        "app.example.com",
    ] {
        message.uri = foreign.into();
        assert_eq!(
            message.check_uri_origin().unwrap_err().code(),
            "SIGN_IN_URI_MISMATCH",
            "{foreign}"
        );
    }
    message.uri = "http://app.example.com/".into();
    assert_eq!(message.check_uri_origin(), Ok(()), "no scheme in the header: any");
    message.scheme = Some("https".into());
    assert!(
        message.check_uri_origin().is_err(),
        "the header's scheme binds the URI's"
    );
}

#[test]
fn domains_allowed_by_origin_patterns() {
    let patterns = ["https://app.example.com", "http://127.0.0.1:*", "https://*.example.org"];
    assert!(domain_allowed(&patterns, "app.example.com"));
    assert!(domain_allowed(&patterns, "127.0.0.1:5173"));
    assert!(domain_allowed(&patterns, "a.example.org"));
    assert!(!domain_allowed(&patterns, "example.org"));
    assert!(!domain_allowed(&patterns, "evil.example"));
    assert!(!domain_allowed(&patterns, "app.example.com:444"));
    assert!(!domain_allowed::<&str>(&[], "app.example.com"), "no patterns: nothing");
    assert!(domain_allowed(&["*"], "anything.example"));
}

proptest! {
    #[test]
    fn issued_at_window_never_panics(now in any::<i64>(), window in any::<i64>()) {
        let message = siwe();
        let issued = rfc3339_unix_ms(&message.issued_at).unwrap();
        let result = message.check_issued_at(now, window);
        prop_assert_eq!(result.is_ok(), (i128::from(issued) - i128::from(now)).abs() <= i128::from(window).abs());
    }

    #[test]
    fn uri_origin_and_domains_never_panic(uri in "\\PC*", domain in "\\PC*") {
        let mut message = siwe();
        message.uri = uri;
        message.domain = domain.clone();
        let _ = message.check_uri_origin();
        let _ = domain_allowed(&["https://*.example.com"], &domain);
    }
}
