//! QR codes for pairing links (behaviour 1.1 ConnectingWalletConnect): byte mode,
//! error-correction level M (15 % of the code may be covered or smudged and
//! it still reads), the smallest version that fits, the mask with the lowest
//! penalty. Written from ISO/IEC 18004 for size: the general-purpose encoder
//! it replaces was about 11 kB of the browser module for the one mode and
//! level a pairing link needs (BENCHMARKS.md).

/// Error-correction codewords per block at level M, versions 1 to 40 (ISO/IEC 18004, table 9).
const ECC_PER_BLOCK: [u8; 40] = [
    10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28, 28, 28, 28, 28,
    28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
];

/// Error-correction blocks at level M, versions 1 to 40 (the same table).
const BLOCKS: [u8; 40] = [
    1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28, 29, 31, 33,
    35, 37, 38, 40, 43, 45, 47, 49,
];

/// The most bytes a code can hold (version 40 at level M).
pub const MAX_BYTES: usize = 2331;

/// A QR code's modules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QrMatrix {
    /// Modules per side (17 + 4 × version), without the quiet zone.
    pub size: usize,
    /// Row by row, `true` for dark.
    pub modules: Vec<bool>,
}

/// Encodes `data`; `None` when it is longer than [`MAX_BYTES`].
pub fn encode(data: &[u8]) -> Option<QrMatrix> {
    let version = (1..=40).find(|&v| 4 + count_bits(v) + 8 * data.len() <= 8 * data_codewords(v))?;
    let mut code = Canvas::new(version);
    code.draw_function_patterns();
    code.draw_codewords(&add_error_correction(version, &data_bits(version, data)));
    let mask = (0..8)
        .min_by_key(|&mask| {
            code.apply_mask(mask);
            code.draw_format(mask);
            let penalty = code.penalty();
            code.apply_mask(mask);
            penalty
        })
        .unwrap_or(0);
    code.apply_mask(mask);
    code.draw_format(mask);
    Some(QrMatrix {
        size: code.size,
        modules: code.modules,
    })
}

/// Bits of the byte count in byte mode.
fn count_bits(version: usize) -> usize {
    if version <= 9 {
        8
    } else {
        16
    }
}

/// Modules left for data and error correction once the function patterns are drawn.
fn raw_modules(version: usize) -> usize {
    let mut modules = (16 * version + 128) * version + 64;
    if version >= 2 {
        let aligns = version / 7 + 2;
        modules -= (25 * aligns - 10) * aligns - 55;
        if version >= 7 {
            modules -= 36;
        }
    }
    modules
}

fn data_codewords(version: usize) -> usize {
    raw_modules(version) / 8 - usize::from(ECC_PER_BLOCK[version - 1]) * usize::from(BLOCKS[version - 1])
}

/// Mode, count, the bytes, the terminator and the pad codewords.
fn data_bits(version: usize, data: &[u8]) -> Vec<u8> {
    let capacity = data_codewords(version);
    let mut bits = Bits::default();
    bits.push(0b0100, 4);
    bits.push(data.len() as u32, count_bits(version));
    for &byte in data {
        bits.push(u32::from(byte), 8);
    }
    bits.push(0, (capacity * 8 - bits.len).min(4));
    bits.push(0, (8 - bits.len % 8) % 8);
    for pad in [0xec, 0x11].into_iter().cycle().take(capacity - bits.bytes.len()) {
        bits.push(pad, 8);
    }
    bits.bytes
}

#[derive(Default)]
struct Bits {
    bytes: Vec<u8>,
    len: usize,
}

impl Bits {
    /// Appends the low `count` bits of `value`, most significant first.
    fn push(&mut self, value: u32, count: usize) {
        for i in (0..count).rev() {
            if self.len % 8 == 0 {
                self.bytes.push(0);
            }
            if (value >> i) & 1 == 1 {
                self.bytes[self.len / 8] |= 0x80 >> (self.len % 8);
            }
            self.len += 1;
        }
    }
}

/// Splits the data into blocks, adds each block's Reed–Solomon codewords and
/// interleaves them as the symbol carries them.
fn add_error_correction(version: usize, data: &[u8]) -> Vec<u8> {
    let blocks = usize::from(BLOCKS[version - 1]);
    let ecc_len = usize::from(ECC_PER_BLOCK[version - 1]);
    let total = raw_modules(version) / 8;
    let short_blocks = blocks - total % blocks;
    let short_data = total / blocks - ecc_len;
    let divisor = rs_divisor(ecc_len);
    let mut split = Vec::with_capacity(blocks);
    let mut rest = data;
    for block in 0..blocks {
        let (part, after) = rest.split_at(short_data + usize::from(block >= short_blocks));
        split.push((part, rs_remainder(part, &divisor)));
        rest = after;
    }
    let mut out = Vec::with_capacity(total);
    for i in 0..=short_data {
        out.extend(split.iter().filter_map(|(part, _)| part.get(i)));
    }
    for i in 0..ecc_len {
        out.extend(split.iter().map(|(_, ecc)| ecc[i]));
    }
    out
}

