//! The 2-of-3 split of the seed: Shamir's scheme over GF(2^8), byte by byte,
//! with a degree-1 polynomial `f(x) = seed + a·x` whose coefficients `a` the
//! caller draws. Share `i` is `f(i)` for `i` = 1 (device), 2 (auth),
//! 3 (recovery); any two give back `f`, hence the seed and the third share.
//!
//! Written here rather than taken from a crate: `sharks` and `blahaj` draw
//! their own randomness through `rand` (this crate takes none), and the
//! measured wasm cost of this module is in ARCHITECTURE.md. Multiplication is
//! table-free, so no lookup is indexed by a secret byte.

use core::fmt;

use zeroize::{Zeroize, ZeroizeOnDrop};

use crate::{Error, Seed, SEED_LEN};

/// Multiplication in GF(2^8) modulo the AES polynomial x^8+x^4+x^3+x+1,
/// without tables or branches on the operands (they are secret).
fn mul(mut a: u8, mut b: u8) -> u8 {
    let mut product = 0u8;
    for _ in 0..8 {
        product ^= a & 0u8.wrapping_sub(b & 1);
        let carry = 0u8.wrapping_sub(a >> 7);
        a = (a << 1) ^ (0x1b & carry);
        b >>= 1;
    }
    product
}

/// The multiplicative inverse (a^254); only ever taken of public share
/// indexes, never of secret bytes.
fn inv(a: u8) -> u8 {
    let mut result = 1u8;
    let mut base = a;
    let mut exp = 254u8;
    while exp > 0 {
        if exp & 1 == 1 {
            result = mul(result, base);
        }
        base = mul(base, base);
        exp >>= 1;
    }
    result
}

/// Which of the three shares: the number is the x coordinate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShareKind {
    /// Kept in the frame origin's storage.
    Device = 1,
    /// Kept by the server, released only to an authenticated session.
    Auth = 2,
    /// Kept by the server only inside a recovery envelope.
    Recovery = 3,
}

impl ShareKind {
    /// All three, by index.
    pub const ALL: [ShareKind; 3] = [ShareKind::Device, ShareKind::Auth, ShareKind::Recovery];

    /// The x coordinate (1, 2 or 3).
    pub fn index(self) -> u8 {
        self as u8
    }

    fn from_index(index: u8) -> Option<Self> {
        match index {
            1 => Some(ShareKind::Device),
            2 => Some(ShareKind::Auth),
            3 => Some(ShareKind::Recovery),
            _ => None,
        }
    }
}

/// One share: its kind and 32 bytes. Text form: `0x`, two hex digits of the
/// index (`01`, `02`, `03`), 64 hex digits of the value, all lowercase.
#[derive(Clone, PartialEq, Eq, Zeroize, ZeroizeOnDrop)]
pub struct Share {
    #[zeroize(skip)]
    kind: ShareKind,
    value: [u8; SEED_LEN],
}

/// Length of a share's text form.
pub const SHARE_TEXT_LEN: usize = 2 + 2 + 2 * SEED_LEN;

impl Share {
    /// A share from its parts.
    pub fn new(kind: ShareKind, value: [u8; SEED_LEN]) -> Self {
        Share { kind, value }
    }

    /// Which share this is.
    pub fn kind(&self) -> ShareKind {
        self.kind
    }

    /// The 32 bytes (secret).
    pub fn value(&self) -> &[u8; SEED_LEN] {
        &self.value
    }

