//! The Activity tab's history rules (latch_core::history). Callers get their
//! own transaction objects back, filtered or grouped, never copies.

use js_sys::Array;
use latch_core::history::{self, Transaction};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::input::{millis, records, to_array};
use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A history transaction as the account history API returns it (metadata camelCase, transfers snake_case). */
export interface Transaction {
  id: string;
  metadata: {
    operationType: string;
    hash: string;
    /** ISO 8601 date. */
    minedAt: string;
    sentFrom: string;
    /** `null` for a contract creation. */
    sentTo: string | null;
    status: 'confirmed' | 'failed' | 'pending';
    nonce: number;
    /** CAIP-2 id, e.g. `eip155:1`. */
    chain: string;
    application?: { name?: string; iconUrl?: string } | null;
    /** The on-ramp provider that delivered it (a purchase), as `latch` marks it; absent or null otherwise. */
    onramp?: string | null;
  };
  transfers: TransactionTransfer[];
}
export interface TransactionTransfer {
  fungible_info?: { name?: string; symbol?: string; icon?: { url: string } | null } | null;
  nft_info?: {
    name?: string;
    content?: { preview?: { url: string; content_type?: string } } | null;
    flags?: { is_spam: boolean };
  } | null;
  direction?: 'in' | 'out' | 'self';
  quantity: { numeric: string };
  /** USD; absent or `null` without a price. */
  value?: number | null;
  price?: number | null;
}
/** The transactions of one month; `label` is `March` this year, `March 2023` before. */
export interface TransactionGroup {
  year: number;
  /** 1 = January … 12 = December. */
  month: number;
  label: string;
  /** The month is in the current year: a heading shows no year. */
  currentYear: boolean;
  transactions: Transaction[];
}
"#;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Group {
    year: i64,
    month: u8,
    label: String,
    current_year: bool,
    #[serde(with = "serde_wasm_bindgen::preserve")]
    transactions: Array,
}

/// Groups by mined month, newest first; within a month, input order. Months
/// are taken `utcOffsetMinutes` from UTC (default 0; pass
/// `-new Date().getTimezoneOffset()` for the viewer's zone).
#[wasm_bindgen(js_name = groupTransactionsByYearMonth, unchecked_return_type = "TransactionGroup[]")]
pub fn group_transactions_by_year_month(
    #[wasm_bindgen(unchecked_param_type = "Transaction[]")] transactions: JsValue,
    #[wasm_bindgen(js_name = "nowMs")] now_ms: f64,
    #[wasm_bindgen(js_name = "utcOffsetMinutes")] utc_offset_minutes: Option<i32>,
) -> Result<JsValue, JsValue> {
    let transactions = records::<Transaction>("transactions", "transaction", &transactions)?;
    let groups = history::group_by_year_month(transactions, millis(now_ms)?, utc_offset_minutes.unwrap_or(0))
        .map_err(js_error)?;
    let groups: Vec<Group> = groups
        .into_iter()
        .map(|group| Group {
            year: group.year,
            month: group.month,
            label: group.label,
            current_year: group.current_year,
            transactions: to_array(group.transactions),
        })
        .collect();
    to_js(&groups)
}

/// The transactions of the connected chain that are not all spam NFTs.
#[wasm_bindgen(js_name = filterTransactions, unchecked_return_type = "Transaction[]")]
pub fn filter_transactions(
    #[wasm_bindgen(unchecked_param_type = "Transaction[]")] transactions: JsValue,
    #[wasm_bindgen(js_name = "caipNetworkId")] caip_network_id: &str,
) -> Result<JsValue, JsValue> {
    let transactions = records::<Transaction>("transactions", "transaction", &transactions)?;
    let kept = history::filter_transactions(transactions, caip_network_id).map_err(js_error)?;
    Ok(to_array(kept).into())
}
