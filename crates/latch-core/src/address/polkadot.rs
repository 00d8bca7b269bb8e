//! Polkadot-ecosystem SS58 addresses: base58 of `prefix ‖ account id ‖ checksum`,
//! where the checksum is the first 2 bytes of blake2b-512 over
//! `"SS58PRE" ‖ prefix ‖ account id`.

use blake2::{Blake2b512, Digest};
use serde::{Serialize, Serializer};

use crate::{Error, Result};

/// The largest network prefix the two-byte form can carry (14 bits).
const MAX_PREFIX: u16 = 0x3fff;
/// Prefixes the SS58 registry reserves; no network may use them.
const RESERVED_PREFIXES: [u16; 2] = [46, 47];
/// Bytes of the blake2b hash kept as checksum for a 32-byte account id.
const CHECKSUM_LEN: usize = 2;

/// A decoded SS58 address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ss58Address {
    /// The network prefix, e.g. 0 for Polkadot, 2 for Kusama, 42 for generic Substrate.
    pub prefix: u16,
    /// The 32-byte account id (the sr25519/ed25519 public key for ordinary accounts).
    #[serde(rename = "publicKeyHex", serialize_with = "prefixed_hex")]
    pub public_key: [u8; 32],
}

fn prefixed_hex<S: Serializer>(bytes: &[u8; 32], serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&alloy_primitives::hex::encode_prefixed(bytes))
}

/// Parses an SS58 address on any valid network prefix (0–16383 except the
/// reserved 46 and 47), in the simple one-byte (0–63) or full two-byte form.
///
/// Only 32-byte account ids are accepted: that is every Polkadot, Kusama and
/// Substrate account a wallet connects with. The two-byte form must not
/// carry a prefix below 64, so each address has exactly one spelling.
pub fn parse_ss58_address(value: &str) -> Result<Ss58Address> {
    let invalid = || Error::InvalidSs58Address {
        input: value.to_owned(),
    };
    // 2 prefix + 32 + 2 checksum bytes never need more than 50 base58 characters.
    if value.len() > 50 {
        return Err(invalid());
    }
    let data = bs58::decode(value).into_vec().map_err(|_| invalid())?;
    let (prefix, prefix_len) = match data.first() {
        Some(&first @ 0..=63) => (u16::from(first), 1),
        Some(64..=127) if data.len() > 1 => {
            // Inverse of `prefix_bytes`: 6 + 2 low bits from the first byte, the
            // high 6 bits from the second.
            let lower = (data[0] << 2) | (data[1] >> 6);
            let upper = data[1] & 0b0011_1111;
            (u16::from(lower) | (u16::from(upper) << 8), 2)
        }
        _ => return Err(invalid()),
    };
    if (prefix_len == 2 && prefix < 64) || RESERVED_PREFIXES.contains(&prefix) {
        return Err(invalid());
    }
    let body = &data[prefix_len..];
    let public_key: [u8; 32] = body
        .get(..32)
        .filter(|_| body.len() == 32 + CHECKSUM_LEN)
        .and_then(|key| key.try_into().ok())
        .ok_or_else(invalid)?;
    if checksum(&data[..prefix_len + 32]) != body[32..] {
        return Err(invalid());
    }
    Ok(Ss58Address { prefix, public_key })
}

/// The SS58 text of a 32-byte account id on network `prefix`; the inverse of
/// [`parse_ss58_address`]. Fails with `Invalid SS58 network prefix` for a
/// reserved or out-of-range prefix.
pub fn to_ss58_address(prefix: u16, public_key: &[u8; 32]) -> Result<String> {
    if prefix > MAX_PREFIX || RESERVED_PREFIXES.contains(&prefix) {
        return Err(Error::InvalidSs58Prefix { prefix });
    }
    let mut data = prefix_bytes(prefix);
    data.extend_from_slice(public_key);
    let sum = checksum(&data);
    data.extend_from_slice(&sum);
    Ok(bs58::encode(data).into_string())
}

/// Prefixes 0–63 take one byte; 64–16383 two, tagged by `0b01` in the top bits
/// of the first: `0b01 ‖ bits 2..8`, then `bits 0..2 ‖ bits 8..14`.
fn prefix_bytes(prefix: u16) -> Vec<u8> {
    match u8::try_from(prefix) {
        Ok(simple) if simple < 64 => vec![simple],
        _ => {
            let [low, high] = prefix.to_le_bytes();
            vec![0b0100_0000 | (low >> 2), (low << 6) | high]
        }
    }
}

fn checksum(prefixed_key: &[u8]) -> [u8; CHECKSUM_LEN] {
    let hash = Blake2b512::new()
        .chain_update(b"SS58PRE")
        .chain_update(prefixed_key)
        .finalize();
    [hash[0], hash[1]]
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The well-known development account //Alice.
    const ALICE: [u8; 32] = alloy_primitives::hex!("d43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d");

    #[test]
    fn alice_on_several_networks() {
        let cases = [
            (0, "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"), // Polkadot
            (2, "HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F"),  // Kusama
            (42, "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"), // generic Substrate
        ];
        for (prefix, text) in cases {
            assert_eq!(
                parse_ss58_address(text),
                Ok(Ss58Address {
                    prefix,
                    public_key: ALICE
                })
            );
            assert_eq!(to_ss58_address(prefix, &ALICE).unwrap(), text);
        }
    }

    #[test]
    fn full_prefixes() {
        for prefix in [64, 255, 1284, MAX_PREFIX] {
            let text = to_ss58_address(prefix, &ALICE).unwrap();
            assert_eq!(parse_ss58_address(&text).unwrap().prefix, prefix);
        }
    }

    #[test]
    fn refused() {
        let bad = [
            "",
            "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ", // checksum
            "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQ",  // truncated
            "0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d",
            "7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv", // a Solana address: no checksum
        ];
        for text in bad {
            assert_eq!(
                parse_ss58_address(text).unwrap_err().to_string(),
                "Invalid SS58 address",
                "{text}"
            );
        }
        // Reserved prefix 46, and prefix 1 spelled in the two-byte form.
        let reserved = encode_unchecked(&[46], &ALICE);
        let long_form_of_1 = encode_unchecked(&[0b0100_0000, 0b0100_0000], &ALICE);
        for text in [reserved, long_form_of_1] {
            assert!(parse_ss58_address(&text).is_err(), "{text}");
        }
        for prefix in [46, 47, MAX_PREFIX + 1] {
            assert_eq!(
                to_ss58_address(prefix, &ALICE).unwrap_err().to_string(),
                "Invalid SS58 network prefix"
            );
        }
    }

    fn encode_unchecked(prefix: &[u8], key: &[u8; 32]) -> String {
        let data = [prefix, key].concat();
        bs58::encode([&data[..], &checksum(&data)].concat()).into_string()
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = parse_ss58_address(&s);
        }

        #[test]
        fn round_trip(prefix in 0..=MAX_PREFIX, key in proptest::array::uniform32(any::<u8>())) {
            prop_assume!(!RESERVED_PREFIXES.contains(&prefix));
            let text = to_ss58_address(prefix, &key).unwrap();
            prop_assert_eq!(parse_ss58_address(&text), Ok(Ss58Address { prefix, public_key: key }));
        }
    }
}
