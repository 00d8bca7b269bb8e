//! The relay mailbox on SQLite, kept as a journal: each group commit appends one
//! row holding the batch's new messages and acks, and the per-topic order, the
//! de-duplication by (topic, sha256) and who acked what live in memory
//! ([`Index`]), rebuilt from the rows when the store first serves the relay.
//!
//! Why: with a row per message, each commit dirtied an index page per message
//! (the (topic, hash) key is random by nature) and SQLite copied every dirty page
//! into its WAL; that held the relay to 12–23 % of a raw WebSocket echo
//! (BENCHMARKS.md). One row per commit is one sequential insert whatever the
//! batch holds. A SQLite file serves one node, so this memory is its only reader;
//! Postgres, shared by several nodes, keeps a row per message and its indexes.
//!
//! A row is kept until every message it names, stored or acked, has expired.
//! A publisher still hears `true` only once the row holding its message is
//! committed, so a restart of `latch` loses nothing.
// Its items are `pub` for the fuzz targets, which see it only with feature `fuzzing`.
#![cfg_attr(not(feature = "fuzzing"), allow(unreachable_pub))]

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use futures_util::TryStreamExt;
use sqlx::sqlite::SqlitePool;
use sqlx::Row as _;

use super::{RelayAck, RelayMessage, StoreError, StoreResult};

/// The index's hash maps and sets: their keys are hashes and topics, and they
/// are looked up for every message stored; foldhash (seeded per process) is
/// about a third of the cost of the standard SipHash on them (BENCHMARKS.md).
type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type FastSet<K> = HashSet<K, foldhash::fast::RandomState>;

/// Bits of a message id that number it within its row; the bits above are the
/// row's id, and from [`SHARD_SHIFT`] up the shard's number (0 for the journal
/// in the main database file, so ids written before shards existed are
/// unchanged). Row ids come from `AUTOINCREMENT`, so message ids increase in
/// storage order within a shard (hence within a topic) and are never reused.
const ROW_BITS: u32 = 20;
/// Where a message id's shard number starts: 2^36 rows per shard, 128 shards.
pub(crate) const SHARD_SHIFT: u32 = 56;
/// Most shards a mailbox can have: their numbers fit the id's top bits.
pub(crate) const MAX_SHARDS: usize = 1 << (63 - SHARD_SHIFT);
/// Most messages one row holds.
const ROW_MESSAGES: usize = 1 << ROW_BITS;
/// The format [`encode`] writes.
const FORMAT: u8 = 1;
/// Rows dropped per prune transaction: the writer is held for one chunk at a time.
const PRUNE_ROWS: i64 = 32;

/// Why a journal row could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JournalError {
    /// The row ends inside a field.
    #[error("journal row ends early")]
    Truncated,
    /// The row starts with a format this build does not know.
    #[error("journal row in unknown format {0}")]
    Format(u8),
    /// A text field is not UTF-8.
    #[error("journal row holds text that is not UTF-8")]
    Text,
    /// The row says it numbers more messages than a row can.
    #[error("journal row numbers {0} messages (at most 2^20)")]
    TooMany(u64),
    /// Bytes follow the last field.
    #[error("journal row has {0} bytes after its last field")]
    Trailing(usize),
}

/// What one row holds, as it lies in the row's bytes: messages (their `id` is
/// not stored: it follows from the row's id and their place) and acks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row<'a> {
    /// New messages, in storage order.
    pub messages: Vec<MessageRef<'a>>,
    /// Acks of messages stored before.
    pub acks: Vec<AckRef<'a>>,
}

/// A [`RelayMessage`] without its id, borrowed from wherever it lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the fields of RelayMessage
pub struct MessageRef<'a> {
    pub topic: &'a str,
    pub hash: &'a str,
    pub message: &'a str,
    pub publisher: &'a str,
    pub tag: i64,
    pub published_at: i64,
    pub expires_at: i64,
}

impl MessageRef<'_> {
    /// The message, stored under `id`.
    pub fn to_message(self, id: i64) -> RelayMessage {
        RelayMessage {
            id,
            topic: self.topic.into(),
            hash: self.hash.into(),
            message: self.message.into(),
            tag: self.tag,
            publisher: self.publisher.into(),
            published_at: self.published_at,
            expires_at: self.expires_at,
        }
    }
}

impl<'a> From<&'a RelayMessage> for MessageRef<'a> {
    fn from(m: &'a RelayMessage) -> Self {
        Self {
            topic: &m.topic,
            hash: &m.hash,
            message: &m.message,
            publisher: &m.publisher,
            tag: m.tag,
            published_at: m.published_at,
            expires_at: m.expires_at,
        }
    }
}

