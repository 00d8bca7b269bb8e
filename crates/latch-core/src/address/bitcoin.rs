//! Bitcoin addresses: base58check P2PKH/P2SH and bech32/bech32m segwit
//! (BIP-173, BIP-350) on mainnet, testnet and regtest.

use bech32::{segwit, Fe32, Hrp};
use serde::Serialize;

use crate::{Error, Result};

/// The network an address pays on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BitcoinNetwork {
    /// `1…`, `3…`, `bc1…`.
    Mainnet,
    /// `m…`/`n…`, `2…`, `tb1…` (signet shares these). Base58 regtest addresses
    /// use the testnet version bytes too, so they read as testnet.
    Testnet,
    /// `bcrt1…`: only segwit addresses tell regtest apart.
    Regtest,
}

/// The output script an address pays to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BitcoinAddressType {
    /// Pay to public key hash (base58, version 0x00 or 0x6f).
    P2pkh,
    /// Pay to script hash (base58, version 0x05 or 0xc4).
    P2sh,
    /// Witness v0 with a 20-byte program.
    P2wpkh,
    /// Witness v0 with a 32-byte program.
    P2wsh,
    /// Witness v1 with a 32-byte program (taproot).
    P2tr,
    /// Any other witness version or program length BIP-350 allows (v1–v16,
    /// 2–40 bytes): valid to send to, reserved for future soft forks.
    Segwit,
}

/// What a valid Bitcoin address says about itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct BitcoinAddress {
    /// The network it belongs to.
    pub network: BitcoinNetwork,
    /// The kind of output it pays to.
    #[serde(rename = "type")]
    pub kind: BitcoinAddressType,
}

/// Parses a Bitcoin address; anything else is `Invalid Bitcoin address`.
///
/// Segwit addresses follow BIP-350: witness v0 needs the bech32 checksum,
/// v1 and later bech32m; the human-readable part must be `bc`, `tb` or `bcrt`.
pub fn parse_bitcoin_address(value: &str) -> Result<BitcoinAddress> {
    // The order does not matter: the accepted base58 addresses start with
    // `1`, `3`, `m`, `n` or `2`, segwit ones with `bc`, `tb` or `bcrt`.
    parse_segwit(value)
        .or_else(|| parse_base58(value))
        .ok_or_else(|| Error::InvalidBitcoinAddress {
            input: value.to_owned(),
        })
}

fn parse_segwit(value: &str) -> Option<BitcoinAddress> {
    let (hrp, version, program) = segwit::decode(value).ok()?;
    let network = if hrp == bech32::hrp::BC {
        BitcoinNetwork::Mainnet
    } else if hrp == bech32::hrp::TB {
        BitcoinNetwork::Testnet
    } else if hrp == Hrp::parse_unchecked("bcrt") {
        BitcoinNetwork::Regtest
    } else {
        return None;
    };
    let kind = match (version, program.len()) {
        (Fe32::Q, 20) => BitcoinAddressType::P2wpkh,
        (Fe32::Q, 32) => BitcoinAddressType::P2wsh,
        (Fe32::P, 32) => BitcoinAddressType::P2tr,
        _ => BitcoinAddressType::Segwit,
    };
    Some(BitcoinAddress { network, kind })
}

