//! Pairing links as QR codes (behaviour 1.1 ConnectingWalletConnect). The engine
//! computes the modules (latch_walletconnect::qr); this draws them as one SVG
//! path, so the code takes the theme's colours and scales without blurring.

use latch_walletconnect::json;
use wasm_bindgen::prelude::*;

use crate::client::to_js;
use crate::js_error;

/// A QR code as an SVG path over a `size` × `size` grid of modules.
#[derive(Debug, PartialEq, Eq)]
pub struct QrCode {
    /// Modules per side, without the quiet zone.
    pub size: usize,
    /// The dark modules: one `M x y h n v1 h -n z` rectangle per horizontal run.
    pub path: String,
}

/// Encodes `text` at error-correction level M
/// ([`latch_walletconnect::qr`]). A WalletConnect URI (~210 bytes) gives a
/// 57 × 57 code; anything up to 2 331 bytes fits in a version 40 code.
pub fn encode(text: &str) -> latch_core::Result<QrCode> {
    let code = latch_walletconnect::qr::encode(text.as_bytes()).ok_or_else(|| latch_core::Error::InvalidInput {
        what: "QR code text",
        reason: format!(
            "longer than a QR code holds ({} bytes)",
            latch_walletconnect::qr::MAX_BYTES
        ),
    })?;
    let size = code.size;
    let mut path = String::new();
    for (y, row) in code.modules.chunks(size).enumerate() {
        let mut x = 0;
        while x < size {
            if !row[x] {
                x += 1;
                continue;
            }
            let run = row[x..].iter().take_while(|&&d| d).count();
            path.push_str(&format!("M{x} {y}h{run}v1h-{run}z"));
            x += run;
        }
    }
    Ok(QrCode { size, path })
}

/// `{ size, path }`: draw `<path d={path}>` in a `0 0 size size` view box
/// (leave a margin of 4 modules around it). Throws `Invalid QR code text: …`
/// for text too long for any QR code.
#[wasm_bindgen(js_name = qrCode, unchecked_return_type = "{ size: number; path: string }")]
pub fn qr_code(text: &str) -> Result<JsValue, JsValue> {
    let code = encode(text).map_err(js_error)?;
    to_js(&json!({ "size": code.size as u64, "path": code.path }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Draws the path back into modules: the code as a scanner would see it.
    fn modules(code: &QrCode) -> Vec<bool> {
        let mut grid = vec![false; code.size * code.size];
        for rect in code.path.split('z').filter(|r| !r.is_empty()) {
            let numbers: Vec<usize> = rect
                .split(|c: char| !c.is_ascii_digit())
                .filter(|n| !n.is_empty())
                .map(|n| n.parse().unwrap())
                .collect();
            let [x, y, run, one, _] = numbers[..] else {
                panic!("unexpected rectangle {rect}")
            };
            assert_eq!(one, 1);
            for cell in &mut grid[y * code.size + x..y * code.size + x + run] {
                assert!(!*cell, "rectangles overlap");
                *cell = true;
            }
        }
        grid
    }

    /// Decodes the drawn code with an independent reader (rqrr), with the quiet zone and 4 pixels per module.
    fn read_back(code: &QrCode) -> String {
        let grid = modules(code);
        let (scale, margin) = (4, 4);
        let side = (code.size + 2 * margin) * scale;
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(side, side, |x, y| {
            let (mx, my) = ((x / scale).wrapping_sub(margin), (y / scale).wrapping_sub(margin));
            let dark = mx < code.size && my < code.size && grid[my * code.size + mx];
            if dark {
                0
            } else {
                255
            }
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one code in the picture");
        grids[0].decode().expect("decodes").1
    }

    #[test]
    fn a_pairing_uri_reads_back() {
        let uri = "wc:7f6e504bfad60b485450578e05678ed3e8e8c4751d3c6160be17160d63ec90f9@2?relay-protocol=irn&symKey=587d5484ce2a2a6ee3ba1962fdd7e8588e06200c46823bd18fbd67def96ad303&expiryTimestamp=1700000300&methods=wc_sessionPropose";
        let code = encode(uri).unwrap();
        // 213 bytes: exactly version 10's byte-mode capacity at level M.
        assert_eq!(code.size, 57, "version 10 at level M");
        assert_eq!(read_back(&code), uri);
    }

    /// Versions past the proptest's (version information, many blocks of
    /// two lengths), up to the largest code.
    #[test]
    fn large_codes_read_back() {
        for len in [214, 500, 1_000, 1_700, 2_331] {
            let text: String = (0..len).map(|i| char::from(b'!' + (i * 7 % 90) as u8)).collect();
            let code = encode(&text).unwrap();
            assert_eq!(read_back(&code), text, "{len} bytes");
        }
        assert_eq!(encode(&"x".repeat(2_331)).unwrap().size, 177, "version 40");
    }

    #[test]
    fn too_long_is_an_error() {
        let err = encode(&"x".repeat(3_000)).unwrap_err();
        assert!(err.to_string().starts_with("Invalid QR code text: "), "{err}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn any_text_reads_back(text in "\\PC{0,120}") {
            let code = encode(&text).unwrap();
            prop_assert_eq!((code.size - 17) % 4, 0, "a QR size is 17 + 4 × version");
            prop_assert_eq!(read_back(&code), text);
        }
    }
}
