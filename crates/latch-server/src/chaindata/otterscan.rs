//! History where the indexer does not run: the chain's own node answers
//! through the Otterscan API (`ots_searchTransactionsBefore`, served by
//! Erigon, Reth and Anvil), read on the gateway's internal path. Its pages
//! hold whole blocks of the address's transactions with their receipts, which
//! become the same transfer records the indexer keeps.

use alloy_primitives::U256;
use axum::body::Bytes;
use serde_json::{json, Value};

use crate::gateway::Gateway;
use crate::indexer::{decode_log, hex_u256, hex_u64, TxInfo};
use crate::store::Transfer;

/// One page of a node's search.
#[derive(Debug, Default, PartialEq)]
pub struct Page {
    /// Every transfer of the page's transactions, newest transaction first.
    pub transfers: Vec<Transfer>,
    /// The block the next page ends before; `None` on the last page.
    pub next_before: Option<u64>,
}

/// The address's transactions in blocks before `before` (`0`: from the head),
/// at least `page_size` of them unless the history ends; `None` when the
/// node does not serve the Otterscan API (or answers it unreadably).
pub async fn search_before(gateway: &Gateway, chain: &str, address: &str, before: u64, page_size: u32) -> Option<Page> {
    let request = json!({"jsonrpc": "2.0", "id": 1, "method": "ots_searchTransactionsBefore",
                         "params": [address, before, page_size]});
    let reply = gateway
        .call_internal(chain, Bytes::from(request.to_string()))
        .await
        .ok()?;
    let answer: Value = serde_json::from_slice(&reply.0).ok()?;
    page_of(chain, &answer["result"])
}