fn parse_base58(value: &str) -> Option<BitcoinAddress> {
    let payload = bs58::decode(value).with_check(None).into_vec().ok()?;
    // One version byte and a 20-byte hash.
    if payload.len() != 21 {
        return None;
    }
    let (network, kind) = match payload[0] {
        0x00 => (BitcoinNetwork::Mainnet, BitcoinAddressType::P2pkh),
        0x05 => (BitcoinNetwork::Mainnet, BitcoinAddressType::P2sh),
        0x6f => (BitcoinNetwork::Testnet, BitcoinAddressType::P2pkh),
        0xc4 => (BitcoinNetwork::Testnet, BitcoinAddressType::P2sh),
        _ => return None,
    };
    Some(BitcoinAddress { network, kind })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use BitcoinAddressType::*;
    use BitcoinNetwork::*;

    #[test]
    fn valid_addresses() {
        let cases = [
            // BIP-350 valid segwit addresses (BIP-173's v0 ones among them).
            ("BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4", Mainnet, P2wpkh),
            (
                "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7",
                Testnet,
                P2wsh,
            ),
            (
                "bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7kt5nd6y",
                Mainnet,
                Segwit,
            ),
            ("BC1SW50QGDZ25J", Mainnet, Segwit),
            ("bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs", Mainnet, Segwit),
            (
                "tb1qqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesrxh6hy",
                Testnet,
                P2wsh,
            ),
            (
                "tb1pqqqqp399et2xygdj5xreqhjjvcmzhxw4aywxecjdzew6hylgvsesf3hn0c",
                Testnet,
                P2tr,
            ),
            (
                "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0",
                Mainnet,
                P2tr,
            ),
            // Regtest: the BIP-173 P2WPKH program under the `bcrt` prefix.
            ("bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080", Regtest, P2wpkh),
            // Base58check: the genesis coinbase, BIP-13's P2SH example, and testnet.
            ("1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa", Mainnet, P2pkh),
            ("3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy", Mainnet, P2sh),
            ("mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn", Testnet, P2pkh),
            ("2MzQwSSnBHWHqSAqtTVQ6v47XtaisrJa1Vc", Testnet, P2sh),
        ];
        for (address, network, kind) in cases {
            assert_eq!(
                parse_bitcoin_address(address),
                Ok(BitcoinAddress { network, kind }),
                "{address}"
            );
        }
    }

    #[test]
    fn invalid_addresses() {
        let cases = [
            // BIP-350 invalid addresses, each for the reason given.
            "tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut", // unknown prefix
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd", // v1 with bech32
            "tb1z0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqglt7rf", // v2 with bech32
            "BC1S0XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ54WELL", // v16 with bech32
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh",                     // v0 with bech32m
            "tb1q0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq24jc47", // v0 with bech32m
            "bc1p38j9r5y49hruaue7wxjce0updqjuyyx0kh56v8s25huc6995vvpql3jow4", // `o` in the data
            "BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R", // witness v17
            "bc1pw5dgrnzv",                                                   // 1-byte program
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav", // 41 bytes
            "BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P",                           // v0 with 16 bytes
            "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq", // mixed case
            "bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf", // > 4 padding bits
            "tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j", // non-zero padding
            "bc1gmk9yu",                                                      // no data
            // BIP-173 invalid addresses not covered above.
            "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t5", // bad checksum
            "tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sL5k7", // mixed case
            // Base58: bad checksum, unknown version (Litecoin), 33 bytes.
            "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNb",
            "LVg2kJoFNg45Nbpy53h7Fe1wKyeXVRhMH9",
            "5HueCGU8rMjxEXxiPuD5BDku4MkFqeZyd4dZ1jvhTVqvbTLvyTJ", // a WIF private key
            "",
            "bc1",
        ];
        for address in cases {
            assert_eq!(
                parse_bitcoin_address(address).unwrap_err().to_string(),
                "Invalid Bitcoin address",
                "{address}"
            );
        }
    }

    proptest! {
        #[test]
        fn never_panics(s in "\\PC*") {
            let _ = parse_bitcoin_address(&s);
        }

        #[test]
        fn segwit_round_trip(program in proptest::collection::vec(any::<u8>(), 2..=40), version in 1u8..=16) {
            let version = Fe32::try_from(version).unwrap();
            let text = segwit::encode(bech32::hrp::TB, version, &program).unwrap();
            prop_assert_eq!(parse_bitcoin_address(&text).unwrap().network, Testnet);
            prop_assert!(parse_bitcoin_address(&text.to_uppercase()).is_ok());
        }

        #[test]
        fn base58_round_trip(hash in proptest::array::uniform20(any::<u8>()), version in prop::sample::select(vec![0u8, 5, 0x6f, 0xc4])) {
            let text = bs58::encode([&[version][..], &hash].concat()).with_check().into_string();
            prop_assert!(parse_bitcoin_address(&text).is_ok());
        }
    }
}
