//! Group commit for the mailbox: publishes and acks from every connection are
//! queued to a writer, which stores whatever has gathered in one transaction,
//! answers each publisher once its message is durable, and only then hands the
//! new messages to this node's subscribers (and the other nodes). One commit per
//! batch instead of one per message is what lets a persisted relay keep up with
//! a socket: under load batches grow, when idle a message waits for no one.
//! There is a writer per shard of the store ([`RelayShards`]: SQLite's mailbox
//! is split by topic over files): a topic's publishes all go to one writer, in
//! order, and the writers commit at once.
//!
//! Quotas are counted here, from the store (so they hold across nodes sharing
//! it) plus what the batch itself adds. A topic's quota is one writer's alone;
//! a publisher's spans writers, so messages admitted but not yet stored are
//! reserved ([`Reserved`]) until the store counts them. A batch the store
//! refuses is written again message by message, so one unstorable message
//! fails only its own publish.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::fanout::RedisFanout;
use super::metrics::RelayMetrics;
use super::Hub;
use crate::store::{RelayAck, RelayMailbox, RelayMessage, RelayShards};

/// Most operations stored in one transaction.
const BATCH: usize = 2048;

/// Why a publish was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum MailboxError {
    /// The topic's or the publisher's quota of held messages is spent.
    #[error("mailbox quota exceeded")]
    Full,
    /// The database refused it (or the writer is gone).
    #[error("storing the message failed")]
    Failed,
}

/// How many unexpired messages the mailbox may hold.
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    /// Per topic.
    pub per_topic: u64,
    /// Per publisher, all topics together.
    pub per_publisher: u64,
}

type Answer = oneshot::Sender<Result<bool, MailboxError>>;

enum Write {
    Publish(RelayMessage, Answer),
    Ack(RelayAck),
}

/// The queues in front of the writer tasks, started at first use (the store
/// then reads its shards, which a server that never relays does not pay for).
pub struct Mailbox {
    inner: Arc<Inner>,
}

struct Inner {
    store: Arc<dyn RelayMailbox>,
    outlets: Arc<Outlets>,
    writers: tokio::sync::OnceCell<Writers>,
}

/// A writer per shard, and which shard stores what.
struct Writers {
    shards: Arc<RelayShards>,
    queues: Vec<mpsc::UnboundedSender<Write>>,
}

/// Messages per publisher admitted by a writer and not yet counted by the
/// store. Taken for a batch's whole admission, and to give a batch's back once
/// the store counts them, so another writer admitting meanwhile counts each
/// message at least once (at worst twice, briefly: a little strict, never over).
#[derive(Default)]
struct Reserved(tokio::sync::Mutex<HashMap<String, u64>>);

impl Reserved {
    /// Gives back what `admitted` reserved.
    async fn release(&self, admitted: &HashMap<String, u64>) {
        if admitted.is_empty() {
            return;
        }
        let mut reserved = self.0.lock().await;
        for (publisher, count) in admitted {
            if let Some(held) = reserved.get_mut(publisher) {
                *held = held.saturating_sub(*count);
                if *held == 0 {
                    reserved.remove(publisher);
                }
            }
        }
    }
}

/// Where new messages go once stored.
pub struct Outlets {
    /// This node's subscribers.
    pub hub: Arc<Hub>,
    /// The other nodes, when scaled out.
    pub fanout: Option<RedisFanout>,
    /// This node's id on the fan-out channel.
    pub node: String,
    /// Published / duplicate counters.
    pub metrics: Arc<RelayMetrics>,
    /// What the mailbox may hold.
    pub quotas: Quotas,
}

impl Mailbox {
    /// The mailbox over `store`; its writers start at first use.
    pub fn start(store: Arc<dyn RelayMailbox>, outlets: Outlets) -> Self {
        Self {
            inner: Arc::new(Inner {
                store,
                outlets: Arc::new(outlets),
                writers: tokio::sync::OnceCell::new(),
            }),
        }
    }