    /// Parses the text form strictly: exactly 68 characters, a lowercase `0x`,
    /// index `01`–`03`, lowercase hex. The server validates the auth share it
    /// stores with this, so there is one spelling per share.
    pub fn parse(text: &str) -> Result<Share, Error> {
        let bytes = text.as_bytes();
        if bytes.len() != SHARE_TEXT_LEN {
            return Err(Error::InvalidShare("a share is 0x followed by 66 hex digits"));
        }
        if &bytes[..2] != b"0x" {
            return Err(Error::InvalidShare("a share starts with 0x"));
        }
        let mut decoded = [0u8; 1 + SEED_LEN];
        for (out, pair) in decoded.iter_mut().zip(bytes[2..].chunks_exact(2)) {
            *out = (hex_digit(pair[0])? << 4) | hex_digit(pair[1])?;
        }
        let kind = ShareKind::from_index(decoded[0]).ok_or(Error::InvalidShare("a share's index is 01, 02 or 03"))?;
        let mut value = [0u8; SEED_LEN];
        value.copy_from_slice(&decoded[1..]);
        decoded.zeroize();
        Ok(Share { kind, value })
    }

    /// Parses and checks that it is the `expected` share.
    pub fn parse_kind(text: &str, expected: ShareKind) -> Result<Share, Error> {
        let share = Share::parse(text)?;
        if share.kind != expected {
            return Err(Error::WrongShare {
                expected: expected.index(),
                found: share.kind.index(),
            });
        }
        Ok(share)
    }

    /// The text form (secret: it is the share).
    pub fn to_text(&self) -> String {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut out = String::with_capacity(SHARE_TEXT_LEN);
        out.push_str("0x");
        for byte in core::iter::once(self.kind.index()).chain(self.value.iter().copied()) {
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 0xf)] as char);
        }
        out
    }
}

/// Never prints the value: a share in a log is a leaked share.
impl fmt::Debug for Share {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Share({:?}, ..)", self.kind)
    }
}

fn hex_digit(c: u8) -> Result<u8, Error> {
    match c {
        b'0'..=b'9' => Ok(c - b'0'),
        b'a'..=b'f' => Ok(c - b'a' + 10),
        _ => Err(Error::InvalidShare("a share is lowercase hex digits")),
    }
}

/// Splits `seed` into the three shares with the line's slopes `coefficients`
/// (32 uniformly random bytes from the caller, then discarded).
pub fn split(seed: &Seed, coefficients: &[u8; SEED_LEN]) -> [Share; 3] {
    ShareKind::ALL.map(|kind| {
        let x = kind.index();
        let mut value = [0u8; SEED_LEN];
        for ((out, s), a) in value.iter_mut().zip(seed.as_bytes()).zip(coefficients) {
            *out = s ^ mul(*a, x);
        }
        Share { kind, value }
    })
}

/// The line through two shares evaluated at `x` (0 gives the seed).
fn interpolate(a: &Share, b: &Share, x: u8) -> Result<[u8; SEED_LEN], Error> {
    let (xa, xb) = (a.kind.index(), b.kind.index());
    if xa == xb {
        return Err(Error::SameShareTwice);
    }
    // Lagrange: f(x) = ya·(x−xb)/(xa−xb) + yb·(x−xa)/(xb−xa); in GF(2^8)
    // subtraction is XOR, so both denominators are xa^xb.
    let denominator = inv(xa ^ xb);
    let la = mul(x ^ xb, denominator);
    let lb = mul(x ^ xa, denominator);
    let mut out = [0u8; SEED_LEN];
    for ((o, ya), yb) in out.iter_mut().zip(&a.value).zip(&b.value) {
        *o = mul(*ya, la) ^ mul(*yb, lb);
    }
    Ok(out)
}

/// The seed from any two different shares.
pub fn combine(a: &Share, b: &Share) -> Result<Seed, Error> {
    Ok(Seed::new(interpolate(a, b, 0)?))
}

