//! The transaction-history indexer (behaviour 6.6 history): follows EVM chains over
//! JSON-RPC through the gateway and records native value transfers and token
//! transfers (ERC-20 and ERC-721 `Transfer`, ERC-1155 `TransferSingle` /
//! `TransferBatch`) for `/v1/account/{address}/history`.
//!
//! Each step reads up to `batch` blocks (one JSON-RPC batch of blocks, one
//! `eth_getLogs` over the range, one batch of receipts for value transfers)
//! and records them in one store transaction. Before extending, it checks
//! that the next block's parent is the block it recorded last; when not, the
//! chain has reorganised and it rewinds until its record agrees with the
//! chain again. Blocks within `confirmations` of the head are left for later.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use alloy_primitives::U256;
use axum::body::Bytes;
use serde_json::{json, Value};

use crate::gateway::Gateway;
use crate::metrics::Metrics;
use crate::store::{IndexStore, StoreError, Transfer};

/// keccak256("Transfer(address,address,uint256)"): ERC-20 (3 topics) and ERC-721 (4 topics).
const TRANSFER_TOPIC: &str = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/// keccak256("TransferSingle(address,address,address,uint256,uint256)").
const TRANSFER_SINGLE_TOPIC: &str = "0xc3d58168c5ae7397731d063d5bbf3d657854427343f4c083240f7aacaa2d0f62";
/// keccak256("TransferBatch(address,address,address,uint256[],uint256[])").
const TRANSFER_BATCH_TOPIC: &str = "0x4a39dc06d4c0dbc64b70af90fd698a233a518aa5d07e595d983b8c0526c8f7fb";

/// Why a step failed.
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The chain's node refused or answered something unreadable.
    #[error("chain {chain}: {reason}")]
    Chain {
        /// CAIP-2 id.
        chain: String,
        /// What went wrong.
        reason: String,
    },
    /// Recording failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Result of an indexer step.
pub type Result<T> = std::result::Result<T, IndexError>;

/// Follows one chain.
pub struct Indexer {
    metrics: Option<Metrics>,
    gateway: Arc<Gateway>,
    store: Arc<dyn IndexStore>,
    chain: String,
    confirmations: u64,
    batch: u64,
    /// The block an empty index starts at; `None`: the confirmed head.
    start: Option<u64>,
}

/// What one step did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// Blocks recorded.
    pub blocks: u64,
    /// Transfers recorded.
    pub transfers: u64,
    /// Blocks forgotten because the chain reorganised.
    pub rewound: u64,
}

pub(crate) fn hex_u64(value: &Value) -> Option<u64> {
    u64::from_str_radix(value.as_str()?.trim_start_matches("0x"), 16).ok()
}

pub(crate) fn hex_u256(value: &str) -> Option<U256> {
    let digits = value.trim_start_matches("0x");
    if digits.is_empty() {
        return Some(U256::ZERO);
    }
    U256::from_str_radix(digits, 16).ok()
}

/// The address in a 32-byte topic, lower case.
fn topic_address(topic: &Value) -> Option<String> {
    let topic = topic.as_str()?;
    (topic.len() == 66).then(|| format!("0x{}", &topic[26..]).to_lowercase())
}

impl Indexer {
    /// An indexer of `chain` (a gateway chain) writing to `store`.
    pub fn new(
        gateway: Arc<Gateway>,
        store: Arc<dyn IndexStore>,
        chain: String,
        confirmations: u64,
        batch: u64,
    ) -> Self {
        Self {
            metrics: None,
            gateway,
            store,
            chain,
            confirmations,
            batch: batch.max(1),
            start: Some(0),
        }
    }

    /// Where an empty index starts: a block, or `None` for the chain's confirmed
    /// head when indexing begins (the default of [`Indexer::new`] is block 0).
    pub fn starting_at(mut self, start: Option<u64>) -> Self {
        self.start = start;
        self
    }

    /// Reports progress as `latch_indexed_block{chain}` and `latch_indexer_lag_blocks{chain}` on `metrics`.
    pub fn with_metrics(mut self, metrics: Metrics) -> Self {
        self.metrics = Some(metrics);
        self
    }

