use super::*;
use proptest::prelude::*;

fn recovery(byte: u8) -> Share {
    Share::new(ShareKind::Recovery, [byte; 32])
}

const CHEAP: Argon2Cost = Argon2Cost { m: MIN_M, t: 1, p: 1 };

#[test]
fn password_round_trip_and_failures() {
    let share = recovery(7);
    let sealed = Envelope::seal_with_password(&share, "user-1", b"correct horse", CHEAP, [1; 16], [2; 12]).unwrap();
    let text = sealed.to_json();
    assert!(text.len() <= MAX_ENVELOPE_LEN);
    let parsed = Envelope::parse(&text).unwrap();
    assert_eq!(parsed, sealed);
    assert_eq!(parsed.open_with_password("user-1", b"correct horse").unwrap(), share);
    assert_eq!(
        parsed.open_with_password("user-1", b"wrong horse"),
        Err(Error::DecryptionFailed)
    );
    // Bound to the user: another user's id does not open it.
    assert_eq!(
        parsed.open_with_password("user-2", b"correct horse"),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(parsed.open_with_password("user-1", b""), Err(Error::EmptyPassword));
    assert_eq!(
        parsed.open_with_passkey("user-1", &[0; 32]),
        Err(Error::WrongEnvelopeKind)
    );
    let mut tampered = parsed.clone();
    tampered.ciphertext[0] ^= 1;
    assert_eq!(
        tampered.open_with_password("user-1", b"correct horse"),
        Err(Error::DecryptionFailed)
    );
}

#[test]
fn default_cost_is_owasps() {
    assert_eq!(Argon2Cost::default(), Argon2Cost { m: 19_456, t: 2, p: 1 });
    let share = recovery(9);
    let sealed = Envelope::seal_with_password(&share, "u", b"pw", Argon2Cost::default(), [3; 16], [4; 12]).unwrap();
    assert!(sealed.to_json().contains(r#""m":19456,"t":2,"p":1"#));
    assert_eq!(sealed.open_with_password("u", b"pw").unwrap(), share);
}

#[test]
fn passkey_round_trip_and_failures() {
    let share = recovery(5);
    let sealed = Envelope::seal_with_passkey(&share, "user-1", &[9; 32], "AbC-_09", [8; 32], [7; 12]).unwrap();
    let parsed = Envelope::parse(&sealed.to_json()).unwrap();
    assert_eq!(parsed.open_with_passkey("user-1", &[9; 32]).unwrap(), share);
    assert_eq!(
        parsed.open_with_passkey("user-1", &[10; 32]),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(
        parsed.open_with_passkey("user-2", &[9; 32]),
        Err(Error::DecryptionFailed)
    );
    assert_eq!(parsed.open_with_password("user-1", b"x"), Err(Error::WrongEnvelopeKind));
    assert!(Envelope::seal_with_passkey(&share, "u", &[9; 32], "not base64url!", [8; 32], [7; 12]).is_err());
}

#[test]
fn only_the_recovery_share_goes_in() {
    let device = Share::new(ShareKind::Device, [1; 32]);
    assert_eq!(
        Envelope::seal_with_passkey(&device, "u", &[0; 32], "id", [0; 32], [0; 12]),
        Err(Error::WrongShare { expected: 3, found: 1 })
    );
}

/// A hostile server could ask for a cost that hangs the frame: refused before
/// any memory is taken, and quickly.
#[test]
fn absurd_costs_are_refused() {
    let base = Envelope::seal_with_password(&recovery(1), "u", b"pw", CHEAP, [1; 16], [2; 12])
        .unwrap()
        .to_json();
    for (m, t, p) in [
        (4_194_304u64, 1u64, 1u64),
        (MAX_M as u64 + 1, 1, 1),
        (MAX_M as u64, MAX_T as u64, 1),
        (19_456, 1_000_000, 1),
        (19_456, 0, 1),
        (19_456, 2, 0),
        (19_456, 2, 255),
        (8, 1, 1),
        (u64::from(u32::MAX) + 1, 1, 1),
    ] {
        let hostile = base.replacen(
            &format!(r#""m":{},"t":1,"p":1"#, MIN_M),
            &format!(r#""m":{m},"t":{t},"p":{p}"#),
            1,
        );
        assert_ne!(hostile, base);
        let started = std::time::Instant::now();
        assert!(Envelope::parse(&hostile).is_err(), "{m} {t} {p}");
        assert!(started.elapsed().as_millis() < 100);
    }
}

#[test]
fn malformed_envelopes_are_refused() {
    let good = Envelope::seal_with_passkey(&recovery(1), "u", &[0; 32], "id", [0; 32], [0; 12])
        .unwrap()
        .to_json();
    assert!(Envelope::parse(&good).is_ok());
    for bad in [
        String::new(),
        "{}".to_owned(),
        good.replace(r#""v":1"#, r#""v":2"#),
        good.replace("passkey", "password"),
        good.replace(r#""credentialId":"id","#, ""),
        good.replace(r#""v":1,"#, r#""v":1,"extra":1,"#),
        good.replacen("00", "0", 1),
        good.replacen("00", "AA", 1),
        format!("{good}{}", " ".repeat(MAX_ENVELOPE_LEN)),
    ] {
        assert!(Envelope::parse(&bad).is_err(), "{bad}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn passkey_envelopes_round_trip(value in any::<[u8; 32]>(), prf in any::<[u8; 32]>(), salt in any::<[u8; 32]>(),
                                    nonce in any::<[u8; 12]>(), user in "[a-z0-9-]{1,40}", id in "[A-Za-z0-9_-]{1,64}") {
        let share = Share::new(ShareKind::Recovery, value);
        let sealed = Envelope::seal_with_passkey(&share, &user, &prf, &id, salt, nonce).unwrap();
        let text = sealed.to_json();
        prop_assert!(text.len() <= MAX_ENVELOPE_LEN);
        let parsed = Envelope::parse(&text).unwrap();
        prop_assert_eq!(parsed.open_with_passkey(&user, &prf).unwrap(), share);
        let other_user = format!("{user}x");
        prop_assert_eq!(parsed.open_with_passkey(&other_user, &prf), Err(Error::DecryptionFailed));
    }

    #[test]
    fn parse_never_panics(text in "\\PC{0,300}") {
        let _ = Envelope::parse(&text);
    }

    #[test]
    fn parse_never_panics_on_near_envelopes(kind in "(password|passkey|x)", m in any::<u32>(), t in any::<u32>(), p in any::<u32>(),
                                            salt in "[0-9a-f]{0,70}", nonce in "[0-9a-f]{0,30}", ct in "[0-9a-f]{0,100}") {
        let text = format!(r#"{{"v":1,"kind":"{kind}","m":{m},"t":{t},"p":{p},"salt":"{salt}","nonce":"{nonce}","ciphertext":"{ct}"}}"#);
        if let Ok(envelope) = Envelope::parse(&text) {
            let EnvelopeKind::Password(cost) = envelope.kind else { unreachable!() };
            prop_assert!(cost.check().is_ok());
        }
    }
}

/// Fields are public: an id that skipped the checks still writes valid JSON,
/// which parse then refuses.
#[test]
fn to_json_escapes_an_unchecked_credential_id() {
    let mut envelope = Envelope::seal_with_passkey(&recovery(2), "u", &[0; 32], "id", [0; 32], [0; 12]).unwrap();
    envelope.kind = EnvelopeKind::Passkey {
        credential_id: "x\",\"v\":2,\"y\":\"\\\n".to_owned(),
    };
    let text = envelope.to_json();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(value["v"], 1);
    assert_eq!(value["credentialId"], "x\",\"v\":2,\"y\":\"\\\n");
    assert!(Envelope::parse(&text).is_err());
}