/// Share `kind` from any two different shares: a recovered device
/// recomputes its device share this way.
pub fn derive_share(a: &Share, b: &Share, kind: ShareKind) -> Result<Share, Error> {
    Ok(Share {
        kind,
        value: interpolate(a, b, kind.index())?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Table-free multiplication against the textbook examples (FIPS-197 §4.2).
    #[test]
    fn gf256_arithmetic() {
        assert_eq!(mul(0x57, 0x83), 0xc1);
        assert_eq!(mul(0x57, 0x13), 0xfe);
        for a in 1..=255u8 {
            assert_eq!(mul(a, inv(a)), 1, "{a}");
            assert_eq!(mul(a, 1), a);
            assert_eq!(mul(a, 0), 0);
        }
    }

    #[test]
    fn text_form_is_strict() {
        let share = Share::new(ShareKind::Auth, [0xab; 32]);
        let text = share.to_text();
        assert_eq!(text, format!("0x02{}", "ab".repeat(32)));
        assert_eq!(Share::parse(&text).unwrap(), share);
        for bad in [
            String::new(),
            format!("0X02{}", "ab".repeat(32)),
            format!("0x02{}", "AB".repeat(32)),
            format!("0x04{}", "ab".repeat(32)),
            format!("0x00{}", "ab".repeat(32)),
            format!("0x02{}", "ab".repeat(31)),
            format!("0x02{}0", "ab".repeat(32)),
            format!(" 0x02{}", "ab".repeat(32)),
            format!("0x02{}é", "ab".repeat(31)),
            format!("0x0g{}", "ab".repeat(32)),
        ] {
            assert!(Share::parse(&bad).is_err(), "{bad:?}");
        }
        assert_eq!(
            Share::parse_kind(&text, ShareKind::Recovery),
            Err(Error::WrongShare { expected: 3, found: 2 })
        );
        assert!(!format!("{share:?}").contains("ab"));
    }

    #[test]
    fn same_share_twice_is_refused() {
        let share = Share::new(ShareKind::Device, [1; 32]);
        assert_eq!(combine(&share, &share.clone()), Err(Error::SameShareTwice));
    }

    fn pairs() -> [(usize, usize, usize); 6] {
        [(0, 1, 2), (1, 0, 2), (0, 2, 1), (2, 0, 1), (1, 2, 0), (2, 1, 0)]
    }

    proptest! {
        #[test]
        fn any_two_rebuild_the_seed_and_the_third(seed in any::<[u8; 32]>(), coefficients in any::<[u8; 32]>()) {
            let shares = split(&Seed::new(seed), &coefficients);
            for (i, j, k) in pairs() {
                prop_assert_eq!(*combine(&shares[i], &shares[j]).unwrap().as_bytes(), seed);
                prop_assert_eq!(&derive_share(&shares[i], &shares[j], shares[k].kind()).unwrap(), &shares[k]);
            }
        }

        /// One share says nothing: for any share value and any seed there is
        /// exactly one slope giving that share, so every seed is as likely.
        #[test]
        fn one_share_fits_every_seed(value in any::<[u8; 32]>(), seed in any::<[u8; 32]>(), kind in 0usize..3) {
            let kind = ShareKind::ALL[kind];
            let x = kind.index();
            let mut slopes = [0u8; 32];
            for (i, slope) in slopes.iter_mut().enumerate() {
                let fitting: Vec<u8> = (0..=255u8).filter(|a| seed[i] ^ mul(*a, x) == value[i]).collect();
                prop_assert_eq!(fitting.len(), 1);
                *slope = fitting[0];
            }
            let shares = split(&Seed::new(seed), &slopes);
            prop_assert_eq!(shares[usize::from(x) - 1].value(), &value);
        }

        #[test]
        fn text_round_trips(value in any::<[u8; 32]>(), kind in 0usize..3) {
            let share = Share::new(ShareKind::ALL[kind], value);
            prop_assert_eq!(Share::parse(&share.to_text()).unwrap(), share);
        }

        #[test]
        fn parse_never_panics(text in "\\PC{0,80}") {
            let _ = Share::parse(&text);
        }

        #[test]
        fn parse_never_panics_near_the_format(tail in "[0-9a-fA-Fx ]{60,70}") {
            let text = format!("0x{tail}");
            if let Ok(share) = Share::parse(&text) {
                prop_assert_eq!(share.to_text(), text);
            }
        }
    }
}