/// A [`RelayAck`], borrowed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // the fields of RelayAck
pub struct AckRef<'a> {
    pub message_id: i64,
    pub client_id: &'a str,
}

impl<'a> From<&'a RelayAck> for AckRef<'a> {
    fn from(a: &'a RelayAck) -> Self {
        Self {
            message_id: a.message_id,
            client_id: &a.client_id,
        }
    }
}

/// A row's bytes: the format, then each list as a count and its items; texts
/// as a length and UTF-8, numbers as 8 bytes, little-endian throughout.
pub fn encode(messages: &[MessageRef<'_>], acks: &[AckRef<'_>]) -> Vec<u8> {
    let texts: usize = messages
        .iter()
        .map(|m| m.topic.len() + m.hash.len() + m.message.len() + m.publisher.len() + 40)
        .sum::<usize>()
        + acks.iter().map(|a| a.client_id.len() + 12).sum::<usize>();
    let mut out = Vec::with_capacity(9 + texts);
    out.push(FORMAT);
    out.extend_from_slice(&(messages.len() as u32).to_le_bytes());
    for m in messages {
        for text in [m.topic, m.hash, m.message, m.publisher] {
            put_text(&mut out, text);
        }
        for number in [m.tag, m.published_at, m.expires_at] {
            out.extend_from_slice(&number.to_le_bytes());
        }
    }
    out.extend_from_slice(&(acks.len() as u32).to_le_bytes());
    for a in acks {
        out.extend_from_slice(&a.message_id.to_le_bytes());
        put_text(&mut out, a.client_id);
    }
    out
}

fn put_text(out: &mut Vec<u8>, text: &str) {
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
}

/// Reads what [`encode`] wrote, borrowing every text from `bytes`.
pub fn decode(bytes: &[u8]) -> Result<Row<'_>, JournalError> {
    let mut reader = Reader(bytes);
    let mut row = Row::default();
    for _ in 0..reader.header()? {
        row.messages.push(reader.message()?);
    }
    for _ in 0..reader.count()? {
        row.acks.push(AckRef {
            message_id: reader.number()?,
            client_id: reader.text()?,
        });
    }
    match reader.0.len() {
        0 => Ok(row),
        left => Err(JournalError::Trailing(left)),
    }
}

/// The messages at `positions` (ascending) in a row [`encode`] wrote, each with
/// its position; nothing past the last one wanted is read. Positions past the
/// row's end are left out.
pub fn decode_messages<'a>(bytes: &'a [u8], positions: &[usize]) -> Result<Vec<(usize, MessageRef<'a>)>, JournalError> {
    let mut reader = Reader(bytes);
    let count = reader.header()?;
    let mut wanted = positions.iter().copied().peekable();
    let mut messages = Vec::with_capacity(positions.len());
    for position in 0..count as usize {
        let Some(&next) = wanted.peek() else { break };
        if position == next {
            wanted.next();
            messages.push((position, reader.message()?));
        } else {
            reader.skip_message()?;
        }
    }
    Ok(messages)
}

/// The bytes of a row not read yet. Every length is checked against what is
/// left before it is used, and texts are borrowed, not copied.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    /// The format, checked, and how many messages follow.
    fn header(&mut self) -> Result<u64, JournalError> {
        let format = self.take(1)?[0];
        if format != FORMAT {
            return Err(JournalError::Format(format));
        }
        let count = self.count()?;
        if count > ROW_MESSAGES as u64 {
            return Err(JournalError::TooMany(count));
        }
        Ok(count)
    }

    fn message(&mut self) -> Result<MessageRef<'a>, JournalError> {
        Ok(MessageRef {
            topic: self.text()?,
            hash: self.text()?,
            message: self.text()?,
            publisher: self.text()?,
            tag: self.number()?,
            published_at: self.number()?,
            expires_at: self.number()?,
        })
    }

    fn skip_message(&mut self) -> Result<(), JournalError> {
        for _ in 0..4 {
            let len = self.count()?;
            self.take(usize::try_from(len).map_err(|_| JournalError::Truncated)?)?;
        }
        self.take(24).map(drop)
    }

    fn take(&mut self, n: usize) -> Result<&'a [u8], JournalError> {
        if self.0.len() < n {
            return Err(JournalError::Truncated);
        }
        let (taken, rest) = self.0.split_at(n);
        self.0 = rest;
        Ok(taken)
    }

    fn count(&mut self) -> Result<u64, JournalError> {
        let bytes = self.take(4)?;
        Ok(u64::from(u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])))
    }

    fn number(&mut self) -> Result<i64, JournalError> {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(self.take(8)?);
        Ok(i64::from_le_bytes(bytes))
    }

    fn text(&mut self) -> Result<&'a str, JournalError> {
        let len = usize::try_from(self.count()?).map_err(|_| JournalError::Truncated)?;
        std::str::from_utf8(self.take(len)?).map_err(|_| JournalError::Text)
    }
}

