//! `vectors/link.json` against latch-core (behaviour 2.7).

mod common;

use common::text;
use latch_core::link;
use serde_json::json;

#[test]
fn link_vectors() {
    common::check_file(
        include_str!("../vectors/link.json"),
        &[
            ("buildNativeDeepLink", |a| {
                Ok(json!(link::build_native_deep_link(text(a, 0), text(a, 1))?))
            }),
            ("buildUniversalLink", |a| {
                Ok(json!(link::build_universal_link(text(a, 0), text(a, 1))?))
            }),
        ],
    );
}
