//! Program-derived addresses (Solana's `find_program_address`) and the
//! associated token account of an owner and a mint.

use curve25519_dalek::edwards::CompressedEdwardsY;
use sha2::{Digest, Sha256};

/// The System program (`11111111111111111111111111111111`).
pub const SYSTEM_PROGRAM_ID: [u8; 32] = [0; 32];
/// The SPL Token program (`TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA`).
pub const TOKEN_PROGRAM_ID: [u8; 32] = [
    6, 221, 246, 225, 215, 101, 161, 147, 217, 203, 225, 70, 206, 235, 121, 172, 28, 180, 133, 237, 95, 91, 55, 145,
    58, 140, 245, 133, 126, 255, 0, 169,
];
/// The SPL Token-2022 program (`TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb`).
pub const TOKEN_2022_PROGRAM_ID: [u8; 32] = [
    6, 221, 246, 225, 238, 117, 143, 222, 24, 66, 93, 188, 228, 108, 205, 218, 182, 26, 252, 77, 131, 185, 13, 39, 254,
    189, 249, 40, 216, 161, 139, 252,
];
/// The SPL Associated Token Account program (`ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL`).
pub const ASSOCIATED_TOKEN_PROGRAM_ID: [u8; 32] = [
    140, 151, 37, 143, 78, 36, 137, 241, 187, 61, 16, 41, 20, 142, 13, 131, 11, 90, 19, 153, 218, 255, 16, 132, 4, 142,
    123, 216, 219, 233, 248, 89,
];

/// Solana's limits on the seeds of a derived address.
const MAX_SEEDS: usize = 16;
const MAX_SEED_LEN: usize = 32;

/// Whether `bytes` is the compressed form of a point on ed25519: a key someone
/// may hold. A program-derived address must not be, so no private key signs for it.
pub fn is_on_curve(bytes: &[u8; 32]) -> bool {
    CompressedEdwardsY(*bytes).decompress().is_some()
}

/// `create_program_address`: SHA-256 of the seeds, the program id and
/// `"ProgramDerivedAddress"`; `None` when the hash lies on the curve or the
/// seeds break Solana's limits (at most 16, each at most 32 bytes; the bump
/// seed counts).
pub fn create_program_address(seeds: &[&[u8]], program_id: &[u8; 32]) -> Option<[u8; 32]> {
    if seeds.len() > MAX_SEEDS || seeds.iter().any(|seed| seed.len() > MAX_SEED_LEN) {
        return None;
    }
    let mut hasher = Sha256::new();
    for seed in seeds {
        hasher.update(seed);
    }
    hasher.update(program_id);
    hasher.update(b"ProgramDerivedAddress");
    let address: [u8; 32] = hasher.finalize().into();
    (!is_on_curve(&address)).then_some(address)
}

/// `find_program_address`: the address and bump seed of the first off-curve
/// derivation, trying bumps 255 down to 0; `None` when none is (odds about
/// 2^-256) or the seeds break the limits.
pub fn find_program_address(seeds: &[&[u8]], program_id: &[u8; 32]) -> Option<([u8; 32], u8)> {
    if seeds.len() >= MAX_SEEDS {
        return None;
    }
    (0..=u8::MAX).rev().find_map(|bump| {
        let bump_seed = [bump];
        let mut with_bump = seeds.to_vec();
        with_bump.push(&bump_seed);
        create_program_address(&with_bump, program_id).map(|address| (address, bump))
    })
}

/// The associated token account of `owner` for `mint` under `token_program`
/// (Token or Token-2022): seeds owner, token program, mint, under the
/// Associated Token Account program, as `getAssociatedTokenAddressSync` with
/// `allowOwnerOffCurve`. Three 32-byte seeds never break the limits, and an
/// off-curve bump exists for all but a 2^-256 share of inputs.
pub fn associated_token_address(owner: &[u8; 32], mint: &[u8; 32], token_program: &[u8; 32]) -> [u8; 32] {
    find_program_address(&[owner, token_program, mint], &ASSOCIATED_TOKEN_PROGRAM_ID)
        .map(|(address, _)| address)
        // Unreachable in practice (see above); a defined answer beats a panic on user input.
        .unwrap_or([0; 32])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::address::parse_solana_address;

    #[test]
    fn program_ids_match_their_base58() {
        for (text, bytes) in [
            ("11111111111111111111111111111111", SYSTEM_PROGRAM_ID),
            ("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA", TOKEN_PROGRAM_ID),
            ("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb", TOKEN_2022_PROGRAM_ID),
            (
                "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
                ASSOCIATED_TOKEN_PROGRAM_ID,
            ),
        ] {
            assert_eq!(parse_solana_address(text).unwrap(), bytes, "{text}");
        }
    }

    #[test]
    fn curve_membership() {
        // An ed25519 public key is on the curve (the devnet fixture's account #0).
        let key = parse_solana_address("7S3P4HxJpyyigGzodYwHtCxZyUQe9JiBMHyRWXArAaKv").unwrap();
        assert!(is_on_curve(&key));
        // Derived addresses are not.
        let (ata, _) = find_program_address(&[&key, &TOKEN_PROGRAM_ID, &key], &ASSOCIATED_TOKEN_PROGRAM_ID).unwrap();
        assert!(!is_on_curve(&ata));
    }

    #[test]
    fn seed_limits() {
        let long = [0u8; 33];
        assert_eq!(create_program_address(&[&long], &TOKEN_PROGRAM_ID), None);
        let many: Vec<&[u8]> = vec![b"a"; 17];
        assert_eq!(create_program_address(&many, &TOKEN_PROGRAM_ID), None);
        // The bump seed needs one of the 16 places.
        assert_eq!(find_program_address(&many[..16], &TOKEN_PROGRAM_ID), None);
        assert!(find_program_address(&many[..15], &TOKEN_PROGRAM_ID).is_some());
    }

    #[test]
    fn find_takes_the_highest_off_curve_bump() {
        let seeds: [&[u8]; 1] = [b"latch"];
        let (address, bump) = find_program_address(&seeds, &TOKEN_PROGRAM_ID).unwrap();
        assert_eq!(
            create_program_address(&[b"latch", &[bump]], &TOKEN_PROGRAM_ID),
            Some(address)
        );
        for higher in bump.saturating_add(1)..=u8::MAX {
            if higher > bump {
                assert_eq!(create_program_address(&[b"latch", &[higher]], &TOKEN_PROGRAM_ID), None);
            }
        }
    }
}
