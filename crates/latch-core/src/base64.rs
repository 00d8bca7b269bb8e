//! Base64 (RFC 4648) in the two forms the protocols here use: standard with
//! padding (WalletConnect envelopes, behaviour 2.8) and URL-safe without padding (JWTs,
//! behaviour 2.8). Reading is strict, like the `base64` crate's `STANDARD` and
//! `URL_SAFE_NO_PAD` engines: only the alphabet, canonical padding (none in
//! the URL-safe form) and no stray bits in the last character.
//!
//! Written here because the browser modules paid about 5 kB for the general
//! crate's engines; the tests hold this one to that crate.

const STANDARD: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
/// Not a character of the alphabet.
const INVALID: u8 = 0xff;

/// Each byte's value in `alphabet`, or [`INVALID`].
const fn values(alphabet: &[u8; 64]) -> [u8; 256] {
    let mut table = [INVALID; 256];
    let mut i = 0;
    while i < 64 {
        table[alphabet[i] as usize] = i as u8;
        i += 1;
    }
    table
}

const STANDARD_VALUES: [u8; 256] = values(STANDARD);
const URL_SAFE_VALUES: [u8; 256] = values(URL_SAFE);

/// Standard base64 with `=` padding.
pub fn encode(bytes: &[u8]) -> String {
    encode_with(bytes, STANDARD, true)
}

/// Reads standard base64 with canonical padding; `None` for anything else.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    decode_with(text, &STANDARD_VALUES, true)
}

/// URL-safe base64 without padding.
pub fn encode_url(bytes: &[u8]) -> String {
    encode_with(bytes, URL_SAFE, false)
}

/// Reads URL-safe base64 without padding; `None` for anything else.
pub fn decode_url(text: &str) -> Option<Vec<u8>> {
    decode_with(text, &URL_SAFE_VALUES, false)
}

fn encode_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let mut group = 0u32;
        for (i, byte) in chunk.iter().enumerate() {
            group |= u32::from(*byte) << (16 - 8 * i);
        }
        // n bytes take n + 1 characters; padding fills the group to four.
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(alphabet[(group >> (18 - 6 * i)) as usize & 63]));
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

fn decode_with(text: &str, values: &[u8; 256], pad: bool) -> Option<Vec<u8>> {
    let mut text = text.as_bytes();
    if pad {
        if text.len() % 4 != 0 {
            return None;
        }
        for _ in 0..2 {
            if let Some(rest) = text.strip_suffix(b"=") {
                text = rest;
            }
        }
    }
    // One character carries only 6 bits: never a whole byte.
    if text.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.chunks(4) {
        let mut group = 0u32;
        for (i, c) in chunk.iter().enumerate() {
            let value = values[usize::from(*c)];
            if value == INVALID {
                return None;
            }
            group |= u32::from(value) << (18 - 6 * i);
        }
        let bytes = chunk.len() - 1;
        // The bits after the last whole byte must be zero (one text per value).
        if group & ((1 << (24 - 8 * bytes)) - 1) != 0 {
            return None;
        }
        for i in 0..bytes {
            out.push((group >> (16 - 8 * i)) as u8);
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine;
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn rfc_4648_vectors() {
        for (bytes, text) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(bytes.as_bytes()), text);
            assert_eq!(decode(text).as_deref(), Some(bytes.as_bytes()));
            let unpadded = text.trim_end_matches('=');
            assert_eq!(encode_url(bytes.as_bytes()), unpadded);
            assert_eq!(decode_url(unpadded).as_deref(), Some(bytes.as_bytes()));
        }
        assert_eq!(encode(&[0xfb, 0xff]), "+/8=");
        assert_eq!(encode_url(&[0xfb, 0xff]), "-_8");
    }

    #[test]
    fn what_is_refused() {
        for text in [
            "Zg", "Zg=", "Zg===", "Z===", "Zh==", "Zm9=", "Zm9v=", "=Zg=", "Zm 9v", "-_8=", "Zg==Zg==",
        ] {
            assert_eq!(decode(text), None, "{text}");
        }
        for text in ["Zg==", "Z", "Zh", "Zm9", "+/8", "Zm9v\n"] {
            assert_eq!(decode_url(text), None, "{text}");
        }
    }

    /// Texts near base64: its characters, padding, and a few outsiders.
    fn base64ish() -> impl Strategy<Value = String> {
        "[A-Za-z0-9+/=_\\- .]{0,24}"
    }

    proptest! {
        #[test]
        fn writes_what_the_base64_crate_writes(bytes in prop::collection::vec(any::<u8>(), 0..100)) {
            prop_assert_eq!(encode(&bytes), STANDARD.encode(&bytes));
            prop_assert_eq!(encode_url(&bytes), URL_SAFE_NO_PAD.encode(&bytes));
        }

        #[test]
        fn reads_what_the_base64_crate_reads(text in base64ish()) {
            prop_assert_eq!(decode(&text), STANDARD.decode(&text).ok());
            prop_assert_eq!(decode_url(&text), URL_SAFE_NO_PAD.decode(&text).ok());
        }

        #[test]
        fn reads_encodings_with_a_character_changed_as_the_crate_does(
            bytes in prop::collection::vec(any::<u8>(), 0..40),
            at in any::<prop::sample::Index>(),
            to in prop::sample::select(b"Aa0+/=-_.".to_vec()),
        ) {
            for (text, url) in [(encode(&bytes), false), (encode_url(&bytes), true)] {
                let mut text = text.into_bytes();
                if !text.is_empty() {
                    let i = at.index(text.len());
                    text[i] = to;
                }
                let text = String::from_utf8(text).unwrap();
                if url {
                    prop_assert_eq!(decode_url(&text), URL_SAFE_NO_PAD.decode(&text).ok());
                } else {
                    prop_assert_eq!(decode(&text), STANDARD.decode(&text).ok());
                }
            }
        }
    }
}