/// The transfers of an `ots_searchTransactions*` result: `txs[i]` (with
/// `blockTimestamp`) goes with `receipts[i]` (with its logs and status).
pub fn page_of(chain: &str, result: &Value) -> Option<Page> {
    let txs = result["txs"].as_array()?;
    let receipts = result["receipts"].as_array()?;
    if txs.len() != receipts.len() {
        return None;
    }
    let mut transfers = Vec::new();
    let mut oldest: Option<u64> = None;
    for (tx, receipt) in txs.iter().zip(receipts) {
        // Where the transaction was mined: Anvil leaves it null on the newest block's
        // transactions, and their receipts carry it.
        let mined = |field: &str| hex_u64(&tx[field]).or_else(|| hex_u64(&receipt[field]));
        let block = mined("blockNumber")?;
        oldest = Some(oldest.map_or(block, |o| o.min(block)));
        let time = hex_u64(&tx["blockTimestamp"]).or_else(|| hex_u64(&receipt["timestamp"]))?;
        let info = TxInfo {
            block: i64::try_from(block).ok()?,
            time: i64::try_from(time).ok()?,
            index: i64::try_from(mined("transactionIndex")?).ok()?,
            nonce: i64::try_from(hex_u64(&tx["nonce"]).unwrap_or_default()).ok()?,
            from: tx["from"].as_str()?.to_lowercase(),
            to: tx["to"].as_str().map(str::to_lowercase),
        };
        let hash = tx["hash"].as_str()?;
        let success = receipt["status"].as_str() == Some("0x1");
        let value = tx["value"].as_str().and_then(hex_u256).unwrap_or(U256::ZERO);
        if !value.is_zero() {
            transfers.push(info.transfer(chain, hash, info.native(value, receipt), None, success));
        }
        for log in receipt["logs"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let token = log["address"].as_str().map(str::to_lowercase);
            for item in decode_log(log) {
                transfers.push(info.transfer(chain, hash, item, token.clone(), success));
            }
        }
    }
    // Newest first, as the index answers; a transaction's own transfers in log order.
    transfers.sort_by(|a, b| {
        (b.block_number, b.tx_index)
            .cmp(&(a.block_number, a.tx_index))
            .then(a.log_index.cmp(&b.log_index))
    });
    let last = result["lastPage"].as_bool().unwrap_or(true);
    Some(Page {
        transfers,
        next_before: oldest.filter(|&block| !last && block > 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FROM: &str = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
    const TO: &str = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";

    fn tx(hash: &str, block: u64, value: &str) -> Value {
        json!({"hash": hash, "blockNumber": format!("0x{block:x}"), "blockTimestamp": "0x6b08f147",
               "transactionIndex": "0x0", "nonce": "0x3", "from": FROM, "to": TO, "value": value})
    }

    #[test]
    fn value_and_token_transfers_newest_first() {
        let erc20 = json!({"address": "0x5FbDB2315678afecb367f032d93F642f64180aa3", "logIndex": "0x0",
            "topics": ["0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
                       format!("0x000000000000000000000000{}", &FROM[2..]),
                       format!("0x000000000000000000000000{}", &TO[2..])],
            "data": format!("0x{:064x}", 1_500_000u64)});
        let result = json!({
            "txs": [tx("0xbb", 7, "0x0"), tx("0xaa", 3, "0x10")],
            "receipts": [{"status": "0x1", "logs": [erc20]}, {"status": "0x1", "logs": []}],
            "firstPage": true, "lastPage": false,
        });
        let page = page_of("eip155:31337", &result).unwrap();
        let summary: Vec<(&str, &str, &str, i64)> = page
            .transfers
            .iter()
            .map(|t| (t.tx_hash.as_str(), t.kind.as_str(), t.amount.as_str(), t.block_number))
            .collect();
        assert_eq!(summary, [("0xbb", "erc20", "1500000", 7), ("0xaa", "native", "16", 3)]);
        assert_eq!(
            page.transfers[0].token.as_deref(),
            Some("0x5fbdb2315678afecb367f032d93f642f64180aa3")
        );
        assert_eq!(
            (page.transfers[1].sender.as_str(), page.transfers[1].recipient.as_str()),
            (FROM, TO)
        );
        assert_eq!(page.transfers[1].mined_at, 0x6b08f147);
        assert_eq!(
            page.next_before,
            Some(3),
            "the next page ends before the oldest block read"
        );
    }

    /// Anvil's newest block: the transaction's own `blockNumber` and `transactionIndex` are
    /// null; its receipt has them (seen with 10,000 transfers from one account).
    #[test]
    fn where_it_was_mined_comes_from_the_receipt_when_the_transaction_lacks_it() {
        let mut newest = tx("0xdd", 0, "0x5");
        newest["blockNumber"] = Value::Null;
        newest["transactionIndex"] = Value::Null;
        let result = json!({"txs": [newest, tx("0xcc", 8, "0x5")],
            "receipts": [{"status": "0x1", "logs": [], "blockNumber": "0x9", "transactionIndex": "0x2"},
                         {"status": "0x1", "logs": []}],
            "lastPage": true});
        let page = page_of("eip155:1", &result).unwrap();
        let mined: Vec<(&str, i64, i64)> = page
            .transfers
            .iter()
            .map(|t| (t.tx_hash.as_str(), t.block_number, t.tx_index))
            .collect();
        assert_eq!(mined, [("0xdd", 9, 2), ("0xcc", 8, 0)]);
    }

    #[test]
    fn a_failed_transaction_and_the_last_page() {
        let result = json!({"txs": [tx("0xcc", 2, "0x5")], "receipts": [{"status": "0x0", "logs": []}],
                            "lastPage": true});
        let page = page_of("eip155:1", &result).unwrap();
        assert!(!page.transfers[0].success);
        assert_eq!(page.next_before, None);
    }

    #[test]
    fn malformed_answers_are_refused_not_guessed() {
        for result in [
            json!(null),
            json!({"txs": [tx("0xcc", 2, "0x5")], "receipts": []}),
            json!({"txs": [{"hash": "0xcc"}], "receipts": [{}]}),
        ] {
            assert_eq!(page_of("eip155:1", &result), None, "{result}");
        }
    }
}