    fn report(&self, indexed: u64, head: u64) {
        if let Some(metrics) = &self.metrics {
            let labels = format!("chain=\"{}\"", self.chain);
            metrics.set_gauge(
                "latch_indexed_block",
                "Highest block the history indexer recorded.",
                &labels,
                indexed as f64,
            );
            metrics.set_gauge(
                "latch_indexer_lag_blocks",
                "Blocks between the chain head and the indexer.",
                &labels,
                head.saturating_sub(indexed) as f64,
            );
        }
    }

    fn fail(&self, reason: impl std::fmt::Display) -> IndexError {
        IndexError::Chain {
            chain: self.chain.clone(),
            reason: reason.to_string(),
        }
    }

    /// Sends `requests` as one JSON-RPC batch; the results in request order.
    async fn batch_call(&self, requests: Vec<(&str, Value)>) -> Result<Vec<Value>> {
        if requests.is_empty() {
            return Ok(Vec::new());
        }
        let body: Vec<Value> = requests
            .iter()
            .enumerate()
            .map(|(id, (method, params))| json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .collect();
        let reply = self
            .gateway
            .call_internal(&self.chain, Bytes::from(Value::Array(body).to_string()))
            .await
            .map_err(|e| self.fail(e))?;
        let answers: Vec<Value> = serde_json::from_slice(&reply.0).map_err(|e| self.fail(e))?;
        let mut results = vec![Value::Null; requests.len()];
        for answer in answers {
            if let Some(error) = answer.get("error") {
                return Err(self.fail(format!("{} failed: {error}", requests[0].0)));
            }
            let id = answer["id"].as_u64().filter(|&id| (id as usize) < results.len());
            let id = id.ok_or_else(|| self.fail("a batch answer with an unknown id"))? as usize;
            results[id] = answer["result"].clone();
        }
        Ok(results)
    }

    async fn call(&self, method: &str, params: Value) -> Result<Value> {
        Ok(self.batch_call(vec![(method, params)]).await?.remove(0))
    }

    /// The chain's hash of block `number`.
    async fn chain_hash(&self, number: u64) -> Result<Option<String>> {
        let block = self
            .call("eth_getBlockByNumber", json!([format!("0x{number:x}"), false]))
            .await?;
        Ok(block["hash"].as_str().map(str::to_owned))
    }

    /// Forgets recorded blocks from the tip down until the record agrees with the chain.
    async fn rewind(&self) -> Result<u64> {
        // Another genesis is another chain (a devnet started over): the whole record
        // goes at once, quietly, instead of block by block under a reorganisation warning.
        if let Some(genesis) = self.store.indexed_hash(&self.chain, 0).await? {
            if self.chain_hash(0).await?.as_deref() != Some(genesis.as_str()) {
                let recorded = self
                    .store
                    .index_tip(&self.chain)
                    .await?
                    .map_or(0, |(n, _)| n as u64 + 1);
                self.store.rewind(&self.chain, 0).await?;
                tracing::info!(chain = %self.chain, "the chain started over from a new genesis: indexing it afresh");
                return Ok(recorded);
            }
        }
        let mut rewound = 0;
        while let Some((number, hash)) = self.store.index_tip(&self.chain).await? {
            if self.chain_hash(number as u64).await?.as_deref() == Some(hash.as_str()) {
                break;
            }
            self.store.rewind(&self.chain, number).await?;
            rewound += 1;
        }
        if rewound > 0 {
            tracing::warn!(chain = %self.chain, blocks = rewound, "chain reorganised: rewound");
        }
        Ok(rewound)
    }

    /// Records the next blocks, if any are confirmed; what it did.
    pub async fn step(&self) -> Result<Step> {
        let head =
            hex_u64(&self.call("eth_blockNumber", json!([])).await?).ok_or_else(|| self.fail("bad eth_blockNumber"))?;
        let Some(confirmed) = head.checked_sub(self.confirmations) else {
            return Ok(Step::default());
        };
        let tip = self.store.index_tip(&self.chain).await?;
        let from = match &tip {
            Some((n, _)) => *n as u64 + 1,
            None => self.start.unwrap_or(confirmed),
        };
        self.report(from.saturating_sub(1), head);
        if from > confirmed {
            // Nothing new, but the recorded tip may have been reorganised away.
            let rewound = match &tip {
                Some((n, hash)) if self.chain_hash(*n as u64).await?.as_deref() != Some(hash.as_str()) => {
                    self.rewind().await?
                }
                _ => 0,
            };
            return Ok(Step {
                rewound,
                ..Step::default()
            });
        }
        let to = confirmed.min(from + self.batch - 1);
        let blocks = self
            .batch_call(
                (from..=to)
                    .map(|n| ("eth_getBlockByNumber", json!([format!("0x{n:x}"), true])))
                    .collect(),
            )
            .await?;
        if let (Some((_, tip_hash)), Some(first)) = (&tip, blocks.first()) {
            if first["parentHash"].as_str() != Some(tip_hash.as_str()) {
                return Ok(Step {
                    rewound: self.rewind().await?,
                    ..Step::default()
                });
            }
        }
        // Within the batch each block must extend the previous one (a reorg mid-read).
        for pair in blocks.windows(2) {
            if pair[1]["parentHash"] != pair[0]["hash"] {
                return Ok(Step::default());
            }
        }
        let logs = self
            .call(
                "eth_getLogs",
                json!([{"fromBlock": format!("0x{from:x}"), "toBlock": format!("0x{to:x}"),
                        "topics": [[TRANSFER_TOPIC, TRANSFER_SINGLE_TOPIC, TRANSFER_BATCH_TOPIC]]}]),
            )
            .await?;
        let transfers = self
            .transfers(&blocks, logs.as_array().map(Vec::as_slice).unwrap_or_default())
            .await?;
        let recorded: Vec<(i64, String)> = blocks
            .iter()
            .map(|b| {
                Ok((
                    hex_u64(&b["number"]).ok_or_else(|| self.fail("block without number"))? as i64,
                    b["hash"].as_str().unwrap_or_default().to_owned(),
                ))
            })
            .collect::<Result<_>>()?;
        self.store.add_blocks(&self.chain, &recorded, &transfers).await?;
        self.report(to, head);
        Ok(Step {
            blocks: recorded.len() as u64,
            transfers: transfers.len() as u64,
            rewound: 0,
        })
    }

    /// The transfers in `blocks` (full transactions) and their token `logs`.
    async fn transfers(&self, blocks: &[Value], logs: &[Value]) -> Result<Vec<Transfer>> {
        let mut txs: HashMap<String, TxInfo> = HashMap::new();
        let mut valued = Vec::new();
        for block in blocks {
            let number = hex_u64(&block["number"]).unwrap_or_default() as i64;
            let time = hex_u64(&block["timestamp"]).unwrap_or_default() as i64;
            for tx in block["transactions"].as_array().map(Vec::as_slice).unwrap_or_default() {
                let hash = tx["hash"].as_str().unwrap_or_default().to_owned();
                let from = tx["from"].as_str().unwrap_or_default().to_lowercase();
                let to = tx["to"].as_str().map(str::to_lowercase);
                let index = hex_u64(&tx["transactionIndex"]).unwrap_or_default() as i64;
                let nonce = hex_u64(&tx["nonce"]).unwrap_or_default() as i64;
                let value = tx["value"].as_str().and_then(hex_u256).unwrap_or_default();
                if !value.is_zero() {
                    valued.push((hash.clone(), value));
                }
                txs.insert(
                    hash,
                    TxInfo {
                        block: number,
                        time,
                        index,
                        nonce,
                        from,
                        to,
                    },
                );
            }
        }
        // A value transfer counts only if its transaction succeeded: one batch of receipts.
        let receipts = self
            .batch_call(
                valued
                    .iter()
                    .map(|(hash, _)| ("eth_getTransactionReceipt", json!([hash])))
                    .collect(),
            )
            .await?;
        let mut transfers = Vec::new();
        for ((hash, value), receipt) in valued.iter().zip(&receipts) {
            let info = &txs[hash];
            let success = receipt["status"].as_str() == Some("0x1");
            transfers.push(info.transfer(&self.chain, hash, info.native(*value, receipt), None, success));
        }
        for log in logs {
            let hash = log["transactionHash"].as_str().unwrap_or_default();
            let Some(info) = txs.get(hash) else { continue };
            let token = log["address"].as_str().map(str::to_lowercase);
            for item in decode_log(log) {
                transfers.push(info.transfer(&self.chain, hash, item, token.clone(), true));
            }
        }
        Ok(transfers)
    }

    /// Steps forever: at once while catching up, every `poll` when level with the chain.
    pub fn spawn(self, poll: Duration) {
        tokio::spawn(async move {
            // An unreachable chain is reported once, not every poll.
            let mut failing = false;
            loop {
                match self.step().await {
                    Ok(step) => {
                        if failing {
                            tracing::info!(chain = %self.chain, "indexing resumed");
                            failing = false;
                        }
                        if step.blocks > 0 || step.rewound > 0 {
                            continue;
                        }
                    }
                    Err(error) if !failing => {
                        tracing::warn!(chain = %self.chain, %error, "indexing paused until the chain answers");
                        failing = true;
                    }
                    Err(_) => {}
                }
                tokio::time::sleep(poll).await;
            }
        });
    }
}

/// What a transfer needs of its transaction.
#[derive(Clone)]
pub(crate) struct TxInfo {
    pub(crate) block: i64,
    pub(crate) time: i64,
    pub(crate) index: i64,
    pub(crate) nonce: i64,
    pub(crate) from: String,
    pub(crate) to: Option<String>,
}

impl TxInfo {
    /// The transaction's value moving from its sender to its receiver (the
    /// created contract for a deployment, as its `receipt` names it).
    pub(crate) fn native(&self, value: U256, receipt: &Value) -> LogTransfer {
        let recipient = self
            .to
            .clone()
            .or_else(|| receipt["contractAddress"].as_str().map(str::to_lowercase))
            .unwrap_or_default();
        LogTransfer {
            log_index: -1,
            kind: "native",
            token_id: None,
            sender: self.from.clone(),
            recipient,
            amount: value,
        }
    }

