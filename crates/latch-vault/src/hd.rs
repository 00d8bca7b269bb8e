//! Key derivation from the seed: BIP-32 for secp256k1 (the EVM account,
//! m/44'/60'/0'/0/0) and SLIP-0010 for ed25519 (the Solana account,
//! m/44'/501'/0'/0'), the paths MetaMask and Phantom use, so an exported key
//! or a seed imported elsewhere lands on the same accounts.

use hmac::{Hmac, Mac};
use k256::elliptic_curve::sec1::ToEncodedPoint;
use k256::{NonZeroScalar, Scalar};
use sha2::Sha512;
use zeroize::{Zeroize, Zeroizing};

use crate::Error;

/// Index offset of a hardened child.
pub const HARDENED: u32 = 0x8000_0000;

/// m/44'/60'/0'/0/0.
pub const EVM_PATH: [u32; 5] = [44 | HARDENED, 60 | HARDENED, HARDENED, 0, 0];

/// m/44'/501'/0'/0' (ed25519 derives hardened children only).
pub const SOLANA_PATH: [u32; 4] = [44 | HARDENED, 501 | HARDENED, HARDENED, HARDENED];

/// A private key and its chain code, wiped on drop.
pub struct ExtendedKey {
    /// The 32-byte private key.
    pub key: Zeroizing<[u8; 32]>,
    /// The 32-byte chain code.
    pub chain_code: Zeroizing<[u8; 32]>,
}

fn hmac_sha512(key: &[u8], parts: &[&[u8]]) -> ExtendedKey {
    // HMAC takes keys of any length: new_from_slice cannot fail.
    let mut mac = match Hmac::<Sha512>::new_from_slice(key) {
        Ok(mac) => mac,
        Err(_) => unreachable!("HMAC accepts any key length"),
    };
    for part in parts {
        mac.update(part);
    }
    let out = Zeroizing::new(<[u8; 64]>::from(mac.finalize().into_bytes()));
    let mut key = Zeroizing::new([0u8; 32]);
    let mut chain_code = Zeroizing::new([0u8; 32]);
    key.copy_from_slice(&out[..32]);
    chain_code.copy_from_slice(&out[32..]);
    ExtendedKey { key, chain_code }
}

/// A secp256k1 scalar in 1..n, or the BIP-32 "invalid key" case.
fn scalar(bytes: &[u8; 32]) -> Result<NonZeroScalar, Error> {
    Option::from(NonZeroScalar::from_repr((*bytes).into())).ok_or(Error::InvalidDerivedKey)
}

/// BIP-32 CKDpriv along `path` from the master key of `seed`. The cases the
/// BIP calls invalid (IL ≥ n, or a zero key; odds about 2^-127) are errors
/// rather than a skip to the next index: no such seed has ever been seen.
pub fn bip32(seed: &[u8], path: &[u32]) -> Result<ExtendedKey, Error> {
    let mut node = hmac_sha512(b"Bitcoin seed", &[seed]);
    scalar(&node.key)?;
    for &index in path {
        let parent = scalar(&node.key)?;
        let child = if index >= HARDENED {
            hmac_sha512(&node.chain_code[..], &[&[0], &node.key[..], &index.to_be_bytes()])
        } else {
            let public = k256::PublicKey::from_secret_scalar(&parent);
            let point = public.to_encoded_point(true);
            hmac_sha512(&node.chain_code[..], &[point.as_bytes(), &index.to_be_bytes()])
        };
        let tweak = scalar(&child.key)?;
        // Scalars are secret too: wiped here, as the byte arrays are on drop.
        let mut sum: Scalar = *tweak + *parent;
        let mut key = Zeroizing::new([0u8; 32]);
        key.copy_from_slice(&sum.to_bytes());
        let zero = bool::from(sum.is_zero());
        sum.zeroize();
        let (mut tweak, mut parent) = (tweak, parent);
        tweak.zeroize();
        parent.zeroize();
        if zero {
            return Err(Error::InvalidDerivedKey);
        }
        node = ExtendedKey {
            key,
            chain_code: child.chain_code,
        };
    }
    Ok(node)
}