/// What of the mailbox is kept in memory: for every message held, its topic,
/// hash, publisher, expiry and who acked it, in order per topic. The messages
/// themselves stay in their rows (a mailbox may hold days of traffic), read
/// back when a client needs what it missed.
#[derive(Debug, Default)]
pub struct Index {
    /// By id. A B-tree: ids only grow, so inserts append, and it never stops
    /// the writer to rehash millions of entries as a hash map would.
    messages: BTreeMap<i64, Held>,
    topics: FastMap<Arc<str>, Topic>,
    /// (expires_at, id) of every message held, for pruning in expiry order.
    expiry: BTreeSet<(i64, i64)>,
    /// Client ids named by the messages held, stored once each: a client
    /// publishes and acks many messages.
    clients: FastSet<Arc<str>>,
    /// Messages held per publisher, for the relay's quota.
    published: FastMap<Arc<str>, u64>,
}

#[derive(Debug)]
struct Held {
    topic: Arc<str>,
    hash: Arc<str>,
    publisher: Arc<str>,
    expires_at: i64,
    /// Clients that acked it (a topic has few subscribers: a list is smallest).
    acked_by: Vec<Arc<str>>,
}

#[derive(Debug, Default)]
struct Topic {
    ids: BTreeSet<i64>,
    by_hash: FastMap<Arc<str>, i64>,
}

impl Index {
    /// Whether a message with this (topic, hash) is held: a new one would be a duplicate.
    pub fn contains(&self, topic: &str, hash: &str) -> bool {
        self.topics.get(topic).is_some_and(|t| t.by_hash.contains_key(hash))
    }

    /// Holds `message` under `id`; `false` (and nothing changes) when its
    /// (topic, hash) or the id is already held.
    pub fn insert(&mut self, id: i64, message: &MessageRef<'_>) -> bool {
        if self.contains(message.topic, message.hash) || self.messages.contains_key(&id) {
            return false;
        }
        let publisher = self.client(message.publisher);
        *self.published.entry(publisher.clone()).or_default() += 1;
        let topic_name = match self.topics.get_key_value(message.topic) {
            Some((name, _)) => name.clone(),
            None => Arc::from(message.topic),
        };
        let hash: Arc<str> = Arc::from(message.hash);
        let topic = self.topics.entry(topic_name.clone()).or_default();
        topic.ids.insert(id);
        topic.by_hash.insert(hash.clone(), id);
        self.expiry.insert((message.expires_at, id));
        self.messages.insert(
            id,
            Held {
                topic: topic_name,
                hash,
                publisher,
                expires_at: message.expires_at,
                acked_by: Vec::new(),
            },
        );
        true
    }

    /// The one copy of `client_id`.
    fn client(&mut self, client_id: &str) -> Arc<str> {
        match self.clients.get(client_id) {
            Some(client) => client.clone(),
            None => {
                let client: Arc<str> = Arc::from(client_id);
                self.clients.insert(client.clone());
                client
            }
        }
    }

    /// Lets go of one reference to a client id, forgetting the id when no
    /// message names it any more.
    fn release(&mut self, client: Arc<str>) {
        // Two: the set's and this one.
        if Arc::strong_count(&client) == 2 {
            self.clients.remove(&client);
        }
    }

    /// When the message `ack` names expires, if it is held and not yet acked by
    /// that client: whether recording the ack would change anything.
    pub fn unacked_expiry(&self, ack: &AckRef<'_>) -> Option<i64> {
        let held = self.messages.get(&ack.message_id)?;
        (!held.acked_by.iter().any(|c| **c == *ack.client_id)).then_some(held.expires_at)
    }

    /// Records `ack`; `false` when its message is not held or it was recorded already.
    pub fn ack(&mut self, ack: &AckRef<'_>) -> bool {
        if self.unacked_expiry(ack).is_none() {
            return false;
        }
        let client = self.client(ack.client_id);
        if let Some(held) = self.messages.get_mut(&ack.message_id) {
            held.acked_by.push(client);
        }
        true
    }

    /// The ids of unexpired messages of `topic` that `client_id` neither
    /// published nor acked, oldest first, at most `limit`.
    pub fn pending(&self, topic: &str, client_id: &str, now_ms: i64, limit: usize) -> Vec<i64> {
        let Some(topic) = self.topics.get(topic) else {
            return Vec::new();
        };
        topic
            .ids
            .iter()
            .filter(|id| {
                self.messages.get(id).is_some_and(|held| {
                    held.expires_at > now_ms
                        && *held.publisher != *client_id
                        && !held.acked_by.iter().any(|c| **c == *client_id)
                })
            })
            .take(limit)
            .copied()
            .collect()
    }