    /// Stores `message`; `Ok(false)` when it was already there (a retry or a
    /// duplicate), `Err` when over quota or the database refused it.
    pub async fn publish(&self, message: RelayMessage) -> Result<bool, MailboxError> {
        let writers = self.inner.writers().await?;
        let (answer, answered) = oneshot::channel();
        writers.queues[writers.shards.of_topic(&message.topic)]
            .send(Write::Publish(message, answer))
            .map_err(|_| MailboxError::Failed)?;
        answered.await.map_err(|_| MailboxError::Failed)?
    }

    /// Records an ack with the next batch. Not awaited: a lost ack only means
    /// the message is pushed again, which clients tolerate.
    pub fn ack(&self, ack: RelayAck) {
        match self.inner.writers.get() {
            Some(writers) => writers.send_ack(ack),
            None => {
                let inner = self.inner.clone();
                tokio::spawn(async move {
                    if let Ok(writers) = inner.writers().await {
                        writers.send_ack(ack);
                    }
                });
            }
        }
    }
}

impl Writers {
    fn send_ack(&self, ack: RelayAck) {
        let _ = self.queues[self.shards.of_message(ack.message_id)].send(Write::Ack(ack));
    }
}

impl Inner {
    /// The writers, started the first time: one per shard of the store.
    async fn writers(&self) -> Result<&Writers, MailboxError> {
        self.writers
            .get_or_try_init(|| async {
                let shards = self.store.relay_shards().await.map_err(|error| {
                    tracing::error!(%error, "relay: reading the mailbox failed");
                    MailboxError::Failed
                })?;
                let reserved = Arc::new(Reserved::default());
                let queues = (0..shards.count())
                    .map(|_| {
                        let (queue, mut incoming) = mpsc::unbounded_channel::<Write>();
                        let store = self.store.clone();
                        let outlets = self.outlets.clone();
                        let reserved = reserved.clone();
                        tokio::spawn(async move {
                            let mut batch = Vec::with_capacity(BATCH);
                            while incoming.recv_many(&mut batch, BATCH).await > 0 {
                                write(store.as_ref(), &outlets, &reserved, std::mem::take(&mut batch)).await;
                            }
                        });
                        queue
                    })
                    .collect();
                Ok(Writers { shards, queues })
            })
            .await
    }
}

async fn write(store: &dyn RelayMailbox, outlets: &Outlets, reserved: &Reserved, batch: Vec<Write>) {
    let mut publishes = Vec::new();
    let mut acks = Vec::new();
    for write in batch {
        match write {
            Write::Publish(message, answer) => publishes.push((message, answer)),
            Write::Ack(ack) => acks.push(ack),
        }
    }
    let (messages, answers) = within_quotas(store, outlets.quotas, reserved, publishes).await;
    let mut admitted: HashMap<String, u64> = HashMap::new();
    for message in &messages {
        count_one(&mut admitted, &message.publisher);
    }
    // Once stored or not, the store's count says what it holds: the
    // reservations go back before publishers hear, so a publisher's next
    // publish is counted exactly.
    match store.relay_write(&messages, &acks).await {
        Ok(fresh) => {
            reserved.release(&admitted).await;
            settle(outlets, messages, answers, fresh);
        }
        Err(error) if messages.len() > 1 => {
            tracing::warn!(%error, messages = messages.len(), "relay: a mailbox batch failed; storing its messages one by one");
            if let Err(error) = store.relay_write(&[], &acks).await {
                tracing::error!(%error, acks = acks.len(), "relay: storing acks failed");
            }
            for (message, answer) in messages.into_iter().zip(answers) {
                match store.relay_write(std::slice::from_ref(&message), &[]).await {
                    Ok(fresh) => settle(outlets, vec![message], vec![answer], fresh),
                    Err(error) => {
                        tracing::warn!(%error, topic = %message.topic, "relay: a message could not be stored");
                        let _ = answer.send(Err(MailboxError::Failed));
                    }
                }
            }
            reserved.release(&admitted).await;
        }
        Err(error) => {
            reserved.release(&admitted).await;
            tracing::error!(%error, messages = messages.len(), acks = acks.len(), "relay: storing a mailbox batch failed");
            for answer in answers {
                let _ = answer.send(Err(MailboxError::Failed));
            }
        }
    }
}

