//! `vectors/history.json` against latch-core (behaviour 1.17, 5.13).

mod common;

use common::{check_file, millis, records, text, to_array};
use latch_core::history::{self, Transaction};
use serde_json::{json, Value};

#[test]
fn history_vectors() {
    check_file(
        include_str!("../vectors/history.json"),
        &[
            ("groupTransactionsByYearMonth", |a| {
                let transactions = records::<Transaction>("transactions", "transaction", &a[0])?;
                let offset = a.get(2).and_then(Value::as_i64).unwrap_or(0) as i32;
                let groups = history::group_by_year_month(transactions, millis(a, 1), offset)?;
                Ok(groups
                    .into_iter()
                    .map(|g| json!({"year": g.year, "month": g.month, "label": g.label, "currentYear": g.current_year, "transactions": to_array(g.transactions)}))
                    .collect())
            }),
            ("filterTransactions", |a| {
                let transactions = records::<Transaction>("transactions", "transaction", &a[0])?;
                Ok(to_array(history::filter_transactions(transactions, text(a, 1))?))
            }),
        ],
    );
}
