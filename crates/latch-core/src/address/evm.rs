//! EVM addresses (behaviour 2.13 "EVM address: optional 0x plus 40 hex characters").

use alloy_primitives::Address;

use crate::{Error, Result};

/// Whether `value` is an EVM address: optional `0x`, then exactly 40 hex digits.
/// Case is not checked here; see [`parse_evm_address`] for the EIP-55 rule.
pub fn is_evm_address(value: &str) -> bool {
    let hex = value.strip_prefix("0x").unwrap_or(value);
    hex.len() == 40 && hex.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Parses an EVM address. All-lower or all-upper hex is accepted as is; mixed
/// case must be a correct EIP-55 checksum, because a wrong mixed case is the
/// sign of a typo the checksum exists to catch.
pub fn parse_evm_address(value: &str) -> Result<Address> {
    let invalid = || Error::InvalidEvmAddress {
        input: value.to_owned(),
    };
    if !is_evm_address(value) {
        return Err(invalid());
    }
    let hex = value.strip_prefix("0x").unwrap_or(value);
    let address: Address = hex.parse().map_err(|_| invalid())?;
    let mixed_case = hex.bytes().any(|b| b.is_ascii_lowercase()) && hex.bytes().any(|b| b.is_ascii_uppercase());
    if mixed_case && address.to_checksum(None)[2..] != *hex {
        return Err(invalid());
    }
    Ok(address)
}

/// The EIP-55 checksummed form (`0x` + mixed-case hex) of an EVM address.
pub fn to_checksum_address(value: &str) -> Result<String> {
    parse_evm_address(value).map(|a| a.to_checksum(None))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const ANVIL_1: &str = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";

    #[test]
    fn evm_address_shape() {
        assert!(is_evm_address(ANVIL_1));
        assert!(is_evm_address(&ANVIL_1[2..]));
        assert!(!is_evm_address("0x70997970C51812dc3A010C7d01b50e0d17dc79C")); // 39
        assert!(!is_evm_address("0x70997970C51812dc3A010C7d01b50e0d17dc79C8a")); // 41
        assert!(!is_evm_address("0X70997970C51812dc3A010C7d01b50e0d17dc79C8"));
        assert!(!is_evm_address("0xg0997970C51812dc3A010C7d01b50e0d17dc79C8"));
    }

    // EIP-55 test vectors from the EIP itself.
    #[test]
    fn eip55_vectors() {
        for v in [
            "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
            "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
            "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
            "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
        ] {
            assert_eq!(to_checksum_address(&v.to_lowercase()).unwrap(), v);
            assert_eq!(to_checksum_address(v).unwrap(), v);
        }
        let typo = "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD";
        assert_eq!(
            to_checksum_address(typo).unwrap_err().to_string(),
            "Invalid EVM address"
        );
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = to_checksum_address(&s);
        }

        #[test]
        fn checksum_is_idempotent(bytes in proptest::array::uniform20(any::<u8>())) {
            let lower = format!("0x{}", alloy_primitives::hex::encode(bytes));
            let sum = to_checksum_address(&lower).unwrap();
            prop_assert_eq!(to_checksum_address(&sum).unwrap(), sum.clone());
            prop_assert_eq!(sum.to_lowercase(), lower);
        }
    }
}
