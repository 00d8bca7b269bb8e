//! Solana addresses (behaviour 2.13 "Solana: 32 to 44 base58 characters").

use crate::{Error, Result};

/// Shortest and longest base58 text of 32 bytes (behaviour 2.13 "32 to 44").
const LENGTHS: std::ops::RangeInclusive<usize> = 32..=44;

/// Whether `value` is a Solana address: see [`parse_solana_address`].
pub fn is_solana_address(value: &str) -> bool {
    parse_solana_address(value).is_ok()
}

/// The 32 bytes of a Solana address (an ed25519 public key or a program-derived
/// address). Behaviour 2.13 gives only the length and alphabet; the text must also decode
/// to exactly 32 bytes, since 44 base58 characters can hold up to 33.
pub fn parse_solana_address(value: &str) -> Result<[u8; 32]> {
    let invalid = || Error::InvalidSolanaAddress {
        input: value.to_owned(),
    };
    if !LENGTHS.contains(&value.len()) {
        return Err(invalid());
    }
    let bytes = bs58::decode(value).into_vec().map_err(|_| invalid())?;
    bytes.try_into().map_err(|_| invalid())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn solana_addresses() {
        // behaviour 2.13: "Solana: 32 to 44 base58 characters".
        let valid = [
            "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv",
            "11111111111111111111111111111111", // the system program: 32 zero bytes
            "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA",
        ];
        for address in valid {
            assert!(is_solana_address(address), "{address}");
        }
        let invalid = [
            "",
            "1111111111111111111111111111111",               // 31 characters
            "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKvv", // 45 characters
            "0S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv",  // 0 is not base58
            "lS3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv",  // nor is l
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",  // 33 bytes
            "1111111111111111111111111111111111111111",      // 40 zero bytes
        ];
        for address in invalid {
            assert_eq!(
                parse_solana_address(address).unwrap_err().to_string(),
                "Invalid Solana address",
                "{address}"
            );
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = parse_solana_address(&s);
        }

        #[test]
        fn base58_round_trip(bytes in proptest::array::uniform32(any::<u8>())) {
            let text = bs58::encode(bytes).into_string();
            prop_assert_eq!(parse_solana_address(&text).unwrap(), bytes);
        }
    }
}