    /// The record of `movement` within this transaction (`hash` on `chain`).
    pub(crate) fn transfer(
        &self,
        chain: &str,
        hash: &str,
        movement: LogTransfer,
        token: Option<String>,
        success: bool,
    ) -> Transfer {
        Transfer {
            chain: chain.to_owned(),
            block_number: self.block,
            tx_index: self.index,
            log_index: movement.log_index,
            tx_hash: hash.to_owned(),
            kind: movement.kind.to_owned(),
            token,
            token_id: movement.token_id,
            sender: movement.sender,
            recipient: movement.recipient,
            amount: movement.amount.to_string(),
            mined_at: self.time,
            success,
            nonce: self.nonce,
            tx_from: self.from.clone(),
            tx_to: self.to.clone(),
        }
    }
}

/// A value or token transfer: the transaction's own value, or one read from a log.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LogTransfer {
    log_index: i64,
    kind: &'static str,
    token_id: Option<String>,
    sender: String,
    recipient: String,
    amount: U256,
}

/// The transfers a `Transfer` / `TransferSingle` / `TransferBatch` log records; none for anything else.
pub(crate) fn decode_log(log: &Value) -> Vec<LogTransfer> {
    let log_index = hex_u64(&log["logIndex"]).unwrap_or_default() as i64;
    let topics = log["topics"].as_array().map(Vec::as_slice).unwrap_or_default();
    let data = log["data"].as_str().unwrap_or("0x").trim_start_matches("0x");
    let word = |i: usize| data.get(i * 64..(i + 1) * 64).and_then(hex_u256);
    let word_index = |i: usize| word(i).and_then(|w| usize::try_from(w).ok());
    let address = |i: usize| topics.get(i).and_then(topic_address);
    let item = |index: i64, kind, token_id: Option<U256>, from: usize, to: usize, amount| {
        Some(LogTransfer {
            log_index: index,
            kind,
            token_id: token_id.map(|id| id.to_string()),
            sender: address(from)?,
            recipient: address(to)?,
            amount,
        })
    };
    match (topics.first().and_then(Value::as_str), topics.len()) {
        (Some(TRANSFER_TOPIC), 3) => word(0)
            .and_then(|amount| item(log_index, "erc20", None, 1, 2, amount))
            .into_iter()
            .collect(),
        (Some(TRANSFER_TOPIC), 4) => {
            let id = topics[3].as_str().and_then(hex_u256);
            id.and_then(|id| item(log_index, "erc721", Some(id), 1, 2, U256::from(1)))
                .into_iter()
                .collect()
        }
        (Some(TRANSFER_SINGLE_TOPIC), 4) => match (word(0), word(1)) {
            (Some(id), Some(amount)) => item(log_index, "erc1155", Some(id), 2, 3, amount).into_iter().collect(),
            _ => Vec::new(),
        },
        (Some(TRANSFER_BATCH_TOPIC), 4) => {
            // Two dynamic arrays: byte offsets to length-prefixed ids and amounts.
            let (Some(ids), Some(amounts)) = (word_index(0).map(|o| o / 32), word_index(1).map(|o| o / 32)) else {
                return Vec::new();
            };
            let count = word_index(ids).unwrap_or(0).min(256);
            (0..count)
                .filter_map(|i| {
                    let (id, amount) = (word(ids + 1 + i)?, word(amounts + 1 + i)?);
                    // Batch items share one log: keep them apart in the log index.
                    item(log_index * 1_000 + i as i64, "erc1155", Some(id), 2, 3, amount)
                })
                .collect()
        }
        _ => Vec::new(),
    }
}