/// Product in GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
fn gf_mul(x: u8, y: u8) -> u8 {
    let mut z: u16 = 0;
    for i in (0..8).rev() {
        z = (z << 1) ^ ((z >> 7) * 0x11d);
        z ^= u16::from((y >> i) & 1) * u16::from(x);
    }
    z as u8
}

/// The generator polynomial of degree `degree`, highest coefficient (1) left out.
fn rs_divisor(degree: usize) -> Vec<u8> {
    let mut result = vec![0; degree];
    result[degree - 1] = 1;
    let mut root = 1;
    for _ in 0..degree {
        for j in 0..degree {
            result[j] = gf_mul(result[j], root);
            if j + 1 < degree {
                result[j] ^= result[j + 1];
            }
        }
        root = gf_mul(root, 2);
    }
    result
}

fn rs_remainder(data: &[u8], divisor: &[u8]) -> Vec<u8> {
    let mut result = vec![0; divisor.len()];
    for &byte in data {
        let factor = byte ^ result.remove(0);
        result.push(0);
        for (r, &d) in result.iter_mut().zip(divisor) {
            *r ^= gf_mul(d, factor);
        }
    }
    result
}

struct Canvas {
    version: usize,
    size: usize,
    modules: Vec<bool>,
    /// Finder, timing, alignment, format and version modules: not data, not masked.
    function: Vec<bool>,
}

impl Canvas {
    fn new(version: usize) -> Self {
        let size = 4 * version + 17;
        Self {
            version,
            size,
            modules: vec![false; size * size],
            function: vec![false; size * size],
        }
    }

    fn set(&mut self, x: usize, y: usize, dark: bool) {
        let i = y * self.size + x;
        self.modules[i] = dark;
        self.function[i] = true;
    }

    fn draw_function_patterns(&mut self) {
        let size = self.size;
        for i in 0..size {
            self.set(6, i, i % 2 == 0);
            self.set(i, 6, i % 2 == 0);
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            self.draw_square(x, y, 4, |d| d != 2 && d != 4);
        }
        let aligns = self.alignment_positions();
        let last = aligns.len().saturating_sub(1);
        for (i, &x) in aligns.iter().enumerate() {
            for (j, &y) in aligns.iter().enumerate() {
                // The three corners with a finder pattern have none.
                let finder_corner = (i == 0 && (j == 0 || j == last)) || (i == last && j == 0);
                if !finder_corner {
                    self.draw_square(x, y, 2, |d| d != 1);
                }
            }
        }
        // Reserve the format modules (drawn for real once the mask is chosen).
        self.draw_format(0);
        if self.version >= 7 {
            let mut rem = self.version as u32;
            for _ in 0..12 {
                rem = (rem << 1) ^ ((rem >> 11) * 0x1f25);
            }
            let bits = (self.version as u32) << 12 | rem;
            for i in 0..18 {
                let dark = (bits >> i) & 1 == 1;
                let (a, b) = (size - 11 + i % 3, i / 3);
                self.set(a, b, dark);
                self.set(b, a, dark);
            }
        }
    }

    /// The square of `radius` around (`x`, `y`), dark where `dark(distance)`
    /// (Chebyshev distance from the centre), clipped to the symbol.
    fn draw_square(&mut self, x: usize, y: usize, radius: usize, dark: impl Fn(usize) -> bool) {
        for dy in 0..=2 * radius {
            for dx in 0..=2 * radius {
                let (px, py) = ((x + dx).wrapping_sub(radius), (y + dy).wrapping_sub(radius));
                if px < self.size && py < self.size {
                    self.set(px, py, dark(dx.abs_diff(radius).max(dy.abs_diff(radius))));
                }
            }
        }
    }

    fn alignment_positions(&self) -> Vec<usize> {
        if self.version == 1 {
            return Vec::new();
        }
        let aligns = self.version / 7 + 2;
        let step = (self.version * 8 + aligns * 3 + 5) / (aligns * 4 - 4) * 2;
        let mut positions: Vec<usize> = (0..aligns - 1).map(|i| self.size - 7 - i * step).collect();
        positions.push(6);
        positions.reverse();
        positions
    }

    /// The two copies of the format information (level M, `mask`) and the dark module.
    fn draw_format(&mut self, mask: u32) {
        let data = mask; // level M's two bits are 00
        let mut rem = data;
        for _ in 0..10 {
            rem = (rem << 1) ^ ((rem >> 9) * 0x537);
        }
        let bits = (data << 10 | rem) ^ 0x5412;
        let bit = |i: usize| (bits >> i) & 1 == 1;
        let size = self.size;
        for i in 0..6 {
            self.set(8, i, bit(i));
        }
        self.set(8, 7, bit(6));
        self.set(8, 8, bit(7));
        self.set(7, 8, bit(8));
        for i in 9..15 {
            self.set(14 - i, 8, bit(i));
        }
        for i in 0..8 {
            self.set(size - 1 - i, 8, bit(i));
        }
        for i in 8..15 {
            self.set(8, size - 15 + i, bit(i));
        }
        self.set(8, size - 8, true);
    }

