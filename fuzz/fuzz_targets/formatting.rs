//! The formatting rules on arbitrary input: none may panic, decimals print
//! back to what they parse from, and grouping only inserts commas.
#![no_main]

use latch_core::format::{self, Decimal};
use latch_core::history::{self, Transaction, TransactionMetadata};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let decimals = data.first().copied().unwrap_or(2);
    if let Ok(value) = text.parse::<Decimal>() {
        assert_eq!(value.to_string().parse::<Decimal>().as_ref(), Ok(&value));
        let shown = format::format_number(&value, decimals);
        assert!(shown.replace(',', "").parse::<Decimal>().is_ok(), "{shown}");
        let _ = format::format_value(Some(&value));
        let _ = format::format_quantity(&value, text);
    }
    if let Some(ms) = format::parse_iso_date(text) {
        let _ = format::format_relative_time(ms, i64::from_le_bytes(first_eight(data)));
    }
    let transaction = Transaction {
        metadata: TransactionMetadata {
            mined_at: text.to_owned(),
            chain: text.to_owned(),
        },
        transfers: Vec::new(),
    };
    let offset = i32::from(i16::from_le_bytes([data.first().copied().unwrap_or(0), data.get(1).copied().unwrap_or(0)]));
    let _ = history::group_by_year_month(vec![transaction.clone()], i64::from_le_bytes(first_eight(data)), offset);
    let _ = history::filter_transactions(vec![transaction], text);
});

/// The first 8 bytes of `data`, zero-padded.
fn first_eight(data: &[u8]) -> [u8; 8] {
    let mut bytes = [0; 8];
    let n = data.len().min(8);
    bytes[..n].copy_from_slice(&data[..n]);
    bytes
}