    /// Drops the messages expired at `now_ms` (and their acks); how many went.
    pub fn prune(&mut self, now_ms: i64) -> u64 {
        let mut pruned = 0;
        while let Some(&(expires_at, id)) = self.expiry.first() {
            if expires_at > now_ms {
                break;
            }
            self.expiry.pop_first();
            if let Some(held) = self.messages.remove(&id) {
                let emptied = self.topics.get_mut(&held.topic).is_some_and(|topic| {
                    topic.ids.remove(&id);
                    topic.by_hash.remove(&held.hash);
                    topic.ids.is_empty()
                });
                if emptied {
                    self.topics.remove(&held.topic);
                }
                if let Some(count) = self.published.get_mut(&held.publisher) {
                    *count = count.saturating_sub(1);
                    if *count == 0 {
                        self.published.remove(&held.publisher);
                    }
                }
                self.release(held.publisher);
                for client in held.acked_by {
                    self.release(client);
                }
                pruned += 1;
            }
        }
        pruned
    }

    /// How many unexpired messages are held.
    /// Messages held (expired ones until pruned) on `topic` and published by `publisher`.
    pub fn counts(&self, topic: &str, publisher: &str) -> (u64, u64) {
        let on_topic = self.topics.get(topic).map_or(0, |t| t.ids.len() as u64);
        (on_topic, self.published.get(publisher).copied().unwrap_or(0))
    }

    pub fn size(&self, now_ms: i64) -> u64 {
        let expired = self.expiry.range(..=(now_ms, i64::MAX)).count();
        (self.messages.len() - expired) as u64
    }
}

/// The journal's rows on the relay writer's connection, and their index once loaded.
#[derive(Debug)]
pub(super) struct Journal {
    writer: SqlitePool,
    /// Where rows are read back from, beside the writer.
    reader: SqlitePool,
    /// Most messages one row takes ([`ROW_MESSAGES`]; fewer in tests, to reach
    /// the rows-per-write path without a million messages).
    row_messages: usize,
    /// This journal's shard number, in place in a message id (`shard << SHARD_SHIFT`).
    shard_bits: i64,
    /// Whether this database may hold the mailbox of versions before the
    /// journal (`relay_messages`, `relay_acks`): the main file, shard 0.
    legacy_tables: bool,
    loaded: tokio::sync::OnceCell<Loaded>,
}

#[derive(Debug)]
struct Loaded {
    /// Held by whoever appends or drops rows: what a write decides from the
    /// index before its commit (which messages are new) still holds after it.
    writing: tokio::sync::Mutex<()>,
    index: std::sync::Mutex<Index>,
}

impl Journal {
    /// Shard `shard`'s journal in `writer`'s database; its rows are read on
    /// first use, so commands that never touch the relay do not pay for it.
    pub(super) fn new(writer: SqlitePool, reader: SqlitePool, shard: usize) -> Self {
        assert!(shard < MAX_SHARDS);
        Self {
            writer,
            reader,
            row_messages: ROW_MESSAGES,
            shard_bits: (shard as i64) << SHARD_SHIFT,
            legacy_tables: shard == 0,
            loaded: tokio::sync::OnceCell::new(),
        }
    }

    /// This journal, with rows of at most `row_messages` (≤ [`ROW_MESSAGES`]) messages.
    #[cfg(test)]
    pub(super) fn with_row_messages(self, row_messages: usize) -> Self {
        assert!((1..=ROW_MESSAGES).contains(&row_messages));
        Self { row_messages, ..self }
    }

    /// The relay writer's connection (the checkpointer takes it to restart the WAL).
    pub(super) fn writer(&self) -> &SqlitePool {
        &self.writer
    }

    /// Reads the rows if not done yet; the topics held, each once.
    pub(super) async fn topics(&self) -> StoreResult<Vec<Arc<str>>> {
        let loaded = self.loaded().await?;
        Ok(lock(&loaded.index).topics.keys().cloned().collect())
    }

    async fn loaded(&self) -> StoreResult<&Loaded> {
        self.loaded
            .get_or_try_init(|| async {
                Ok(Loaded {
                    writing: tokio::sync::Mutex::new(()),
                    index: std::sync::Mutex::new(
                        load(&self.writer, self.row_messages, self.shard_bits, self.legacy_tables).await?,
                    ),
                })
            })
            .await
    }