    /// The codewords in the two-column zigzag, bottom right first, skipping function modules.
    fn draw_codewords(&mut self, codewords: &[u8]) {
        let size = self.size;
        let mut bit = 0;
        let mut right = size - 1;
        loop {
            for vert in 0..size {
                for x in [right, right - 1] {
                    let upward = (right + 1) & 2 == 0;
                    let y = if upward { size - 1 - vert } else { vert };
                    let i = y * size + x;
                    if !self.function[i] && bit < codewords.len() * 8 {
                        self.modules[i] = (codewords[bit / 8] >> (7 - bit % 8)) & 1 == 1;
                        bit += 1;
                    }
                }
            }
            if right < 3 {
                break;
            }
            // The vertical timing pattern takes column 6 out of the zigzag.
            right = if right == 8 { 5 } else { right - 2 };
        }
    }

    /// XORs mask `mask` onto the data modules (applying it twice undoes it).
    fn apply_mask(&mut self, mask: u32) {
        for y in 0..self.size {
            for x in 0..self.size {
                let flip = match mask {
                    0 => (x + y) % 2 == 0,
                    1 => y % 2 == 0,
                    2 => x % 3 == 0,
                    3 => (x + y) % 3 == 0,
                    4 => (x / 3 + y / 2) % 2 == 0,
                    5 => x * y % 2 + x * y % 3 == 0,
                    6 => (x * y % 2 + x * y % 3) % 2 == 0,
                    _ => ((x + y) % 2 + x * y % 3) % 2 == 0,
                };
                let i = y * self.size + x;
                self.modules[i] ^= flip && !self.function[i];
            }
        }
    }

    /// The standard's penalty score: long runs, 2 × 2 blocks, finder-like
    /// patterns and an unbalanced share of dark modules all cost.
    fn penalty(&self) -> usize {
        let size = self.size;
        let at = |x: usize, y: usize| self.modules[y * size + x];
        let mut penalty = 0;
        for transposed in [false, true] {
            for a in 0..size {
                let line: Vec<bool> = (0..size)
                    .map(|b| if transposed { at(a, b) } else { at(b, a) })
                    .collect();
                let mut run = 1;
                for b in 1..=size {
                    if b < size && line[b] == line[b - 1] {
                        run += 1;
                        continue;
                    }
                    if run >= 5 {
                        penalty += run - 2;
                    }
                    run = 1;
                }
                const FINDER: [bool; 7] = [true, false, true, true, true, false, true];
                for b in 0..size.saturating_sub(6) {
                    if line[b..b + 7] == FINDER {
                        let light = |range: std::ops::Range<usize>| range.into_iter().all(|i| !line[i]);
                        if (b >= 4 && light(b - 4..b)) || (b + 11 <= size && light(b + 7..b + 11)) {
                            penalty += 40;
                        }
                    }
                }
            }
        }
        for y in 0..size - 1 {
            for x in 0..size - 1 {
                let c = at(x, y);
                if c == at(x + 1, y) && c == at(x, y + 1) && c == at(x + 1, y + 1) {
                    penalty += 3;
                }
            }
        }
        let total = size * size;
        let dark = self.modules.iter().filter(|&&d| d).count();
        // 10 for each full 5 % the dark share is away from 50 %.
        penalty + (dark * 20).abs_diff(total * 10) / total * 10
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capacities_match_the_standard() {
        // Byte-mode capacities at level M from ISO/IEC 18004 table 7.
        for (version, bytes) in [(1, 14), (2, 26), (7, 122), (10, 213), (11, 251), (40, 2331)] {
            let bits = 8 * data_codewords(version) - 4 - count_bits(version);
            assert_eq!(bits / 8, bytes, "version {version}");
        }
        assert_eq!(encode(&[b'x'; MAX_BYTES]).map(|c| c.size), Some(177));
        assert_eq!(encode(&[b'x'; MAX_BYTES + 1]), None);
    }

    #[test]
    fn reed_solomon_matches_a_known_block() {
        // Version 1-M "01234567" (numeric mode) from the standard's annex I: its 16 data codewords' ECC.
        let data = [16, 32, 12, 86, 97, 128, 236, 17, 236, 17, 236, 17, 236, 17, 236, 17];
        assert_eq!(
            rs_remainder(&data, &rs_divisor(10)),
            [165, 36, 212, 193, 237, 54, 199, 135, 44, 85]
        );
    }
}
