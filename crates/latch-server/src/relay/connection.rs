//! One client's socket: its requests, subscriptions, pushes awaiting acks and request budget.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::FuturesOrdered;
use futures_util::{FutureExt, SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::sync::mpsc;

use super::delivery::Deliveries;
use super::protocol::{self, Frame, RelayError, Request};
use super::{subscription_id, Relay, Subscriber, CLOSE_GOING_AWAY, IN_FLIGHT, PAGE_BYTES, PENDING_PAGE, QUEUE, TICK};
use crate::now_ms;
use crate::store::{RelayAck, RelayMessage};

/// A topic one connection subscribed to.
struct Joined {
    /// The topic, shared with its pushes awaiting acks.
    topic: Arc<str>,
    /// Its subscription id, repeated in every push.
    subscription: String,
}

/// A token bucket for one connection's requests.
struct Budget {
    tokens: f64,
    updated: Instant,
}

/// One client's socket.
pub(super) struct Connection {
    relay: Arc<Relay>,
    id: u64,
    client_id: Arc<str>,
    /// Subscribed topics, with what each push on them repeats.
    topics: HashMap<String, Joined>,
    deliveries: Deliveries<Arc<RelayMessage>>,
    queue: mpsc::Sender<Arc<RelayMessage>>,
    resync: Arc<AtomicBool>,
    budget: Budget,
    started: Instant,
    /// Answers to publishes still being stored, in request order: a client may
    /// pipeline publishes without waiting for each commit.
    answers: FuturesOrdered<Pin<Box<dyn Future<Output = String> + Send>>>,
}

type Sink = futures_util::stream::SplitSink<WebSocket, Message>;

impl Connection {
    pub(super) async fn run(relay: Arc<Relay>, socket: WebSocket, client_id: Arc<str>) {
        let (queue, mut incoming) = mpsc::channel(QUEUE);
        let mut connection = Connection {
            id: relay.next_connection.fetch_add(1, Ordering::Relaxed),
            deliveries: Deliveries::new(relay.config.redeliver_after_ms),
            budget: Budget {
                tokens: relay.config.rate_limit.burst,
                updated: Instant::now(),
            },
            relay,
            client_id,
            topics: HashMap::new(),
            queue,
            resync: Arc::default(),
            answers: FuturesOrdered::new(),
            started: Instant::now(),
        };
        let metrics = connection.relay.metrics.clone();
        metrics.connections.fetch_add(1, Ordering::Relaxed);
        metrics.connections_total.fetch_add(1, Ordering::Relaxed);
        let (mut sink, mut stream) = socket.split();
        let mut stopping = connection.relay.stopping.subscribe();
        let mut ping = tokio::time::interval(Duration::from_secs(connection.relay.config.ping_interval_secs));
        ping.tick().await;
        let mut tick = tokio::time::interval(TICK);
        loop {
            let step = tokio::select! {
                frame = stream.next(), if connection.answers.len() < IN_FLIGHT => match frame {
                    Some(Ok(Message::Text(text))) => connection.on_text(&mut sink, &text).await,
                    Some(Ok(Message::Binary(_))) => {
                        connection.send(&mut sink, RelayError::InvalidRequest("frames are JSON text".into()).to_response(&Value::Null)).await
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => Ok(()),
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                },
                // What is ready goes out in one write: under load a group commit
                // releases hundreds of answers and pushes at once.
                Some(message) = incoming.recv() => connection.push_ready(&mut sink, message, &mut incoming).await,
                Some(answer) = connection.answers.next(), if !connection.answers.is_empty() => connection.answer_ready(&mut sink, answer).await,
                _ = ping.tick() => sink.send(Message::Ping(Default::default())).await.map_err(drop),
                _ = tick.tick() => connection.on_tick(&mut sink).await,
                _ = async { drop(stopping.wait_for(|stop| *stop).await) } => {
                    let frame = CloseFrame { code: CLOSE_GOING_AWAY, reason: "server restarting".into() };
                    let _ = sink.send(Message::Close(Some(frame))).await;
                    break;
                }
            };
            if step.is_err() {
                break;
            }
        }
        for topic in std::mem::take(&mut connection.topics).into_keys() {
            connection.relay.hub.remove(&topic, connection.id);
            metrics.subscriptions.fetch_sub(1, Ordering::Relaxed);
        }
        metrics.connections.fetch_sub(1, Ordering::Relaxed);
    }

    fn elapsed_ms(&self) -> u64 {
        self.started.elapsed().as_millis() as u64
    }

    async fn send(&mut self, sink: &mut Sink, text: String) -> Result<(), ()> {
        sink.send(Message::Text(Utf8Bytes::from(text))).await.map_err(drop)
    }

    /// Most frames buffered before a flush.
    const FEED: usize = 256;

    /// Sends `first` and the other publish answers already settled, then flushes once.
    async fn answer_ready(&mut self, sink: &mut Sink, first: String) -> Result<(), ()> {
        sink.feed(Message::Text(Utf8Bytes::from(first))).await.map_err(drop)?;
        for _ in 1..Self::FEED {
            let Some(Some(answer)) = self.answers.next().now_or_never() else {
                break;
            };
            sink.feed(Message::Text(Utf8Bytes::from(answer))).await.map_err(drop)?;
        }
        sink.flush().await.map_err(drop)
    }

    /// Pushes `first` and the other messages already queued, then flushes once.
    async fn push_ready(
        &mut self,
        sink: &mut Sink,
        first: Arc<RelayMessage>,
        incoming: &mut mpsc::Receiver<Arc<RelayMessage>>,
    ) -> Result<(), ()> {
        self.push_frame(sink, first, false).await?;
        for _ in 1..Self::FEED {
            let Ok(message) = incoming.try_recv() else {
                break;
            };
            self.push_frame(sink, message, false).await?;
        }
        sink.flush().await.map_err(drop)
    }

    fn spend(&mut self) -> bool {
        let limit = self.relay.config.rate_limit;
        if limit.per_second <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let refill = now.duration_since(self.budget.updated).as_secs_f64() * limit.per_second;
        self.budget.tokens = (self.budget.tokens + refill).min(limit.burst);
        self.budget.updated = now;
        if self.budget.tokens >= 1.0 {
            self.budget.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    async fn on_text(&mut self, sink: &mut Sink, text: &str) -> Result<(), ()> {
        let (id, request) = match protocol::parse(text, &self.relay.limits()) {
            Ok(Frame::Ack(Some(id))) => return self.on_ack(id).await,
            Ok(Frame::Ack(None)) => return Ok(()),
            Ok(Frame::Request(id, request)) => (id, request),
            Err((id, error)) => {
                self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                return self.send(sink, error.to_response(&id)).await;
            }
        };
        if !self.spend() {
            self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
            return self.send(sink, RelayError::TooManyRequests.to_response(&id)).await;
        }
        match self.handle(&id, request).await {
            // Answered by `answers` once stored.
            Ok(None) => Ok(()),
            Ok(Some((result, then_push))) => {
                self.send(sink, json!({"id": id, "jsonrpc": "2.0", "result": result}).to_string())
                    .await?;
                // Mailbox pushes go after the answer, so the client knows the topic when they come.
                for topic in then_push {
                    self.push_pending(sink, &topic).await?;
                }
                Ok(())
            }
            Err(error) => {
                self.relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                self.send(sink, error.to_response(&id)).await
            }
        }
    }

    /// Answers a request: its result and the topics whose mailbox is to be
    /// pushed afterwards, or `None` for a publish, which is answered through
    /// `answers` once stored so that a client can pipeline publishes.
    async fn handle(&mut self, id: &Value, request: Request) -> Result<Option<(Value, Vec<String>)>, RelayError> {
        match request {
            Request::Publish(publish) => {
                let (relay, client_id, id) = (self.relay.clone(), self.client_id.clone(), id.clone());
                self.answers.push_back(Box::pin(async move {
                    match relay.publish(&client_id, publish).await {
                        Ok(()) => json!({"id": id, "jsonrpc": "2.0", "result": true}).to_string(),
                        Err(error) => {
                            relay.metrics.errors.fetch_add(1, Ordering::Relaxed);
                            error.to_response(&id)
                        }
                    }
                }));
                Ok(None)
            }
            Request::Subscribe { topics, batch } => {
                self.may_join(&topics)?;
                let ids: Vec<String> = topics.iter().map(|t| self.subscribe(t)).collect();
                let result = if batch { json!(ids) } else { json!(ids[0]) };
                Ok(Some((result, topics)))
            }
            Request::Unsubscribe { topics } => {
                for topic in topics {
                    if self.topics.remove(&topic).is_some() {
                        self.relay.hub.remove(&topic, self.id);
                        self.relay.metrics.subscriptions.fetch_sub(1, Ordering::Relaxed);
                    }
                    self.deliveries.drop_topic(&topic);
                }
                Ok(Some((json!(true), vec![])))
            }
            Request::Fetch { topics } => {
                let mut messages = Vec::new();
                let mut acks = Vec::new();
                let mut has_more = false;
                let mut bytes = 0usize;
                'topics: for topic in topics {
                    if bytes >= PAGE_BYTES {
                        // The page is full; what this topic holds comes with the next fetch.
                        has_more = true;
                        break;
                    }
                    let pending = self
                        .relay
                        .store
                        .relay_pending(&topic, &self.client_id, now_ms(), PENDING_PAGE + 1)
                        .await
                        .map_err(|_| RelayError::Internal)?;
                    has_more |= pending.len() > PENDING_PAGE as usize;
                    for message in pending.into_iter().take(PENDING_PAGE as usize) {
                        if !messages.is_empty() && bytes.saturating_add(message.message.len()) > PAGE_BYTES {
                            has_more = true;
                            break 'topics;
                        }
                        bytes = bytes.saturating_add(message.message.len());
                        // Answered here, so delivered: no push follows.
                        acks.push(RelayAck {
                            message_id: message.id,
                            client_id: self.client_id.to_string(),
                        });
                        messages.push(json!({"topic": message.topic, "message": message.message,
                            "publishedAt": message.published_at, "tag": message.tag, "attestation": null}));
                    }
                }
                self.relay
                    .store
                    .relay_write(&[], &acks)
                    .await
                    .map_err(|_| RelayError::Internal)?;
                Ok(Some((json!({"messages": messages, "hasMore": has_more}), vec![])))
            }
            Request::ProposeSession {
                pairing_topic,
                proposal,
            } => {
                self.may_join(std::slice::from_ref(&pairing_topic))?;
                self.subscribe(&pairing_topic);
                self.relay.publish(&self.client_id, proposal).await?;
                Ok(Some((json!(true), vec![pairing_topic])))
            }
            Request::ApproveSession {
                session_topic,
                response,
                settlement,
            } => {
                self.may_join(std::slice::from_ref(&session_topic))?;
                self.subscribe(&session_topic);
                self.relay.publish(&self.client_id, response).await?;
                self.relay.publish(&self.client_id, settlement).await?;
                Ok(Some((json!(true), vec![session_topic])))
            }
        }
    }

    /// Whether joining `topics` keeps this connection within its topic cap
    /// (all or none: a batch over the cap subscribes nothing).
    fn may_join(&self, topics: &[String]) -> Result<(), RelayError> {
        let cap = self.relay.config.max_topics_per_connection;
        let mut new: Vec<&str> = topics
            .iter()
            .map(String::as_str)
            .filter(|t| !self.topics.contains_key(*t))
            .collect();
        new.sort_unstable();
        new.dedup();
        if self.topics.len().saturating_add(new.len()) > cap {
            return Err(RelayError::SubscriberLimitExceeded(cap));
        }
        Ok(())
    }

    /// Joins `topic` on this node; its subscription id.
    fn subscribe(&mut self, topic: &str) -> String {
        if !self.topics.contains_key(topic) {
            let joined = Joined {
                topic: topic.into(),
                subscription: subscription_id(topic, &self.client_id),
            };
            self.topics.insert(topic.to_owned(), joined);
            self.relay.hub.add(
                topic,
                self.id,
                Subscriber {
                    client_id: self.client_id.clone(),
                    queue: self.queue.clone(),
                    resync: self.resync.clone(),
                },
            );
            self.relay.metrics.subscriptions.fetch_add(1, Ordering::Relaxed);
        }
        subscription_id(topic, &self.client_id)
    }

    /// Pushes what the mailbox holds for this client on `topic`.
    async fn push_pending(&mut self, sink: &mut Sink, topic: &str) -> Result<(), ()> {
        let pending = match self
            .relay
            .store
            .relay_pending(topic, &self.client_id, now_ms(), PENDING_PAGE)
            .await
        {
            Ok(pending) => pending,
            Err(error) => {
                tracing::error!(%error, "relay: reading the mailbox failed");
                self.resync.store(true, Ordering::Release);
                return Ok(());
            }
        };
        if pending.len() == PENDING_PAGE as usize {
            // More than a page: read again once these are acked.
            self.resync.store(true, Ordering::Release);
        }
        let mut bytes = 0usize;
        for message in pending {
            if self.deliveries.contains(message.id) {
                continue;
            }
            if bytes > 0 && bytes.saturating_add(message.message.len()) > PAGE_BYTES {
                // A page of bytes per round; the rest follows on a later tick.
                self.resync.store(true, Ordering::Release);
                break;
            }
            bytes = bytes.saturating_add(message.message.len());
            self.push(sink, Arc::new(message)).await?;
        }
        Ok(())
    }

    /// The `irn_subscription` push of `message` as request `id`; `None` once
    /// the topic is no longer subscribed.
    fn frame(&self, id: u64, message: &RelayMessage) -> Option<String> {
        let joined = self.topics.get(&message.topic)?;
        Some(protocol::subscription_frame(id, &joined.subscription, message))
    }

    async fn push(&mut self, sink: &mut Sink, message: Arc<RelayMessage>) -> Result<(), ()> {
        self.push_frame(sink, message, true).await
    }

    /// Pushes `message` unless it is the client's own, not subscribed or already
    /// in flight; flushed now or left buffered for the caller to flush.
    async fn push_frame(&mut self, sink: &mut Sink, message: Arc<RelayMessage>, flush: bool) -> Result<(), ()> {
        if *message.publisher == *self.client_id {
            return Ok(());
        }
        let Some(joined) = self.topics.get(&message.topic) else {
            return Ok(());
        };
        let topic = joined.topic.clone();
        let id = self.relay.next_push.fetch_add(1, Ordering::Relaxed);
        let now = self.elapsed_ms();
        let Some(frame) = self.frame(id, &message) else {
            return Ok(());
        };
        if !self.deliveries.offer(id, &topic, message.id, message, now) {
            return Ok(());
        }
        self.relay.metrics.pushed.fetch_add(1, Ordering::Relaxed);
        if flush {
            self.send(sink, frame).await
        } else {
            sink.feed(Message::Text(Utf8Bytes::from(frame))).await.map_err(drop)
        }
    }

    async fn on_ack(&mut self, id: u64) -> Result<(), ()> {
        let Some(message_id) = self.deliveries.ack(id) else {
            return Ok(());
        };
        self.relay.metrics.acked.fetch_add(1, Ordering::Relaxed);
        self.relay.mailbox.ack(RelayAck {
            message_id,
            client_id: self.client_id.to_string(),
        });
        Ok(())
    }

    async fn on_tick(&mut self, sink: &mut Sink) -> Result<(), ()> {
        for (id, message, _attempts) in self.deliveries.due(self.elapsed_ms()) {
            let Some(frame) = self.frame(id, &message) else {
                continue;
            };
            self.relay.metrics.redelivered.fetch_add(1, Ordering::Relaxed);
            self.send(sink, frame).await?;
        }
        if self.resync.swap(false, Ordering::AcqRel) {
            let topics: Vec<String> = self.topics.keys().cloned().collect();
            for topic in topics {
                self.push_pending(sink, &topic).await?;
            }
        }
        Ok(())
    }
}