    /// See [`super::RelayMailbox::relay_write`].
    pub(super) async fn write(&self, messages: &[RelayMessage], acks: &[RelayAck]) -> StoreResult<Vec<Option<i64>>> {
        let loaded = self.loaded().await?;
        let _writing = loaded.writing.lock().await;
        // Decide what is new (the first of equal messages in the batch is the new one);
        // per message, its place among the new ones.
        let (fresh, places, new_acks, acks_expire) = {
            let index = lock(&loaded.index);
            let mut seen = FastSet::default();
            let mut fresh = Vec::new();
            let mut places = Vec::with_capacity(messages.len());
            for m in messages.iter().map(MessageRef::from) {
                let new = !index.contains(m.topic, m.hash) && seen.insert((m.topic, m.hash));
                places.push(new.then_some(fresh.len()));
                if new {
                    fresh.push(m);
                }
            }
            let mut seen = FastSet::default();
            let mut acks_expire = i64::MIN;
            let mut new_acks = Vec::new();
            for a in acks.iter().map(AckRef::from) {
                if let Some(expires) = index.unacked_expiry(&a) {
                    if seen.insert((a.message_id, a.client_id)) {
                        acks_expire = acks_expire.max(expires);
                        new_acks.push(a);
                    }
                }
            }
            (fresh, places, new_acks, acks_expire)
        };
        if fresh.is_empty() && new_acks.is_empty() {
            return Ok(vec![None; messages.len()]);
        }
        let per_row = self.row_messages;
        let rows = if fresh.len() <= per_row {
            // One row: its INSERT commits by itself, sparing two round trips to
            // SQLite's thread (BEGIN, COMMIT) per group commit.
            append(
                &mut *self.writer.acquire().await?,
                &fresh,
                &new_acks,
                acks_expire,
                per_row,
            )
            .await?
        } else {
            let mut tx = self.writer.begin().await?;
            let rows = append(&mut tx, &fresh, &new_acks, acks_expire, per_row).await?;
            tx.commit().await?;
            rows
        };
        let mut index = lock(&loaded.index);
        for (place, message) in fresh.iter().enumerate() {
            index.insert(id_at(self.shard_bits, &rows, place, per_row), message);
        }
        for ack in &new_acks {
            index.ack(ack);
        }
        Ok(places
            .into_iter()
            .map(|place| place.map(|p| id_at(self.shard_bits, &rows, p, per_row)))
            .collect())
    }

