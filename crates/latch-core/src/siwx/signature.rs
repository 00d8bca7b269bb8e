//! Checking who signed a sign-in message: EIP-191 `personal_sign` recovery for
//! EVM accounts and ed25519 verification for Solana accounts. Contract-wallet
//! signatures (ERC-1271, EIP-6492) need an RPC call and are the server's job.

use alloy_primitives::Signature;
use ed25519_dalek::VerifyingKey;

use crate::address::parse_solana_address;
use crate::{Error, Result};

/// The EIP-55 address whose key made `signature` over `message` with
/// `personal_sign`, i.e. over `"\x19Ethereum Signed Message:\n" + len + message`
/// (EIP-191 version 0x45) with the message as UTF-8.
///
/// `signature` is 65 bytes `r ‖ s ‖ v` as hex, `0x` optional, with `v` 27/28
/// or 0/1. A signature always recovers *some* address when it is well formed,
/// so callers compare the result with the address they expect.
pub fn recover_personal_sign_address(message: &str, signature: &str) -> Result<String> {
    let hex = signature.strip_prefix("0x").unwrap_or(signature);
    let bytes: [u8; 65] = (hex.len() == 130 && hex.bytes().all(|b| b.is_ascii_hexdigit()))
        .then(|| alloy_primitives::hex::decode(hex).ok())
        .flatten()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or(Error::InvalidSignature {
            reason: "expected 65 bytes of hex (r, s, v)",
        })?;
    // alloy also takes EIP-155 `v` values, which no message signature carries.
    if !matches!(bytes[64], 0 | 1 | 27 | 28) {
        return Err(Error::InvalidSignature {
            reason: "v must be 27, 28, 0 or 1",
        });
    }
    let no_signer = |_| Error::InvalidSignature {
        reason: "no public key recovers from it",
    };
    let signature = Signature::from_raw_array(&bytes).map_err(no_signer)?;
    let address = signature.recover_address_from_msg(message).map_err(no_signer)?;
    Ok(address.to_checksum(None))
}

/// Whether `signature` (64 bytes, base58) is `public_key`'s ed25519 signature
/// over the UTF-8 bytes of `message`, as Solana's `signMessage` produces.
///
/// Malformed input is an error (`Invalid Solana address` for the key,
/// `Invalid signature: …` for the signature); a well-formed signature that
/// does not verify is `false`. That includes keys that are valid addresses
/// but not curve points (program-derived addresses have no private key), and
/// signatures that only a lax verifier accepts: verification is strict
/// (canonical `s`, no small-order keys), so one message has one valid
/// signature per key.
pub fn verify_solana_signature(message: &str, signature: &str, public_key: &str) -> Result<bool> {
    let key = parse_solana_address(public_key)?;
    let invalid = || Error::InvalidSignature {
        reason: "expected 64 bytes of base58",
    };
    // 64 bytes never take more than 88 base58 characters.
    if signature.len() > 88 {
        return Err(invalid());
    }
    let bytes: [u8; 64] = bs58::decode(signature)
        .into_vec()
        .ok()
        .and_then(|bytes| bytes.try_into().ok())
        .ok_or_else(invalid)?;
    let Ok(key) = VerifyingKey::from_bytes(&key) else {
        return Ok(false);
    };
    let signature = ed25519_dalek::Signature::from_bytes(&bytes);
    Ok(key.verify_strict(message.as_bytes(), &signature).is_ok())
}

