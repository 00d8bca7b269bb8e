//! `vectors/format.json` against latch-core (spec §5).

mod common;

use common::{check_file, opt_text, text};
use latch_core::format;
use serde_json::json;

#[test]
fn format_vectors() {
    check_file(
        include_str!("../vectors/format.json"),
        &[
            ("formatUnits", |a| {
                Ok(json!(format::format_units(text(a, 0), a[1].as_u64().unwrap() as u8)?))
            }),
            ("formatBalance", |a| {
                Ok(json!(format::format_balance(opt_text(a, 0), opt_text(a, 1))?))
            }),
            ("truncateAddress", |a| Ok(json!(format::truncate_address(text(a, 0))))),
        ],
    );
}