/// SLIP-0010 ed25519 derivation along `path`; every index must be hardened.
pub fn slip10_ed25519(seed: &[u8], path: &[u32]) -> Result<ExtendedKey, Error> {
    let mut node = hmac_sha512(b"ed25519 seed", &[seed]);
    for &index in path {
        if index < HARDENED {
            return Err(Error::UnhardenedEd25519);
        }
        node = hmac_sha512(&node.chain_code[..], &[&[0], &node.key[..], &index.to_be_bytes()]);
    }
    Ok(node)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(text: &str) -> Vec<u8> {
        hex::decode(text).unwrap()
    }

    /// Chain code and key out of a published xprv (BIP-32's own test vectors),
    /// so the vectors below are the BIP's text, checksum and all.
    fn xprv_parts(xprv: &str) -> ([u8; 32], [u8; 32]) {
        let raw = bs58::decode(xprv).with_check(None).into_vec().unwrap();
        assert_eq!(raw.len(), 78);
        assert_eq!(raw[45], 0);
        (raw[13..45].try_into().unwrap(), raw[46..78].try_into().unwrap())
    }

    fn check_bip32(seed: &str, path: &[u32], xprv: &str) {
        let node = bip32(&h(seed), path).unwrap();
        let (chain_code, key) = xprv_parts(xprv);
        assert_eq!(*node.chain_code, chain_code, "{path:?}");
        assert_eq!(*node.key, key, "{path:?}");
    }

    const H: u32 = HARDENED;

    #[test]
    fn bip32_test_vector_1() {
        let seed = "000102030405060708090a0b0c0d0e0f";
        for (path, xprv) in [
            (&[][..], "xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi"),
            (&[H][..], "xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7"),
            (&[H, 1][..], "xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs"),
            (&[H, 1, 2 | H][..], "xprv9z4pot5VBttmtdRTWfWQmoH1taj2axGVzFqSb8C9xaxKymcFzXBDptWmT7FwuEzG3ryjH4ktypQSAewRiNMjANTtpgP4mLTj34bhnZX7UiM"),
            (&[H, 1, 2 | H, 2][..], "xprvA2JDeKCSNNZky6uBCviVfJSKyQ1mDYahRjijr5idH2WwLsEd4Hsb2Tyh8RfQMuPh7f7RtyzTtdrbdqqsunu5Mm3wDvUAKRHSC34sJ7in334"),
            (&[H, 1, 2 | H, 2, 1_000_000_000][..], "xprvA41z7zogVVwxVSgdKUHDy1SKmdb533PjDz7J6N6mV6uS3ze1ai8FHa8kmHScGpWmj4WggLyQjgPie1rFSruoUihUZREPSL39UNdE3BBDu76"),
        ] {
            check_bip32(seed, path, xprv);
        }
    }

    #[test]
    fn bip32_test_vector_2() {
        let seed = "fffcf9f6f3f0edeae7e4e1dedbd8d5d2cfccc9c6c3c0bdbab7b4b1aeaba8a5a29f9c999693908d8a8784817e7b7875726f6c696663605d5a5754514e4b484542";
        for (path, xprv) in [
            (&[][..], "xprv9s21ZrQH143K31xYSDQpPDxsXRTUcvj2iNHm5NUtrGiGG5e2DtALGdso3pGz6ssrdK4PFmM8NSpSBHNqPqm55Qn3LqFtT2emdEXVYsCzC2U"),
            (&[0][..], "xprv9vHkqa6EV4sPZHYqZznhT2NPtPCjKuDKGY38FBWLvgaDx45zo9WQRUT3dKYnjwih2yJD9mkrocEZXo1ex8G81dwSM1fwqWpWkeS3v86pgKt"),
            (&[0, 2_147_483_647 | H][..], "xprv9wSp6B7kry3Vj9m1zSnLvN3xH8RdsPP1Mh7fAaR7aRLcQMKTR2vidYEeEg2mUCTAwCd6vnxVrcjfy2kRgVsFawNzmjuHc2YmYRmagcEPdU9"),
            (&[0, 2_147_483_647 | H, 1][..], "xprv9zFnWC6h2cLgpmSA46vutJzBcfJ8yaJGg8cX1e5StJh45BBciYTRXSd25UEPVuesF9yog62tGAQtHjXajPPdbRCHuWS6T8XA2ECKADdw4Ef"),
            (&[0, 2_147_483_647 | H, 1, 2_147_483_646 | H][..], "xprvA1RpRA33e1JQ7ifknakTFpgNXPmW2YvmhqLQYMmrj4xJXXWYpDPS3xz7iAxn8L39njGVyuoseXzU6rcxFLJ8HFsTjSyQbLYnMpCqE2VbFWc"),
            (&[0, 2_147_483_647 | H, 1, 2_147_483_646 | H, 2][..], "xprvA2nrNbFZABcdryreWet9Ea4LvTJcGsqrMzxHx98MMrotbir7yrKCEXw7nadnHM8Dq38EGfSh6dqA9QWTyefMLEcBYJUuekgW4BYPJcr9E7j"),
        ] {
            check_bip32(seed, path, xprv);
        }
    }

    /// SLIP-0010's "Test vector 1 for ed25519".
    #[test]
    fn slip10_ed25519_test_vector_1() {
        let seed = h("000102030405060708090a0b0c0d0e0f");
        for (path, chain_code, key) in [
            (
                &[][..],
                "90046a93de5380a72b5e45010748567d5ea02bbf6522f979e05c0d8d8ca9fffb",
                "2b4be7f19ee27bbf30c667b642d5f4aa69fd169872f8fc3059c08ebae2eb19e7",
            ),
            (
                &[H][..],
                "8b59aa11380b624e81507a27fedda59fea6d0b779a778918a2fd3590e16e9c69",
                "68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3",
            ),
            (
                &[H, 1 | H][..],
                "a320425f77d1b5c2505a6b1b27382b37368ee640e3557c315416801243552f14",
                "b1d0bad404bf35da785a64ca1ac54b2617211d2777696fbffaf208f746ae84f2",
            ),
            (
                &[H, 1 | H, 2 | H][..],
                "2e69929e00b5ab250f49c3fb1c12f252de4fed2c1db88387094a0f8c4c9ccd6c",
                "92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9",
            ),
            (
                &[H, 1 | H, 2 | H, 2 | H][..],
                "8f6d87f93d750e0efccda017d662a1b31a266e4a6f5993b15f5c1f07f74dd5cc",
                "30d1dc7e5fc04c31219ab25a27ae00b50f6fd66622f6e9c913253d6511d1e662",
            ),
        ] {
            let node = slip10_ed25519(&seed, path).unwrap();
            assert_eq!(hex::encode(*node.chain_code), chain_code, "{path:?}");
            assert_eq!(hex::encode(*node.key), key, "{path:?}");
        }
        assert!(matches!(slip10_ed25519(&seed, &[0]), Err(Error::UnhardenedEd25519)));
    }
}