/// A Solana wallet's `signMessage` output (64 raw bytes) as the text
/// [`verify_solana_signature`] and the Latch server take: base58. Any other
/// length is `Invalid signature: expected 64 bytes of base58`.
pub fn solana_signature_text(signature: &[u8]) -> Result<String> {
    if signature.len() != 64 {
        return Err(Error::InvalidSignature {
            reason: "expected 64 bytes of base58",
        });
    }
    Ok(bs58::encode(signature).into_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Anvil's first development account, whose key signed the vectors below
    /// (viem `privateKeyToAccount(…).signMessage`).
    const ANVIL_0: &str = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
    const HELLO_SIGNATURE: &str = "0xf16ea9a3478698f695fd1401bfe27e9e4a7e8e3da94aa72b021125e31fa899cc573c48ea3fe1d4ab61a9db10c19032026e3ed2dbccba5a178235ac27f94504311c";

    #[test]
    fn personal_sign_vectors() {
        let cases = [
            ("hello", HELLO_SIGNATURE),
            (
                "",
                "0xc1977b761f1dd36c29795783460d241885c8e7f9d962dbe7bba2753fd94e89b444a1cd9ed855dd09afa3b73f7c2bd097ec9abc2d2775d737505a02d3f0cafa591b",
            ),
            // Multi-byte UTF-8: the length in the prefix counts bytes, not characters.
            (
                "Hello, Latch ✓\nline two",
                "0xbc891e35e41e558400f9fda5003d189f17c6c2e704acc988e1db241011c351120cae025e0f431df5643a26709c470d0f7309977c8e375102ed57fc3b77eecc551b",
            ),
        ];
        for (message, signature) in cases {
            assert_eq!(recover_personal_sign_address(message, signature).unwrap(), ANVIL_0);
            // Without 0x, and with v as a recovery id (27 → 0, 28 → 1).
            let v = u8::from_str_radix(&signature[130..], 16).unwrap() - 27;
            let short = format!("{}{v:02x}", &signature[2..130]);
            assert_eq!(recover_personal_sign_address(message, &short).unwrap(), ANVIL_0);
        }
        // Another message recovers another (wrong) address.
        assert_ne!(
            recover_personal_sign_address("hello!", HELLO_SIGNATURE).unwrap(),
            ANVIL_0
        );
    }

    #[test]
    fn malformed_personal_signatures() {
        let cases = [
            ("0x1234", "Invalid signature: expected 65 bytes of hex (r, s, v)"),
            (
                &HELLO_SIGNATURE[..130],
                "Invalid signature: expected 65 bytes of hex (r, s, v)",
            ),
            ("0x0x1234", "Invalid signature: expected 65 bytes of hex (r, s, v)"),
            (
                &format!("{}1d", &HELLO_SIGNATURE[..130]),
                "Invalid signature: v must be 27, 28, 0 or 1",
            ),
            (
                &format!("0x{}1b", "00".repeat(64)),
                "Invalid signature: no public key recovers from it",
            ),
        ];
        for (signature, error) in cases {
            assert_eq!(
                recover_personal_sign_address("hello", signature)
                    .unwrap_err()
                    .to_string(),
                error,
                "{signature}"
            );
        }
    }

    // RFC 8032 §7.1 TEST 1 (empty message) and TEST 2 (the byte 0x72, "r"),
    // with key and signature in base58 as Solana wallets return them.
    const TEST1_KEY: &str = "FVen3X669xLzsi6N2V91DoiyzHzg1uAgqiT8jZ9nS96Z";
    const TEST1_SIG: &str = "5awYiUvGiDFA33EJjj4TXJG44a5afJc8QjWRpGgQiu6b23jCr7yndW2fmp9ujwqJVe32J456wV3VF78Asb1obnTc";
    const TEST2_KEY: &str = "586Z7H2vpX9qNhN2T4e9Utugie3ogjbxzGaMtM3E6HR5";
    const TEST2_SIG: &str = "3w2b4gJH2VXfrwycUgMiE3TZJTztazKppFVojCQ9NDMDHq8PVTHxQdQovxMFxqeqeQf1xaADvhkj2nMuB1kzouA7";

    #[test]
    fn ed25519_vectors() {
        assert_eq!(verify_solana_signature("", TEST1_SIG, TEST1_KEY), Ok(true));
        assert_eq!(verify_solana_signature("r", TEST2_SIG, TEST2_KEY), Ok(true));
        // Wrong message, wrong key, another key's signature.
        assert_eq!(verify_solana_signature("x", TEST1_SIG, TEST1_KEY), Ok(false));
        assert_eq!(verify_solana_signature("r", TEST2_SIG, TEST1_KEY), Ok(false));
        assert_eq!(verify_solana_signature("", TEST2_SIG, TEST1_KEY), Ok(false));
    }

    #[test]
    fn malformed_solana_input() {
        assert_eq!(
            verify_solana_signature("", TEST1_SIG, "not a key")
                .unwrap_err()
                .to_string(),
            "Invalid Solana address"
        );
        for signature in ["", &TEST1_SIG[..80], "0OIl", &format!("{TEST1_SIG}1")] {
            assert_eq!(
                verify_solana_signature("", signature, TEST1_KEY)
                    .unwrap_err()
                    .to_string(),
                "Invalid signature: expected 64 bytes of base58",
                "{signature}"
            );
        }
    }

    proptest! {
        #[test]
        fn never_panics(message in "\\PC*", signature in "\\PC*", key in "[1-9A-HJ-NP-Za-km-z]{32,44}") {
            let _ = recover_personal_sign_address(&message, &signature);
            let _ = verify_solana_signature(&message, &signature, &key);
            let _ = verify_solana_signature(&message, TEST1_SIG, &key);
        }
    }

    #[test]
    fn solana_signature_text_round_trips() {
        let bytes = bs58::decode(TEST1_SIG).into_vec().unwrap();
        assert_eq!(solana_signature_text(&bytes).unwrap(), TEST1_SIG);
        assert_eq!(
            solana_signature_text(&bytes[..63]).unwrap_err().to_string(),
            "Invalid signature: expected 64 bytes of base58"
        );
        // Leading zero bytes are leading 1s, as base58 writes them.
        assert!(solana_signature_text(&[0; 64]).unwrap().starts_with("1111"));
    }
}
