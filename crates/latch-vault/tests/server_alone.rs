//! Issue 28: "the server alone can never sign". Everything the server stores
//! for a user (its id, the auth share, the password and passkey recovery
//! envelopes) is built here exactly as the frame builds it, and every way to
//! a key from that alone is shown to fail; the user's own way (that data plus
//! the password or the passkey) is shown to work, so the failures are not
//! those of a broken scheme.

use latch_vault::{combine, derive_share, Argon2Cost, Envelope, Error, Share, ShareKind, Wallet};
use proptest::prelude::*;

/// What the server has for one user, as text (what it writes to its store).
struct ServerRecord {
    user_id: String,
    auth_share: String,
    password_envelope: String,
    passkey_envelope: String,
}

struct SignUp {
    record: ServerRecord,
    device_share: String,
    evm_address: alloy_primitives::Address,
    solana_address: String,
}

const PASSWORD: &[u8] = b"a long enough pass phrase";
const PRF: [u8; 32] = [0x5a; 32];

fn sign_up(seed: [u8; 32], coefficients: [u8; 32], user_id: &str) -> SignUp {
    let created = Wallet::create(seed, coefficients).unwrap();
    let [device, auth, recovery] = &created.shares;
    let password_envelope = Envelope::seal_with_password(
        recovery,
        user_id,
        PASSWORD,
        Argon2Cost::default(),
        [0x11; 16],
        [0x22; 12],
    )
    .unwrap();
    let passkey_envelope =
        Envelope::seal_with_passkey(recovery, user_id, &PRF, "cred-1", [0x33; 32], [0x44; 12]).unwrap();
    SignUp {
        record: ServerRecord {
            user_id: user_id.to_owned(),
            auth_share: auth.to_text(),
            password_envelope: password_envelope.to_json(),
            passkey_envelope: passkey_envelope.to_json(),
        },
        device_share: device.to_text(),
        evm_address: created.wallet.evm_address(),
        solana_address: created.wallet.solana_address(),
    }
}

/// One user, signed up once: each Argon2id derivation at the production cost
/// takes a while.
fn sign_up_fixture() -> &'static SignUp {
    static USER: std::sync::OnceLock<SignUp> = std::sync::OnceLock::new();
    USER.get_or_init(|| sign_up([0xc3; 32], [0x9e; 32], "user-7f3a"))
}

#[test]
fn the_server_alone_cannot_rebuild_a_key() {
    let user = sign_up_fixture();
    let record = &user.record;
    let auth = Share::parse_kind(&record.auth_share, ShareKind::Auth).unwrap();
    let password_envelope = Envelope::parse(&record.password_envelope).unwrap();
    let passkey_envelope = Envelope::parse(&record.passkey_envelope).unwrap();

    // The stored text holds neither seed nor key: no 32-byte window of it is
    // the device or recovery share, and no address appears.
    let stored = format!(
        "{}{}{}{}",
        record.user_id, record.auth_share, record.password_envelope, record.passkey_envelope
    );
    let device = Share::parse(&user.device_share).unwrap();
    assert!(!stored.contains(&user.device_share[4..]));
    let recovery = derive_share(&auth, &device, ShareKind::Recovery).unwrap();
    assert!(!stored.contains(&recovery.to_text()[4..]));
    assert!(!stored
        .to_lowercase()
        .contains(&user.evm_address.to_string().to_lowercase()[2..]));
    assert!(!stored.contains(&user.solana_address));

    // The envelopes do not open without the password or the passkey's PRF output.
    for guess in [
        &b""[..],
        b"password",
        b"123456",
        b"a long enough pass phrase ",
        record.user_id.as_bytes(),
    ] {
        assert!(password_envelope.open_with_password(&record.user_id, guess).is_err());
    }
    for guess in [[0u8; 32], [0xff; 32], [0x5b; 32]] {
        assert_eq!(
            passkey_envelope.open_with_passkey(&record.user_id, &guess),
            Err(Error::DecryptionFailed)
        );
    }

    // The auth share alone: twice is refused, and with any guessed second
    // share it gives some other account.
    assert_eq!(
        Wallet::from_shares(&auth, &auth.clone()).err(),
        Some(Error::SameShareTwice)
    );
    for kind in [ShareKind::Device, ShareKind::Recovery] {
        for guess in [[0u8; 32], [0xff; 32], *auth.value(), [0xc3; 32], [0x9e; 32]] {
            let wallet = Wallet::from_shares(&auth, &Share::new(kind, guess)).unwrap();
            assert_ne!(wallet.evm_address(), user.evm_address);
            assert_ne!(wallet.solana_address(), user.solana_address);
        }
    }

    // Control: the same record plus the user's password (or passkey) is the account.
    for recovered in [
        password_envelope.open_with_password(&record.user_id, PASSWORD).unwrap(),
        passkey_envelope.open_with_passkey(&record.user_id, &PRF).unwrap(),
    ] {
        let wallet = Wallet::from_shares(&auth, &recovered).unwrap();
        assert_eq!(wallet.evm_address(), user.evm_address);
        assert_eq!(wallet.solana_address(), user.solana_address);
        // The new device recomputes its device share.
        assert_eq!(derive_share(&auth, &recovered, ShareKind::Device).unwrap(), device);
    }
}

/// A server that swaps one user's envelope into another's record gets
/// nothing: the envelope is bound to the user id.
#[test]
fn envelopes_cannot_be_swapped_between_users() {
    let alice = sign_up([1; 32], [2; 32], "alice");
    let bob = sign_up([3; 32], [4; 32], "bob");
    let alice_passkey = Envelope::parse(&alice.record.passkey_envelope).unwrap();
    assert_eq!(
        alice_passkey.open_with_passkey("bob", &PRF),
        Err(Error::DecryptionFailed)
    );
    let alice_password = Envelope::parse(&alice.record.password_envelope).unwrap();
    assert_eq!(
        alice_password.open_with_password("bob", PASSWORD),
        Err(Error::DecryptionFailed)
    );
    // Bob's auth share with Alice's recovery share is neither account.
    let bob_auth = Share::parse(&bob.record.auth_share).unwrap();
    let alice_recovery = alice_passkey.open_with_passkey("alice", &PRF).unwrap();
    let mixed = Wallet::from_shares(&bob_auth, &alice_recovery).unwrap();
    assert_ne!(mixed.evm_address(), alice.evm_address);
    assert_ne!(mixed.evm_address(), bob.evm_address);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    /// The auth share says nothing about the account: for the stored auth
    /// share and ANY seed, some second share completes it to that seed, so
    /// every account is equally consistent with what the server holds.
    #[test]
    fn every_seed_is_consistent_with_the_auth_share(target in any::<[u8; 32]>()) {
        let user = sign_up_fixture();
        let auth = Share::parse(&user.record.auth_share).unwrap();
        // The line through (0, target) and (2, auth), byte by byte: the one slope
        // whose split of `target` gives the stored auth share.
        let mut slope = [0u8; 32];
        for (i, s) in slope.iter_mut().enumerate() {
            *s = (0..=255u8).find(|a| {
                let shares = latch_vault::split(&latch_vault::Seed::new([target[i]; 32]), &[*a; 32]);
                shares[1].value()[0] == auth.value()[i]
            }).unwrap();
        }
        let shares = latch_vault::split(&latch_vault::Seed::new(target), &slope);
        prop_assert_eq!(&shares[1], &auth);
        prop_assert_eq!(*combine(&auth, &shares[2]).unwrap().as_bytes(), target);
    }
}
