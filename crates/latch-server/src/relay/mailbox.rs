//! Group commit for the mailbox: publishes and acks from every connection are
//! queued to one writer, which stores whatever has gathered in one transaction,
//! answers each publisher once its message is durable, and only then hands the
//! new messages to this node's subscribers (and the other nodes). One commit per
//! batch instead of one per message is what lets a persisted relay keep up with
//! a socket: under load batches grow, when idle a message waits for no one.

use std::sync::atomic::Ordering;
use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::fanout::RedisFanout;
use super::metrics::RelayMetrics;
use super::Hub;
use crate::store::{RelayAck, RelayMessage, Store};

/// Most operations stored in one transaction.
const BATCH: usize = 2048;

enum Write {
    Publish(RelayMessage, oneshot::Sender<Result<bool, ()>>),
    Ack(RelayAck),
}

/// The queue in front of the writer task.
pub struct Mailbox {
    queue: mpsc::UnboundedSender<Write>,
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
}

impl Mailbox {
    /// Starts the writer over `store`.
    pub fn start(store: Arc<dyn Store>, outlets: Outlets) -> Self {
        let (queue, mut incoming) = mpsc::unbounded_channel::<Write>();
        tokio::spawn(async move {
            let mut batch = Vec::with_capacity(BATCH);
            while incoming.recv_many(&mut batch, BATCH).await > 0 {
                write(store.as_ref(), &outlets, std::mem::take(&mut batch)).await;
            }
        });
        Self { queue }
    }

    /// Stores `message`; `Ok(false)` when it was already there (a retry or a
    /// duplicate), `Err` when the database refused it.
    pub async fn publish(&self, message: RelayMessage) -> Result<bool, ()> {
        let (answer, answered) = oneshot::channel();
        self.queue.send(Write::Publish(message, answer)).map_err(drop)?;
        answered.await.map_err(drop)?
    }

    /// Records an ack with the next batch. Not awaited: a lost ack only means
    /// the message is pushed again, which clients tolerate.
    pub fn ack(&self, ack: RelayAck) {
        let _ = self.queue.send(Write::Ack(ack));
    }
}

async fn write(store: &dyn Store, outlets: &Outlets, batch: Vec<Write>) {
    let mut messages = Vec::new();
    let mut answers = Vec::new();
    let mut acks = Vec::new();
    for write in batch {
        match write {
            Write::Publish(message, answer) => {
                messages.push(message);
                answers.push(answer);
            }
            Write::Ack(ack) => acks.push(ack),
        }
    }
    match store.relay_write(&messages, &acks).await {
        Ok(fresh) => {
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
        Err(error) => {
            tracing::error!(%error, messages = messages.len(), acks = acks.len(), "relay: storing a mailbox batch failed");
            for answer in answers {
                let _ = answer.send(Err(()));
            }
        }
    }
}