/// Transfers grouped by transaction, in the order given.
pub fn by_transaction(transfers: Vec<Transfer>) -> Vec<Vec<Transfer>> {
    let mut groups: Vec<Vec<Transfer>> = Vec::new();
    let mut positions: BTreeMap<(String, String), usize> = BTreeMap::new();
    for transfer in transfers {
        let key = (transfer.chain.clone(), transfer.tx_hash.clone());
        match positions.get(&key) {
            Some(&i) => groups[i].push(transfer),
            None => {
                positions.insert(key, groups.len());
                groups.push(vec![transfer]);
            }
        }
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn topic(address: &str) -> String {
        format!("0x{:0>64}", address.trim_start_matches("0x"))
    }

    fn words(values: &[u64]) -> String {
        format!("0x{}", values.iter().map(|v| format!("{v:064x}")).collect::<String>())
    }

    #[test]
    fn decodes_every_transfer_kind() {
        let (a, b, operator) = (
            "0x00000000000000000000000000000000000000aa",
            "0x00000000000000000000000000000000000000bb",
            "0x00000000000000000000000000000000000000cc",
        );
        let erc20 = json!({"logIndex": "0x2", "topics": [TRANSFER_TOPIC, topic(a), topic(b)], "data": words(&[500])});
        assert_eq!(
            decode_log(&erc20),
            [LogTransfer {
                log_index: 2,
                kind: "erc20",
                token_id: None,
                sender: a.into(),
                recipient: b.into(),
                amount: U256::from(500)
            }]
        );
        let erc721 =
            json!({"logIndex": "0x0", "topics": [TRANSFER_TOPIC, topic(a), topic(b), words(&[7])], "data": "0x"});
        assert_eq!(decode_log(&erc721)[0].token_id.as_deref(), Some("7"));
        let single = json!({"logIndex": "0x1", "topics": [TRANSFER_SINGLE_TOPIC, topic(operator), topic(a), topic(b)], "data": words(&[9, 3])});
        let single = decode_log(&single);
        assert_eq!(
            (
                single[0].token_id.as_deref(),
                single[0].amount,
                single[0].sender.as_str()
            ),
            (Some("9"), U256::from(3), a)
        );
        // ids at byte 64: [2, 11, 12]; amounts at byte 160: [2, 5, 6].
        let batch = json!({"logIndex": "0x3", "topics": [TRANSFER_BATCH_TOPIC, topic(operator), topic(a), topic(b)],
                           "data": words(&[64, 160, 2, 11, 12, 2, 5, 6])});
        let batch = decode_log(&batch);
        assert_eq!(
            batch
                .iter()
                .map(|t| (t.log_index, t.token_id.clone().unwrap(), t.amount.to::<u64>()))
                .collect::<Vec<_>>(),
            [(3000, "11".to_string(), 5), (3001, "12".to_string(), 6)]
        );
        let other = json!({"logIndex": "0x0", "topics": ["0x1234"], "data": "0x"});
        assert!(decode_log(&other).is_empty());
    }

    proptest! {
        #[test]
        fn never_panics_on_any_log(topics in proptest::collection::vec("0x[0-9a-f]{0,70}", 0..5), data in "0x[0-9a-f]{0,600}", index in "0x[0-9a-f]{0,20}") {
            let mut topics = topics;
            if let Some(first) = topics.first_mut() {
                *first = TRANSFER_BATCH_TOPIC.into();
            }
            let _ = decode_log(&json!({"logIndex": index, "topics": topics, "data": data}));
        }
    }
}