/// The publishes that fit their topic's and publisher's quotas (counting the
/// store, what other writers reserved and the batch so far), reserved; the
/// others are answered `Full` here.
async fn within_quotas(
    store: &dyn RelayMailbox,
    quotas: Quotas,
    reserved: &Reserved,
    publishes: Vec<(RelayMessage, Answer)>,
) -> (Vec<RelayMessage>, Vec<Answer>) {
    if publishes.is_empty() {
        return (Vec::new(), Vec::new());
    }
    let mut reserved = reserved.0.lock().await;
    let mut topics: HashMap<String, u64> = HashMap::new();
    let mut publishers: HashMap<String, u64> = HashMap::new();
    for (message, _) in &publishes {
        topics.entry(message.topic.clone()).or_default();
        publishers.entry(message.publisher.clone()).or_default();
    }
    let topic_names: Vec<String> = topics.keys().cloned().collect();
    let publisher_names: Vec<String> = publishers.keys().cloned().collect();
    match store
        .relay_counts(&topic_names, &publisher_names, crate::now_ms())
        .await
    {
        Ok((topic_counts, publisher_counts)) => {
            topics.extend(topic_names.into_iter().zip(topic_counts));
            publishers.extend(publisher_names.into_iter().zip(publisher_counts).map(|(name, count)| {
                let count = count.saturating_add(reserved.get(&name).copied().unwrap_or(0));
                (name, count)
            }));
        }
        Err(error) => {
            tracing::error!(%error, "relay: counting the mailbox failed");
            for (_, answer) in publishes {
                let _ = answer.send(Err(MailboxError::Failed));
            }
            return (Vec::new(), Vec::new());
        }
    }
    let mut messages = Vec::with_capacity(publishes.len());
    let mut answers = Vec::with_capacity(publishes.len());
    for (message, answer) in publishes {
        let topic = topics.entry(message.topic.clone()).or_default();
        let publisher = publishers.entry(message.publisher.clone()).or_default();
        if *topic >= quotas.per_topic || *publisher >= quotas.per_publisher {
            let _ = answer.send(Err(MailboxError::Full));
            continue;
        }
        *topic = topic.saturating_add(1);
        *publisher = publisher.saturating_add(1);
        count_one(&mut reserved, &message.publisher);
        messages.push(message);
        answers.push(answer);
    }
    (messages, answers)
}

/// Adds one to `publisher`'s count (copying the name only the first time).
fn count_one(counts: &mut HashMap<String, u64>, publisher: &str) {
    match counts.get_mut(publisher) {
        Some(count) => *count += 1,
        None => {
            counts.insert(publisher.to_owned(), 1);
        }
    }
}

