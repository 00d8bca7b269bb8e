//! `vectors/format.json` against latch-core (behaviour 1.16, 7.12).

mod common;

use common::{check_file, decimal, millis, opt_text, required_decimal, text};
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
            ("formatNumber", |a| {
                let decimals = a
                    .get(1)
                    .and_then(|d| d.as_u64())
                    .map_or(format::DEFAULT_NUMBER_DECIMALS, |d| d as u8);
                Ok(json!(format::format_number(
                    &decimal(a, 0)?.unwrap_or_default(),
                    decimals
                )))
            }),
            ("formatValue", |a| {
                Ok(json!(format::format_value(decimal(a, 0)?.as_ref())))
            }),
            ("formatQuantity", |a| {
                Ok(json!(format::format_quantity(&required_decimal(a, 0)?, text(a, 1))?))
            }),
            ("formatRelativeTime", |a| {
                Ok(json!(format::format_relative_time(millis(a, 0), millis(a, 1))))
            }),
        ],
    );
}
