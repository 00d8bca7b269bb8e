//! Names to register and ENSIP-11 coin types (behaviour 5.11).

use crate::{Error, Result};
/// Shortest name that may be registered (behaviour 5.11 "at least 4 characters").
pub const MIN_NAME_LENGTH: usize = 4;
/// Longest name (one DNS label).
pub const MAX_NAME_LENGTH: usize = 63;
/// The ENSIP-11 coin type of Ethereum mainnet (SLIP-44 60).
pub const ETHEREUM_COIN_TYPE: u32 = 60;
/// ENSIP-11: an EVM chain's coin type is this bit OR its chain id.
const EVM_COIN_TYPE_FLAG: u32 = 0x8000_0000;

/// Checks the label of a name to register (behaviour 5.11: at least 4 characters,
/// letters, digits, hyphen only) and returns it in lower case, the form names
/// are registered and resolved in (ENS normalisation lower-cases ASCII, so
/// `Alice` and `alice` are one name and typing either is fine). Letters are
/// ASCII: the name service does not register other scripts. The zone suffix
/// (`.<zone>`) is not part of the label.
pub fn validate_name(name: &str) -> Result<String> {
    if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(Error::InvalidName {
            reason: "Name can only contain letters, digits and hyphens",
        });
    }
    if name.len() < MIN_NAME_LENGTH {
        return Err(Error::InvalidName {
            reason: "Name must be at least 4 characters",
        });
    }
    // A name is a DNS label under the zone (the CCIP-Read gateway serves it as one), so it
    // also keeps DNS's shape: one label of at most 63 octets, no hyphen at either end.
    if name.len() > MAX_NAME_LENGTH {
        return Err(Error::InvalidName {
            reason: "Name must be at most 63 characters",
        });
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(Error::InvalidName {
            reason: "Name cannot start or end with a hyphen",
        });
    }
    Ok(name.to_ascii_lowercase())
}

/// The ENSIP-11 coin type of an EVM chain: 60 for Ethereum mainnet, else
/// `0x80000000 | chain_id`; ids at or above 2^31 have none (behaviour 5.11 "Invalid chainId").
pub fn evm_chain_id_to_coin_type(chain_id: u64) -> Result<u32> {
    match u32::try_from(chain_id) {
        Ok(1) => Ok(ETHEREUM_COIN_TYPE),
        Ok(id) if id < EVM_COIN_TYPE_FLAG => Ok(EVM_COIN_TYPE_FLAG | id),
        _ => Err(Error::InvalidChainId),
    }
}

/// The EVM chain id an ENSIP-11 coin type stands for: 60 → 1, `0x80000000 | id` → `id`;
/// other coin types (Bitcoin's 0, Solana's 501, …) are not EVM chains.
pub fn coin_type_to_evm_chain_id(coin_type: u32) -> Result<u64> {
    match coin_type {
        ETHEREUM_COIN_TYPE => Ok(1),
        flagged if flagged & EVM_COIN_TYPE_FLAG != 0 => Ok(u64::from(flagged & !EVM_COIN_TYPE_FLAG)),
        _ => Err(Error::InvalidChainId),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    // Behaviour 5.11: "Name validation: at least 4 characters, letters, digits, hyphen only."
    #[test]
    fn names() {
        assert_eq!(validate_name("alice").unwrap(), "alice");
        assert_eq!(validate_name("Web3-Fan").unwrap(), "web3-fan");
        assert_eq!(validate_name("a-1b").unwrap(), "a-1b");
        for (bad, message) in [
            ("abc", "Name must be at least 4 characters"),
            ("", "Name must be at least 4 characters"),
            ("alice.eth", "Name can only contain letters, digits and hyphens"),
            ("al ice", "Name can only contain letters, digits and hyphens"),
            ("al_ice", "Name can only contain letters, digits and hyphens"),
            ("ålice", "Name can only contain letters, digits and hyphens"),
            ("-alice", "Name cannot start or end with a hyphen"),
            ("alice-", "Name cannot start or end with a hyphen"),
            (&"a".repeat(64), "Name must be at most 63 characters"),
        ] {
            assert_eq!(validate_name(bad).unwrap_err().to_string(), message, "{bad:?}");
        }
    }

    // Behaviour 5.11: "EVM chain id to coin type rejects ids at or above 2^31 with 'Invalid chainId'."
    #[test]
    fn coin_types() {
        assert_eq!(evm_chain_id_to_coin_type(1).unwrap(), 60);
        for id in [1u64, 10, 8453, 31337, (1 << 31) - 1] {
            assert_eq!(
                coin_type_to_evm_chain_id(evm_chain_id_to_coin_type(id).unwrap()),
                Ok(id)
            );
        }
        assert_eq!(coin_type_to_evm_chain_id(0), Err(Error::InvalidChainId));
        assert_eq!(coin_type_to_evm_chain_id(501), Err(Error::InvalidChainId));
        assert_eq!(evm_chain_id_to_coin_type(0).unwrap(), 0x8000_0000);
        assert_eq!(evm_chain_id_to_coin_type(10).unwrap(), 2_147_483_658);
        assert_eq!(evm_chain_id_to_coin_type(8453).unwrap(), 2_147_492_101);
        assert_eq!(evm_chain_id_to_coin_type((1 << 31) - 1).unwrap(), u32::MAX);
        for bad in [1 << 31, u64::from(u32::MAX), u64::MAX] {
            assert_eq!(evm_chain_id_to_coin_type(bad), Err(Error::InvalidChainId));
        }
    }

    proptest! {
        #[test]
        fn valid_names_are_lower_case(name in "[a-zA-Z0-9][a-zA-Z0-9-]{2,38}[a-zA-Z0-9]") {
            let valid = validate_name(&name).unwrap();
            prop_assert_eq!(validate_name(&valid).unwrap(), valid.clone());
            prop_assert!(!valid.chars().any(|c| c.is_ascii_uppercase()));
        }

        // Coin types are injective below 2^31 and never collide with mainnet's 60.
        #[test]
        fn coin_type_keeps_the_chain_id(id in 2u64..(1 << 31)) {
            prop_assert_eq!(u64::from(evm_chain_id_to_coin_type(id).unwrap() & 0x7fff_ffff), id);
        }
    }
}