/// Answers the publishers of stored `messages` and hands the new ones on.
fn settle(outlets: &Outlets, messages: Vec<RelayMessage>, answers: Vec<Answer>, fresh: Vec<Option<i64>>) {
    for ((mut message, answer), stored) in messages.into_iter().zip(answers).zip(fresh) {
        let _ = answer.send(Ok(stored.is_some()));
        let Some(id) = stored else {
            outlets.metrics.duplicates.fetch_add(1, Ordering::Relaxed);
            continue;
        };
        outlets.metrics.published.fetch_add(1, Ordering::Relaxed);
        message.id = id;
        let message = Arc::new(message);
        outlets.hub.deliver(&message);
        if let Some(fanout) = &outlets.fanout {
            fanout.send(&outlets.node, &message);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::SqliteStore;

    fn message(topic: &str, n: usize, publisher: &str) -> RelayMessage {
        RelayMessage {
            id: 0,
            topic: topic.into(),
            hash: format!("{n:0>64}"),
            message: format!("m{n}"),
            tag: 1108,
            publisher: publisher.into(),
            published_at: 1,
            expires_at: i64::MAX,
        }
    }

    fn mailbox(store: Arc<SqliteStore>, quotas: Quotas) -> Mailbox {
        Mailbox::start(
            store,
            Outlets {
                hub: Arc::new(Hub::default()),
                fanout: None,
                node: "test".into(),
                metrics: Arc::new(RelayMetrics::default()),
                quotas,
            },
        )
    }

    const NO_QUOTAS: Quotas = Quotas {
        per_topic: u64::MAX,
        per_publisher: u64::MAX,
    };

    // Many topics over 4 shards, every topic's publishes pipelined (as one
    // connection sends them) while all topics publish at once: each topic's
    // messages are stored in publish order, duplicates are refused, and the
    // writers of several shards took part.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn each_topic_keeps_its_order_across_shards_under_concurrent_publishes() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let store = Arc::new(SqliteStore::open_sharded(&url, 4).await.unwrap());
        let mailbox = Arc::new(mailbox(store.clone(), NO_QUOTAS));
        let topics: Vec<String> = (0..24u32).map(|n| format!("{n:064x}")).collect();
        let tasks: Vec<_> = topics
            .iter()
            .map(|topic| {
                let (mailbox, topic) = (mailbox.clone(), topic.clone());
                tokio::spawn(async move {
                    // Each publish is queued when first polled, in this order.
                    let publishes = (0..60).map(|n| mailbox.publish(message(&topic, n, "did:key:zDapp")));
                    let stored = futures_util::future::join_all(publishes).await;
                    assert!(stored.into_iter().all(|s| s == Ok(true)));
                    // The same message again (a publisher's retry) is not stored twice.
                    assert_eq!(mailbox.publish(message(&topic, 7, "did:key:zDapp")).await, Ok(false));
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        let mut shards = std::collections::HashSet::new();
        for topic in &topics {
            let pending = store.relay_pending(topic, "did:key:zWallet", 0, 100).await.unwrap();
            let texts: Vec<String> = pending.iter().map(|m| m.message.clone()).collect();
            let expected: Vec<String> = (0..60).map(|n| format!("m{n}")).collect();
            assert_eq!(texts, expected, "topic {topic}");
            assert!(pending.windows(2).all(|w| w[0].id < w[1].id));
            shards.insert(pending[0].id >> crate::store::journal::SHARD_SHIFT);
        }
        assert!(shards.len() >= 3, "topics spread over the shards: {shards:?}");
        assert_eq!(store.relay_mailbox_size(0).await.unwrap(), 24 * 60);
    }

    // A publisher's quota spans shards: publishing to many topics at once
    // (their writers admitting at the same time) never stores more than it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_publishers_quota_holds_across_shards() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("latch.db").display());
        let store = Arc::new(SqliteStore::open_sharded(&url, 4).await.unwrap());
        let mailbox = mailbox(
            store.clone(),
            Quotas {
                per_topic: 3,
                per_publisher: 25,
            },
        );
        let topics: Vec<String> = (0..40u32).map(|n| format!("{n:064x}")).collect();
        let held = || async {
            store
                .relay_counts(&[], &["did:key:zDapp".to_owned()], 0)
                .await
                .unwrap()
                .1[0]
        };
        let publishes = topics
            .iter()
            .flat_map(|topic| (0..2).map(move |n| (topic, n)))
            .map(|(topic, n)| mailbox.publish(message(topic, n, "did:key:zDapp")));
        let answers = futures_util::future::join_all(publishes).await;
        let stored = answers.iter().filter(|a| **a == Ok(true)).count();
        let full = answers.iter().filter(|a| **a == Err(MailboxError::Full)).count();
        assert_eq!(stored + full, 80, "{answers:?}");
        // Never past the quota (a little short, maybe, while writes were in flight).
        assert!((1..=25).contains(&stored), "stored {stored}");
        assert_eq!(held().await, stored as u64);
        // One at a time, each counted exactly once answered: up to the quota, then no further.
        for (n, topic) in topics.iter().enumerate() {
            let answer = mailbox.publish(message(topic, 10 + n, "did:key:zDapp")).await;
            let expected = if n < 25 - stored {
                Ok(true)
            } else {
                Err(MailboxError::Full)
            };
            assert_eq!(answer, expected, "publish {n}");
        }
        assert_eq!(held().await, 25);
        // Another publisher still has its own quota, and a topic its own.
        assert_eq!(
            mailbox.publish(message(&topics[0], 9, "did:key:zOther")).await,
            Ok(true)
        );
        let on_topic = store.relay_counts(&[topics[0].clone()], &[], 0).await.unwrap().0[0];
        assert!(on_topic <= 3);
    }
}
