//! The SQLite relay mailbox split by topic into shards, each a journal
//! (`store::journal`) in its own database file with its own writer connection,
//! group commits and index, so the relay's writers share no lock: SQLite lets
//! one writer at a time into a file, and one writer was the relay's ceiling
//! (BENCHMARKS.md, issue 30).
//!
//! Shard 0 is the journal in the main database file (where a single journal
//! always was, so a database from before shards is shard 0 as it is); shard
//! `n` lives in `<main file>-relay-<n>`. A topic's messages all go to one
//! shard, so per-topic order (ids increase within a shard) and de-duplication
//! by (topic, hash) hold within it. Which shard: the topic's hash modulo the
//! configured count, unless the topic is already held by another shard when
//! the files are read (the count changed since they were written): then that
//! shard keeps it. Every shard file found is opened whatever the count, so
//! changing it between restarts loses nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use super::journal::{Journal, MAX_SHARDS, SHARD_SHIFT};
use super::{RelayAck, RelayMessage, StoreError, StoreResult};

/// Which shard of the relay mailbox stores what: each shard has its own
/// writer, so the relay runs one group commit per shard at once.
#[derive(Debug, Clone)]
pub struct RelayShards {
    /// Shards there are (new topics go to the first `hashed`).
    count: usize,
    /// Shards new topics are spread over (the configured count).
    hashed: usize,
    /// Topics held, when the files were read, by a shard other than their hash's.
    moved: HashMap<Box<str>, usize, foldhash::fast::RandomState>,
}

impl RelayShards {
    /// One shard: everything in one place (Postgres, or a single journal).
    pub fn one() -> Self {
        Self {
            count: 1,
            hashed: 1,
            moved: HashMap::default(),
        }
    }

    /// How many shards there are.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The shard that stores `topic`'s messages.
    pub fn of_topic(&self, topic: &str) -> usize {
        if self.count == 1 {
            return 0;
        }
        match self.moved.get(topic) {
            Some(&shard) => shard,
            None => hash_shard(topic, self.hashed),
        }
    }

    /// The shard that stores the message `id` (and so its acks). An id naming
    /// no shard names no message either: shard 0 will find nothing under it.
    pub fn of_message(&self, id: i64) -> usize {
        if self.count == 1 {
            return 0;
        }
        usize::try_from(id >> SHARD_SHIFT)
            .ok()
            .filter(|&shard| shard < self.count)
            .unwrap_or(0)
    }
}

/// A topic's shard among `shards` by its hash: FNV-1a, so the same across
/// processes and restarts (a topic is already a random hex string).
fn hash_shard(topic: &str, shards: usize) -> usize {
    let hash = topic.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    });
    (hash % shards as u64) as usize
}

/// One shard: its journal, and the pool its rows are read back and its WAL
/// checkpointed on (the main pool for shard 0).
#[derive(Debug)]
pub(super) struct Shard {
    pub(super) journal: Journal,
    pub(super) pool: SqlitePool,
}

/// The mailbox's shards and, once their files were read, which stores what.
#[derive(Debug)]
pub(super) struct JournalShards {
    shards: Vec<Shard>,
    /// The configured count, at most `shards.len()`.
    hashed: usize,
    router: tokio::sync::OnceCell<Arc<RelayShards>>,
}

/// The file of shard `n` (≥ 1) beside the main database file `main`.
fn shard_path(main: &Path, n: usize) -> PathBuf {
    let mut name = main.file_name().unwrap_or_default().to_owned();
    name.push(format!("-relay-{n}"));
    main.with_file_name(name)
}

/// The highest shard number of the files beside `main` (0 when there are none).
fn highest_shard_file(main: &Path) -> StoreResult<usize> {
    let Some(name) = main.file_name().and_then(|n| n.to_str()) else {
        return Ok(0);
    };
    let prefix = format!("{name}-relay-");
    let dir = match main.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(error) => return Err(StoreError::Database(sqlx::Error::Io(error))),
    };
    let mut highest = 0;
    for entry in entries {
        let entry = entry.map_err(|error| StoreError::Database(sqlx::Error::Io(error)))?;
        let file = entry.file_name();
        // Only `<name>-relay-<digits>`: not its `-wal` and `-shm` companions.
        let number = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|n| n.parse::<usize>().ok());
        if let Some(number) = number {
            highest = highest.max(number);
        }
    }
    Ok(highest)
}

