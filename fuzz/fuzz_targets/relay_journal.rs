//! The relay journal's rows as read back from SQLite (`store::journal`): a
//! damaged row is refused, never a panic or an allocation it does not back.
#![no_main]

use latch_server::store::journal;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let full = journal::decode(data);
    let some = journal::decode_messages(data, &[0, 2, 3]);
    // Whatever reads whole reads in part, and the same.
    if let Ok(row) = full {
        let wanted: Vec<_> = [0, 2, 3]
            .into_iter()
            .filter_map(|p| row.messages.get(p).map(|m| (p, *m)))
            .collect();
        assert_eq!(some, Ok(wanted));
    }
});