    /// See [`super::RelayMailbox::relay_pending`].
    pub(super) async fn pending(
        &self,
        topic: &str,
        client_id: &str,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<RelayMessage>> {
        let loaded = self.loaded().await?;
        let ids = lock(&loaded.index).pending(topic, client_id, now_ms, limit as usize);
        let mut rows: BTreeMap<i64, Vec<usize>> = BTreeMap::new();
        for id in ids {
            let (row, position) = row_and_position(id);
            rows.entry(row).or_default().push(position);
        }
        let mut messages = Vec::new();
        for (row, positions) in rows {
            let body: Option<Vec<u8>> = sqlx::query_scalar("SELECT body FROM relay_journal WHERE id = $1")
                .bind(row)
                .fetch_optional(&self.reader)
                .await?;
            // No row: a prune since dropped it, all its messages having expired.
            let Some(body) = body else { continue };
            let decoded = decode_messages(&body, &positions).map_err(|error| corrupt(row, &error))?;
            messages.extend(
                decoded
                    .into_iter()
                    .map(|(position, message)| message.to_message(message_id(self.shard_bits, row, position))),
            );
        }
        Ok(messages)
    }

    /// See [`super::RelayMailbox::relay_prune`].
    pub(super) async fn prune(&self, now_ms: i64) -> StoreResult<u64> {
        let loaded = self.loaded().await?;
        let pruned = {
            let _writing = loaded.writing.lock().await;
            lock(&loaded.index).prune(now_ms)
        };
        // Rows whose every message expired, a chunk per transaction so commits wait little.
        loop {
            let _writing = loaded.writing.lock().await;
            let dropped = sqlx::query(
                "DELETE FROM relay_journal WHERE id IN
                 (SELECT id FROM relay_journal WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2)",
            )
            .bind(now_ms)
            .bind(PRUNE_ROWS)
            .execute(&self.writer)
            .await?;
            if dropped.rows_affected() < PRUNE_ROWS as u64 {
                return Ok(pruned);
            }
        }
    }

    /// See [`super::RelayMailbox::relay_counts`]. Held messages are counted
    /// until pruned (every few seconds), a little stricter than unexpired ones.
    pub(super) async fn counts(&self, topics: &[String], publishers: &[String]) -> StoreResult<(Vec<u64>, Vec<u64>)> {
        let loaded = self.loaded().await?;
        let index = lock(&loaded.index);
        Ok((
            topics.iter().map(|t| index.counts(t, "").0).collect(),
            publishers.iter().map(|p| index.counts("", p).1).collect(),
        ))
    }

    /// See [`super::RelayMailbox::relay_mailbox_size`].
    pub(super) async fn size(&self, now_ms: i64) -> StoreResult<u64> {
        let loaded = self.loaded().await?;
        Ok(lock(&loaded.index).size(now_ms))
    }
}

/// The id of the `position`-th message of row `row` of the shard `shard_bits` names.
fn message_id(shard_bits: i64, row: i64, position: usize) -> i64 {
    shard_bits | (row << ROW_BITS) | position as i64
}

/// The id of the `place`-th of messages that [`append`] stored in `rows`,
/// `per_row` to a row.
fn id_at(shard_bits: i64, rows: &[i64], place: usize, per_row: usize) -> i64 {
    message_id(shard_bits, rows[place / per_row], place % per_row)
}

/// The row and position a [`message_id`] names (within its shard).
fn row_and_position(id: i64) -> (i64, usize) {
    (
        (id & ((1 << SHARD_SHIFT) - 1)) >> ROW_BITS,
        (id & (ROW_MESSAGES as i64 - 1)) as usize,
    )
}

fn corrupt(row: i64, error: &JournalError) -> StoreError {
    StoreError::Corrupt(format!("relay journal row {row}: {error}"))
}

/// The index's lock; a panic while it was held cannot leave it half-updated
/// in a way later reads would trip on, so a poisoned lock is used as is.
fn lock(index: &std::sync::Mutex<Index>) -> std::sync::MutexGuard<'_, Index> {
    index.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Appends `messages` (`per_row` to a row, the acks in the first) on
/// `connection` (in a transaction when they need more than one row); the rows'
/// ids. Each row expires with the last message it names.
async fn append(
    connection: &mut sqlx::SqliteConnection,
    messages: &[MessageRef<'_>],
    acks: &[AckRef<'_>],
    acks_expire: i64,
    per_row: usize,
) -> StoreResult<Vec<i64>> {
    let mut rows = Vec::new();
    let mut rest = messages;
    loop {
        let (chunk, after) = rest.split_at(rest.len().min(per_row));
        // The acks go in the first row (which exists even when no message is new).
        let (acks, acks_expire) = if rows.is_empty() {
            (acks, acks_expire)
        } else {
            (&[][..], i64::MIN)
        };
        let expires = chunk.iter().map(|m| m.expires_at).fold(acks_expire, i64::max);
        let id: i64 = sqlx::query_scalar("INSERT INTO relay_journal (expires_at, body) VALUES ($1, $2) RETURNING id")
            .bind(expires)
            .bind(encode(chunk, acks))
            .fetch_one(&mut *connection)
            .await?;
        rows.push(id);
        if after.is_empty() {
            return Ok(rows);
        }
        rest = after;
    }
}

/// Reads every row into an index; first, with `legacy_tables`, moves the
/// mailbox of earlier versions (a row per message in `relay_messages` and
/// `relay_acks`) into the journal.
async fn load(writer: &SqlitePool, per_row: usize, shard_bits: i64, legacy_tables: bool) -> StoreResult<Index> {
    if legacy_tables {
        adopt_legacy_tables(writer, per_row, shard_bits).await?;
    }
    let started = std::time::Instant::now();
    let mut index = Index::default();
    let mut read = 0u64;
    let mut rows = sqlx::query("SELECT id, body FROM relay_journal ORDER BY id").fetch(writer);
    while let Some(row) = rows.try_next().await? {
        let id: i64 = row.try_get("id")?;
        let body: Vec<u8> = row.try_get("body")?;
        let decoded = decode(&body).map_err(|error| corrupt(id, &error))?;
        for (position, message) in decoded.messages.iter().enumerate() {
            index.insert(message_id(shard_bits, id, position), message);
        }
        for ack in &decoded.acks {
            index.ack(ack);
        }
        read += 1;
    }
    tracing::info!(
        rows = read,
        messages = index.messages.len(),
        ms = started.elapsed().as_millis() as u64,
        "relay journal read"
    );
    Ok(index)
}

/// Moves the mailbox of versions before the journal (a row per message in
/// `relay_messages` and `relay_acks`) into the journal.
async fn adopt_legacy_tables(writer: &SqlitePool, per_row: usize, shard_bits: i64) -> StoreResult<()> {
    let mut tx = writer.begin().await?;
    let old = sqlx::query(
        "SELECT id, topic, hash, message, tag, publisher, published_at, expires_at FROM relay_messages ORDER BY id",
    )
    .fetch_all(&mut *tx)
    .await?;
    if !old.is_empty() {
        let messages = old
            .iter()
            .map(super::sqlite::relay_message_from_row)
            .collect::<StoreResult<Vec<_>>>()?;
        let refs: Vec<MessageRef<'_>> = messages.iter().map(MessageRef::from).collect();
        let rows = append(&mut tx, &refs, &[], i64::MIN, per_row).await?;
        // Old id → (new id, expiry).
        let new_id: HashMap<i64, (i64, i64)> = messages
            .iter()
            .enumerate()
            .map(|(place, m)| (m.id, (id_at(shard_bits, &rows, place, per_row), m.expires_at)))
            .collect();
        // Acks of messages no longer there are left behind.
        let mut acks = Vec::new();
        let mut acks_expire = i64::MIN;
        for row in sqlx::query("SELECT message_id, client_id FROM relay_acks")
            .fetch_all(&mut *tx)
            .await?
        {
            if let Some(&(message_id, expires_at)) = new_id.get(&row.try_get::<i64, _>("message_id")?) {
                acks_expire = acks_expire.max(expires_at);
                acks.push(RelayAck {
                    message_id,
                    client_id: row.try_get("client_id")?,
                });
            }
        }
        if !acks.is_empty() {
            let refs: Vec<AckRef<'_>> = acks.iter().map(AckRef::from).collect();
            append(&mut tx, &[], &refs, acks_expire, per_row).await?;
        }
        sqlx::query("DELETE FROM relay_acks").execute(&mut *tx).await?;
        sqlx::query("DELETE FROM relay_messages").execute(&mut *tx).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn message(id: i64, topic: u8, hash: u8, publisher: u8, expires_at: i64) -> RelayMessage {
        RelayMessage {
            id,
            topic: format!("{topic:02x}").repeat(32),
            hash: format!("{hash:0>64}"),
            message: format!("m{id}"),
            tag: 1108,
            publisher: format!("did:key:z{publisher}"),
            published_at: 1,
            expires_at,
        }
    }

    #[test]
    fn a_row_reads_back_as_written() {
        let messages = [message(0, 1, 2, 3, 9), message(0, 1, 3, 4, 10)];
        let ack = RelayAck {
            message_id: 5 << ROW_BITS,
            client_id: "did:key:zWallet".into(),
        };
        let messages: Vec<MessageRef<'_>> = messages.iter().map(MessageRef::from).collect();
        let acks = vec![AckRef::from(&ack)];
        let bytes = encode(&messages, &acks);
        assert_eq!(decode(&bytes), Ok(Row { messages, acks }));
    }

    #[test]
    fn a_damaged_row_is_refused() {
        let bytes = encode(&[(&message(0, 1, 2, 3, 9)).into()], &[]);
        assert_eq!(decode(&bytes[..bytes.len() - 1]), Err(JournalError::Truncated));
        assert_eq!(
            decode(&[bytes.as_slice(), &[0]].concat()),
            Err(JournalError::Trailing(1))
        );
        assert_eq!(decode(&[2]), Err(JournalError::Format(2)));
        assert_eq!(decode(&[1, 0, 0, 0, 1]), Err(JournalError::TooMany(1 << 24)));
        let mut bad_text = bytes.clone();
        bad_text[9] = 0xff; // the topic's first byte
        assert_eq!(decode(&bad_text), Err(JournalError::Text));
    }

    /// What the index must answer, the slow obvious way.
    #[derive(Default)]
    struct Model {
        messages: Vec<RelayMessage>,
        acks: HashSet<(i64, String)>,
    }

    #[derive(Debug, Clone)]
    enum Op {
        Insert {
            topic: u8,
            hash: u8,
            publisher: u8,
            expires_at: i64,
        },
        Ack {
            nth: usize,
            client: u8,
        },
        Prune(i64),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..3u8, 0..6u8, 0..3u8, 0..50i64).prop_map(|(topic, hash, publisher, expires_at)| Op::Insert {
                topic,
                hash,
                publisher,
                expires_at
            }),
            (0..40usize, 0..3u8).prop_map(|(nth, client)| Op::Ack { nth, client }),
            (0..50i64).prop_map(Op::Prune),
        ]
    }

    proptest! {
        #[test]
        fn any_row_reads_back_and_any_bytes_are_safe(
            texts in proptest::collection::vec(".{0,40}", 0..12),
            numbers in proptest::collection::vec(any::<i64>(), 0..12),
            noise in proptest::collection::vec(any::<u8>(), 0..200),
        ) {
            let text = |i: usize| texts.get(i).cloned().unwrap_or_default();
            let number = |i: usize| numbers.get(i).copied().unwrap_or_default();
            let messages: Vec<RelayMessage> = (0..texts.len() / 4)
                .map(|i| RelayMessage {
                    id: 0,
                    topic: text(4 * i),
                    hash: text(4 * i + 1),
                    message: text(4 * i + 2),
                    publisher: text(4 * i + 3),
                    tag: number(i),
                    published_at: number(i + 1),
                    expires_at: number(i + 2),
                })
                .collect();
            let acks: Vec<RelayAck> = numbers
                .iter()
                .zip(&texts)
                .map(|(&message_id, client)| RelayAck { message_id, client_id: client.clone() })
                .collect();
            let messages: Vec<MessageRef<'_>> = messages.iter().map(MessageRef::from).collect();
            let acks: Vec<AckRef<'_>> = acks.iter().map(AckRef::from).collect();
            let bytes = encode(&messages, &acks);
            let positions: Vec<usize> = (0..messages.len() + 1).filter(|p| numbers.get(*p).is_some_and(|n| n % 2 == 0)).collect();
            let some: Vec<(usize, MessageRef<'_>)> = positions
                .iter()
                .filter_map(|&p| messages.get(p).map(|m| (p, *m)))
                .collect();
            prop_assert_eq!(decode_messages(&bytes, &positions), Ok(some));
            prop_assert_eq!(decode(&bytes), Ok(Row { messages, acks }));
            let _ = decode(&noise);
            let _ = decode_messages(&noise, &[0, 1, 5]);
            for cut in 0..bytes.len() {
                prop_assert!(decode(&bytes[..cut]).is_err());
            }
        }

        #[test]
        fn the_index_answers_as_the_model(ops in proptest::collection::vec(op(), 1..80)) {
            let mut index = Index::default();
            let mut model = Model::default();
            let mut next_id = 1;
            for op in ops {
                match op {
                    Op::Insert { topic, hash, publisher, expires_at } => {
                        let m = message(next_id, topic, hash, publisher, expires_at);
                        next_id += 1;
                        let duplicate = model.messages.iter().any(|h| h.topic == m.topic && h.hash == m.hash);
                        prop_assert_eq!(index.contains(&m.topic, &m.hash), duplicate);
                        prop_assert_eq!(index.insert(m.id, &(&m).into()), !duplicate);
                        if !duplicate {
                            model.messages.push(m);
                        }
                    }
                    Op::Ack { nth, client } => {
                        let message_id = model.messages.get(nth).map_or(nth as i64 + 1_000, |m| m.id);
                        let ack = RelayAck { message_id, client_id: format!("did:key:z{client}") };
                        let held = model.messages.iter().any(|m| m.id == message_id);
                        let new = held && !model.acks.contains(&(message_id, ack.client_id.clone()));
                        prop_assert_eq!(index.unacked_expiry(&(&ack).into()).is_some(), new);
                        prop_assert_eq!(index.ack(&(&ack).into()), new);
                        if new {
                            model.acks.insert((message_id, ack.client_id));
                        }
                    }
                    Op::Prune(now) => {
                        let before = model.messages.len();
                        model.messages.retain(|m| m.expires_at > now);
                        let ids: HashSet<i64> = model.messages.iter().map(|m| m.id).collect();
                        model.acks.retain(|(id, _)| ids.contains(id));
                        prop_assert_eq!(index.prune(now), (before - model.messages.len()) as u64);
                    }
                }
                // Client ids are kept once, and only while a message names them.
                let named: HashSet<&str> = model
                    .messages
                    .iter()
                    .map(|m| m.publisher.as_str())
                    .chain(model.acks.iter().map(|(_, c)| c.as_str()))
                    .collect();
                prop_assert_eq!(index.clients.len(), named.len());
                for now in [0, 25] {
                    prop_assert_eq!(
                        index.size(now),
                        model.messages.iter().filter(|m| m.expires_at > now).count() as u64
                    );
                    for topic in 0..3u8 {
                        for client in 0..3u8 {
                            let client = format!("did:key:z{client}");
                            let expected: Vec<i64> = model
                                .messages
                                .iter()
                                .filter(|m| m.topic == format!("{topic:02x}").repeat(32))
                                .filter(|m| m.expires_at > now && m.publisher != client)
                                .filter(|m| !model.acks.contains(&(m.id, client.clone())))
                                .take(2)
                                .map(|m| m.id)
                                .collect();
                            prop_assert_eq!(
                                index.pending(&format!("{topic:02x}").repeat(32), &client, now, 2),
                                expected
                            );
                        }
                    }
                }
            }
        }
    }
}