/// Opens a connection pool of at most `connections` on `options`.
async fn pool(options: &SqliteConnectOptions, connections: u32) -> StoreResult<SqlitePool> {
    Ok(SqlitePoolOptions::new()
        .max_connections(connections)
        // A local file needs no liveness check: sqlx's ping before each
        // acquire was one more round trip to SQLite's thread per commit.
        .test_before_acquire(false)
        .connect_with(options.clone())
        .await?)
}

impl JournalShards {
    /// Shard 0 on `main_writer` / `main_pool`, and `configured` shards or as
    /// many as there are files beside `options`' file, whichever is more. An
    /// in-memory database has one shard.
    pub(super) async fn open(
        options: &SqliteConnectOptions,
        main_writer: SqlitePool,
        main_pool: SqlitePool,
        configured: usize,
    ) -> StoreResult<Self> {
        let main = options.get_filename().to_owned();
        let in_memory = main.as_os_str().is_empty() || main == Path::new(":memory:");
        let configured = if in_memory { 1 } else { configured.clamp(1, MAX_SHARDS) };
        let count = if in_memory {
            1
        } else {
            configured.max(highest_shard_file(&main)? + 1)
        };
        if count > MAX_SHARDS {
            return Err(StoreError::Corrupt(format!(
                "relay journal: a shard file numbered {} (at most {} shards)",
                count - 1,
                MAX_SHARDS - 1
            )));
        }
        let mut shards = vec![Shard {
            journal: Journal::new(main_writer, main_pool.clone(), 0),
            pool: main_pool,
        }];
        for n in 1..count {
            let options = options.clone().filename(shard_path(&main, n));
            let writer = pool(&options, 1).await?;
            // The same table as migration 0034 and index as 0035 make in the main file.
            sqlx::query(
                "CREATE TABLE IF NOT EXISTS relay_journal (
                     id INTEGER PRIMARY KEY AUTOINCREMENT,
                     expires_at BIGINT NOT NULL,
                     body BLOB NOT NULL
                 )",
            )
            .execute(&writer)
            .await?;
            sqlx::query("CREATE INDEX IF NOT EXISTS relay_journal_by_expiry ON relay_journal (expires_at)")
                .execute(&writer)
                .await?;
            let reads = pool(&options, 2).await?;
            shards.push(Shard {
                journal: Journal::new(writer, reads.clone(), n),
                pool: reads,
            });
        }
        Ok(Self {
            shards,
            hashed: configured,
            router: tokio::sync::OnceCell::new(),
        })
    }

    /// Every shard.
    pub(super) fn shards(&self) -> &[Shard] {
        &self.shards
    }

    /// Shard 0's journal rows at most `row_messages` each (tests reach rows-spanning writes).
    #[cfg(test)]
    pub(super) fn with_row_messages(self, row_messages: usize) -> Self {
        Self {
            shards: self
                .shards
                .into_iter()
                .map(|shard| Shard {
                    journal: shard.journal.with_row_messages(row_messages),
                    pool: shard.pool,
                })
                .collect(),
            ..self
        }
    }

    /// Shard 0's writer connection (the checkpointer's tests pause it).
    #[cfg(test)]
    pub(super) fn writer(&self) -> &SqlitePool {
        self.shards[0].journal.writer()
    }

    /// Which shard stores what; reads every shard's rows the first time.
    pub(super) async fn router(&self) -> StoreResult<Arc<RelayShards>> {
        self.router
            .get_or_try_init(|| async {
                let held = futures_util::future::try_join_all(self.shards.iter().map(|s| s.journal.topics())).await?;
                let mut moved = HashMap::default();
                for (shard, topics) in held.into_iter().enumerate() {
                    for topic in topics {
                        if hash_shard(&topic, self.hashed) == shard {
                            continue;
                        }
                        // Each topic is written to one shard, so it is held by one; the
                        // first found keeps it should files have been copied around.
                        if let Some(first) = moved.get(&*topic) {
                            tracing::warn!(%topic, first, also = shard, "relay journal: a topic held by two shards");
                        } else {
                            moved.insert(Box::from(&*topic), shard);
                        }
                    }
                }
                if !moved.is_empty() {
                    tracing::info!(
                        topics = moved.len(),
                        "relay journal: topics stay in the shard that holds them (the shard count changed)"
                    );
                }
                Ok(Arc::new(RelayShards {
                    count: self.shards.len(),
                    hashed: self.hashed,
                    moved,
                }))
            })
            .await
            .cloned()
    }

    /// See [`super::RelayMailbox::relay_write`]: each shard's part in its own
    /// commit (the relay's writers send one shard's at a time: one commit).
    pub(super) async fn write(&self, messages: &[RelayMessage], acks: &[RelayAck]) -> StoreResult<Vec<Option<i64>>> {
        let router = self.router().await?;
        let message_shards: Vec<usize> = messages.iter().map(|m| router.of_topic(&m.topic)).collect();
        let ack_shards: Vec<usize> = acks.iter().map(|a| router.of_message(a.message_id)).collect();
        let mut all = message_shards.iter().chain(&ack_shards);
        let Some(&first) = all.next() else {
            return Ok(Vec::new());
        };
        if all.all(|&shard| shard == first) {
            return self.shards[first].journal.write(messages, acks).await;
        }
        let mut ids = vec![None; messages.len()];
        for (n, shard) in self.shards.iter().enumerate() {
            let places: Vec<usize> = (0..messages.len()).filter(|&i| message_shards[i] == n).collect();
            let batch: Vec<RelayMessage> = places.iter().map(|&i| messages[i].clone()).collect();
            let shard_acks: Vec<RelayAck> = acks
                .iter()
                .zip(&ack_shards)
                .filter(|(_, &s)| s == n)
                .map(|(a, _)| a.clone())
                .collect();
            if batch.is_empty() && shard_acks.is_empty() {
                continue;
            }
            let stored = shard.journal.write(&batch, &shard_acks).await?;
            for (place, id) in places.into_iter().zip(stored) {
                ids[place] = id;
            }
        }
        Ok(ids)
    }

    /// See [`super::RelayMailbox::relay_pending`].
    pub(super) async fn pending(
        &self,
        topic: &str,
        client_id: &str,
        now_ms: i64,
        limit: u32,
    ) -> StoreResult<Vec<RelayMessage>> {
        let shard = self.router().await?.of_topic(topic);
        self.shards[shard]
            .journal
            .pending(topic, client_id, now_ms, limit)
            .await
    }

    /// See [`super::RelayMailbox::relay_prune`].
    pub(super) async fn prune(&self, now_ms: i64) -> StoreResult<u64> {
        self.router().await?;
        let mut pruned = 0;
        for shard in &self.shards {
            pruned += shard.journal.prune(now_ms).await?;
        }
        Ok(pruned)
    }

    /// See [`super::RelayMailbox::relay_counts`]: a topic's from its shard, a
    /// publisher's summed over all.
    pub(super) async fn counts(&self, topics: &[String], publishers: &[String]) -> StoreResult<(Vec<u64>, Vec<u64>)> {
        let router = self.router().await?;
        let mut topic_counts = Vec::with_capacity(topics.len());
        for topic in topics {
            let shard = &self.shards[router.of_topic(topic)];
            topic_counts.extend(shard.journal.counts(std::slice::from_ref(topic), &[]).await?.0);
        }
        let mut publisher_counts = vec![0; publishers.len()];
        for shard in &self.shards {
            let (_, counts) = shard.journal.counts(&[], publishers).await?;
            for (sum, count) in publisher_counts.iter_mut().zip(counts) {
                *sum += count;
            }
        }
        Ok((topic_counts, publisher_counts))
    }

    /// See [`super::RelayMailbox::relay_mailbox_size`].
    pub(super) async fn size(&self, now_ms: i64) -> StoreResult<u64> {
        self.router().await?;
        let mut size = 0;
        for shard in &self.shards {
            size += shard.journal.size(now_ms).await?;
        }
        Ok(size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{RelayMailbox as _, SqliteStore};

    #[test]
    fn topics_spread_over_the_configured_shards_and_moved_ones_stay() {
        let mut shards = RelayShards {
            count: 4,
            hashed: 2,
            moved: HashMap::default(),
        };
        let topics: Vec<String> = (0..200u32).map(|n| format!("{n:064x}")).collect();
        let mut used = [0; 4];
        for topic in &topics {
            used[shards.of_topic(topic)] += 1;
        }
        assert!(used[0] > 50 && used[1] > 50 && used[2] == 0 && used[3] == 0, "{used:?}");
        shards.moved.insert(topics[0].as_str().into(), 3);
        assert_eq!(shards.of_topic(&topics[0]), 3);
        assert_eq!(RelayShards::one().of_topic(&topics[0]), 0);

        assert_eq!(shards.of_message((3 << SHARD_SHIFT) | 77), 3);
        assert_eq!(shards.of_message((9 << SHARD_SHIFT) | 77), 0, "no such shard");
        assert_eq!(shards.of_message(-5), 0);
        assert_eq!(RelayShards::one().of_message(3 << SHARD_SHIFT), 0);
    }

    fn message(topic: &str, text: &str) -> RelayMessage {
        RelayMessage {
            id: 0,
            topic: topic.into(),
            hash: format!("{text:0>64}"),
            message: text.into(),
            tag: 1108,
            publisher: "did:key:zDapp".into(),
            published_at: 1,
            expires_at: 9_000,
        }
    }

    fn shard_of(id: i64) -> i64 {
        id >> SHARD_SHIFT
    }

    async fn texts(store: &SqliteStore, topic: &str, client: &str) -> Vec<String> {
        let pending = store.relay_pending(topic, client, 500, 100).await.unwrap();
        assert!(pending.windows(2).all(|w| w[0].id < w[1].id), "in id order");
        pending.into_iter().map(|m| m.message).collect()
    }

    async fn write(store: &SqliteStore, topic: &str, text: &str) -> Option<i64> {
        store.relay_write(&[message(topic, text)], &[]).await.unwrap()[0]
    }

    // A database of one journal (as every database before shards) opened with
    // 4 shards, then with 1 again: nothing is lost, each topic stays in the
    // shard that holds it (order and de-duplication hold), ids are unchanged.
    #[tokio::test]
    async fn changing_the_shard_count_between_restarts_loses_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let old: Vec<String> = (0..16u32).map(|n| format!("{n:064x}")).collect();
        let new: Vec<String> = (100..116u32).map(|n| format!("{n:064x}")).collect();

        let store = SqliteStore::open_sharded(&url, 1).await.unwrap();
        let mut ids = Vec::new();
        for topic in &old {
            let written = store
                .relay_write(&[message(topic, "m0"), message(topic, "m1")], &[])
                .await
                .unwrap();
            assert!(written.iter().all(|id| id.is_some_and(|id| shard_of(id) == 0)));
            ids.push(written);
        }
        let ack = |id: i64| RelayAck {
            message_id: id,
            client_id: "did:key:zWallet".into(),
        };
        store.relay_write(&[], &[ack(ids[0][0].unwrap())]).await.unwrap();
        drop(store);
        assert_eq!(highest_shard_file(&dir.path().join("latch.db")).unwrap(), 0, "one file");

        let store = SqliteStore::open_sharded(&url, 4).await.unwrap();
        assert_eq!(store.relay_shards().await.unwrap().count(), 4);
        for (topic, ids) in old.iter().zip(&ids) {
            let stored = store.relay_pending(topic, "did:key:zOther", 500, 10).await.unwrap();
            assert_eq!(stored.iter().map(|m| Some(m.id)).collect::<Vec<_>>(), *ids, "same ids");
            assert_eq!(write(&store, topic, "m0").await, None, "still de-duplicated");
            let later = write(&store, topic, "m2").await.unwrap();
            assert_eq!(shard_of(later), 0, "the topic stays where it is held");
        }
        assert_eq!(texts(&store, &old[0], "did:key:zWallet").await, ["m1", "m2"]);
        let mut new_ids = Vec::new();
        for topic in &new {
            new_ids.push(write(&store, topic, "m0").await.unwrap());
        }
        let shards: std::collections::HashSet<i64> = new_ids.iter().map(|&id| shard_of(id)).collect();
        assert!(shards.len() >= 3, "new topics spread over the shards: {shards:?}");
        let elsewhere = new_ids.iter().position(|&id| shard_of(id) != 0).unwrap();
        store.relay_write(&[], &[ack(new_ids[elsewhere])]).await.unwrap();
        drop(store);
        assert_eq!(highest_shard_file(&dir.path().join("latch.db")).unwrap(), 3);

        // Back to one: the shard files are read all the same and keep their topics.
        let store = SqliteStore::open_sharded(&url, 1).await.unwrap();
        assert_eq!(store.relay_shards().await.unwrap().count(), 4);
        for topic in &old {
            assert_eq!(texts(&store, topic, "did:key:zOther").await, ["m0", "m1", "m2"]);
        }
        for (n, (topic, &id)) in new.iter().zip(&new_ids).enumerate() {
            let expected: &[&str] = if n == elsewhere { &[] } else { &["m0"] };
            assert_eq!(texts(&store, topic, "did:key:zWallet").await, expected);
            assert_eq!(write(&store, topic, "m0").await, None, "still de-duplicated");
            let later = write(&store, topic, "m1").await.unwrap();
            assert_eq!(shard_of(later), shard_of(id), "the topic stays where it is held");
            assert!(later > id);
        }
        assert_eq!(store.relay_mailbox_size(500).await.unwrap(), 16 * 3 + 16 * 2);
        assert_eq!(store.relay_prune(9_000).await.unwrap(), 16 * 3 + 16 * 2);
        assert_eq!(store.relay_mailbox_size(0).await.unwrap(), 0);
    }

    // A batch naming several shards (the relay's writers send one shard's at a
    // time; a caller may not) is stored part by part, answered in its order.
    #[tokio::test]
    async fn a_batch_across_shards_is_answered_in_its_order() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let store = SqliteStore::open_sharded(&url, 4).await.unwrap();
        let topics: Vec<String> = (0..12u32).map(|n| format!("{n:064x}")).collect();
        let batch: Vec<RelayMessage> = topics
            .iter()
            .chain(&topics[..3])
            .map(|topic| message(topic, "m0"))
            .collect();
        let ids = store.relay_write(&batch, &[]).await.unwrap();
        assert!(ids[..12].iter().all(Option::is_some));
        assert_eq!(ids[12..], [None, None, None], "repeats of the first three");
        for (topic, id) in topics.iter().zip(&ids) {
            let stored = store.relay_pending(topic, "did:key:zOther", 500, 10).await.unwrap();
            assert_eq!(stored.iter().map(|m| Some(m.id)).collect::<Vec<_>>(), [*id]);
        }
        let shards: std::collections::HashSet<i64> = ids.iter().flatten().map(|&id| shard_of(id)).collect();
        assert!(shards.len() >= 3, "{shards:?}");
    }

    #[test]
    fn shard_files_are_found_beside_the_main_file() {
        let dir = tempfile::tempdir().unwrap();
        let main = dir.path().join("latch.db");
        assert_eq!(highest_shard_file(&main).unwrap(), 0);
        for name in [
            "latch.db",
            "latch.db-relay-2",
            "latch.db-relay-2-wal",
            "latch.db-relay-x",
            "other.db-relay-7",
        ] {
            std::fs::write(dir.path().join(name), b"").unwrap();
        }
        assert_eq!(shard_path(&main, 2), dir.path().join("latch.db-relay-2"));
        assert_eq!(highest_shard_file(&main).unwrap(), 2);
    }
}
