//! ENS names as the registry sees them (EIP-137): the namehash of a name and
//! the reverse-record name of an address.

use alloy_primitives::{keccak256, B256};

use crate::address::parse_evm_address;
use crate::Result;

/// EIP-137 namehash: `""` → 32 zero bytes; `"a.b"` → keccak(namehash("b") ‖ keccak("a")).
/// Labels are taken as given (callers normalise names first).
pub fn namehash(name: &str) -> [u8; 32] {
    let mut node = B256::ZERO;
    if name.is_empty() {
        return node.0;
    }
    for label in name.rsplit('.') {
        let mut joined = [0u8; 64];
        joined[..32].copy_from_slice(node.as_slice());
        joined[32..].copy_from_slice(keccak256(label.as_bytes()).as_slice());
        node = keccak256(joined);
    }
    node.0
}

/// The name whose record says which name `address` claims:
/// `<lower-case hex without 0x>.addr.reverse`.
pub fn reverse_name(address: &str) -> Result<String> {
    let address = parse_evm_address(address)?;
    Ok(format!("{}.addr.reverse", hex_lower(address.as_slice())))
}

fn hex_lower(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hex(node: [u8; 32]) -> String {
        hex_lower(&node)
    }

    #[test]
    fn known_namehashes() {
        // EIP-137's examples.
        assert_eq!(hex(namehash("")), "0".repeat(64));
        assert_eq!(
            hex(namehash("eth")),
            "93cdeb708b7545dc668eb9280176169d1c33cfd8ed6f04690a0bcc88a93fc4ae"
        );
        assert_eq!(
            hex(namehash("foo.eth")),
            "de9b09fd7c5f901e23a3f19fecc54828e9c848539801e86591bd9801b019f84f"
        );
    }

    #[test]
    fn reverse_names() {
        assert_eq!(
            reverse_name("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266").unwrap(),
            "f39fd6e51aad88f6f4ce6ab8827279cfffb92266.addr.reverse"
        );
        assert!(reverse_name("0x12").is_err());
    }

    proptest! {
        #[test]
        fn never_panics_and_separates_labels(a in "[a-z0-9-]{1,20}", b in "[a-z0-9-]{1,20}") {
            prop_assert_ne!(namehash(&format!("{a}.{b}")), namehash(&format!("{a}{b}")));
        }
    }
}
