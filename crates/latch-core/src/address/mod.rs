//! Chain addresses and the other hex values wallets hand back (behaviour 2.13).
//!
//! One module per namespace the kit connects to; [`is_valid_address`] is the
//! single entry point that picks the rule from a CAIP-2 namespace.

mod bitcoin;
mod evm;
mod polkadot;
mod solana;

pub use bitcoin::{parse_bitcoin_address, BitcoinAddress, BitcoinAddressType, BitcoinNetwork};
pub use evm::{is_evm_address, parse_evm_address, to_checksum_address};
pub use polkadot::{parse_ss58_address, to_ss58_address, Ss58Address};
pub use solana::{is_solana_address, parse_solana_address};

/// Whether `address` is a valid account address in the CAIP-2 `namespace`.
///
/// Behaviour 2.13: "EVM address: optional 0x plus 40 hex characters. Solana: 32 to 44
/// base58 characters. Other namespaces invalid." Bitcoin and Polkadot are the
/// two other namespaces the kit connects to (behaviour 3.1), so they get their own rules
/// rather than falling under "other". EVM addresses must also pass EIP-55 when
/// written in mixed case, as in [`parse_evm_address`].
pub fn is_valid_address(namespace: &str, address: &str) -> bool {
    match namespace {
        "eip155" => parse_evm_address(address).is_ok(),
        "solana" => is_solana_address(address),
        "bip122" => parse_bitcoin_address(address).is_ok(),
        "polkadot" => parse_ss58_address(address).is_ok(),
        _ => false,
    }
}

/// Behaviour 2.13: "Transaction hash: 0x plus 64 hex."
pub fn is_transaction_hash(value: &str) -> bool {
    value
        .strip_prefix("0x")
        .is_some_and(|hex| hex.len() == 64 && is_hex(hex))
}

/// Behaviour 2.13: "Signed message: 0x plus at least 62 hex."
pub fn is_signed_message(value: &str) -> bool {
    value
        .strip_prefix("0x")
        .is_some_and(|hex| hex.len() >= 62 && is_hex(hex))
}

fn is_hex(text: &str) -> bool {
    text.bytes().all(|b| b.is_ascii_hexdigit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn valid_address_by_namespace() {
        // behaviour 2.13: each namespace with its own rule; "Other namespaces invalid".
        let cases = [
            ("eip155", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", true),
            ("eip155", "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", true),
            ("eip155", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92267", false),
            ("solana", "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", true),
            ("solana", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", false),
            ("bip122", "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", true),
            ("bip122", "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", true),
            ("polkadot", "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", true),
            ("polkadot", "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", false),
            ("cosmos", "cosmos1abc", false),
            ("", "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", false),
        ];
        for (namespace, address, valid) in cases {
            assert_eq!(is_valid_address(namespace, address), valid, "{namespace} {address}");
        }
    }

    #[test]
    fn transaction_hash_and_signed_message() {
        let hash = format!("0x{}", "ab".repeat(32));
        assert!(is_transaction_hash(&hash));
        assert!(is_transaction_hash(&hash.to_uppercase().replacen("0X", "0x", 1)));
        assert!(!is_transaction_hash(&hash[2..])); // behaviour 2.13: the 0x is required
        assert!(!is_transaction_hash(&format!("{hash}a")));
        assert!(!is_transaction_hash(&hash[..65]));
        assert!(!is_transaction_hash(&format!("0x{}", "g".repeat(64))));

        assert!(is_signed_message(&format!("0x{}", "0".repeat(62))));
        assert!(is_signed_message(&format!("0x{}", "f".repeat(130))));
        assert!(!is_signed_message(&format!("0x{}", "0".repeat(61))));
        assert!(!is_signed_message(&"0".repeat(64)));
        assert!(!is_signed_message(&format!("0x{}z", "0".repeat(62))));
    }

    proptest! {
        #[test]
        fn never_panics(namespace in "[a-z0-9]{0,8}", address in "\\PC*") {
            let _ = is_valid_address(&namespace, &address);
            let _ = is_transaction_hash(&address);
            let _ = is_signed_message(&address);
        }
    }
}
