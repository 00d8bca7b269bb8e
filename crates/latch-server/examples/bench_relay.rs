//! `make bench-relay`: a load generator for the relay, run by `scripts/bench-relay`.
//!
//! - `bench_relay echo <port>`: a raw WebSocket echo server (the practical ceiling
//!   of any WebSocket service on this machine), run as its own process.
//! - `bench_relay soak <ws url> [pairs] [in flight]`: only one relay loop for 30 s
//!   (to profile; by default 1 pair with 256 in flight); `soak-echo` the same
//!   loop against the echo server.
//! - `bench_relay rate <ws url> [times]`: only the relay's 100 pairs at 5k messages/s.
//! - `bench_relay run --relay <ws url> --echo <ws url> --pid <latch pid>`:
//!   publish → deliver throughput and latency with 1, 100 and 1000 topic pairs
//!   against both, the latency at a fixed 5k messages/s, and the memory `latch`
//!   holds per idle authenticated connection (10k of them).
//!
//! A relay "pair" is a publisher and a subscriber connection on one topic (the
//! subscriber acks every push, like the official clients); an echo "pair" is one
//! connection whose frames come back. Both carry the same `irn_publish` frame.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use futures_util::{SinkExt, StreamExt};
use latch_server::relay::auth;
use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{connect_async, MaybeTlsStream, WebSocketStream};

type Socket = WebSocketStream<MaybeTlsStream<tokio::net::TcpStream>>;

/// Typical size of a Sign envelope (base64 of a sealed JSON-RPC request).
const PAYLOAD_BYTES: usize = 400;
const WARMUP: Duration = Duration::from_secs(1);
const MEASURE: Duration = Duration::from_secs(5);
const IDLE_CONNECTIONS: usize = 10_000;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("echo") => echo_server(args.get(1).context("echo <port>")?.parse()?).await,
        // For profiling: one of the relay's closed loops for 30 s, nothing else
        // (by default the one-pair loop; `soak <url> 1000 1` is the 1000-pair one);
        // `soak-echo <echo url> …` is the same loop against the echo server.
        Some(verb @ ("soak" | "soak-echo")) => {
            let url = args.get(1).context("soak <url> [pairs] [in flight]")?;
            let pairs: usize = args.get(2).map_or(Ok(1), |n| n.parse())?;
            let in_flight: usize = args.get(3).map_or(Ok(256), |n| n.parse())?;
            let target = if verb == "soak" { Target::Relay } else { Target::Echo };
            let outcome = scenario(target, url, 99, pairs, in_flight, None, Duration::from_secs(30)).await?;
            println!(
                "{:.0} msg/s, p50 {:.2} ms, p99 {:.2} ms",
                outcome.per_second, outcome.p50_ms, outcome.p99_ms
            );
            Ok(())
        }
        // For the latency goal alone: the relay's 100 pairs at 5k msg/s, `times` rows in a row.
        Some("rate") => {
            let url = args.get(1).context("rate <relay url> [times]")?;
            let times: usize = args.get(2).map_or(Ok(1), |t| t.parse())?;
            for run in 0..times {
                let outcome = scenario(Target::Relay, url, 200 + run, 100, 1, Some(5000.0), MEASURE).await?;
                println!(
                    "{:.0} msg/s, p50 {:.2} ms, p99 {:.2} ms",
                    outcome.per_second, outcome.p50_ms, outcome.p99_ms
                );
            }
            Ok(())
        }
        Some("run") => {
            let flag = |name: &str| -> anyhow::Result<String> {
                let at = args
                    .iter()
                    .position(|a| a == name)
                    .with_context(|| format!("missing {name}"))?;
                args.get(at + 1)
                    .cloned()
                    .with_context(|| format!("{name} needs a value"))
            };
            run(&flag("--relay")?, &flag("--echo")?, flag("--pid")?.parse()?).await
        }
        _ => bail!("usage: bench_relay echo <port> | soak <url> [pairs] [in flight] | rate <url> [times] | run --relay <url> --echo <url> --pid <pid>"),
    }
}

async fn echo_server(port: u16) -> anyhow::Result<()> {
    let listener = TcpListener::bind(("127.0.0.1", port)).await?;
    println!("echo listening");
    loop {
        let (stream, _) = listener.accept().await?;
        tokio::spawn(async move {
            let Ok(mut socket) = tokio_tungstenite::accept_async(stream).await else {
                return;
            };
            while let Some(Ok(frame)) = socket.next().await {
                if frame.is_text() && socket.send(frame).await.is_err() {
                    break;
                }
            }
        });
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Target {
    Relay,
    Echo,
}

/// What one scenario measured.
struct Outcome {
    per_second: f64,
    p50_ms: f64,
    p99_ms: f64,
    errors: u64,
}

/// Counts and latencies shared by a scenario's tasks.
#[derive(Default)]
struct Tally {
    measuring: AtomicBool,
    delivered: AtomicU64,
    errors: AtomicU64,
    latencies_us: Mutex<Vec<u32>>,
}

impl Tally {
    fn record(&self, sent_us: u64, clock: Instant) {
        if self.measuring.load(Ordering::Relaxed) {
            let now = clock.elapsed().as_micros() as u64;
            self.delivered.fetch_add(1, Ordering::Relaxed);
            let mut latencies = self.latencies_us.lock().unwrap_or_else(|e| e.into_inner());
            latencies.push(now.saturating_sub(sent_us).min(u32::MAX as u64) as u32);
        }
    }

    fn outcome(&self, elapsed: Duration) -> Outcome {
        let mut latencies = std::mem::take(&mut *self.latencies_us.lock().unwrap_or_else(|e| e.into_inner()));
        latencies.sort_unstable();
        let at = |q: f64| {
            if latencies.is_empty() {
                f64::NAN
            } else {
                latencies[((latencies.len() - 1) as f64 * q) as usize] as f64 / 1000.0
            }
        };
        Outcome {
            per_second: self.delivered.load(Ordering::Relaxed) as f64 / elapsed.as_secs_f64(),
            p50_ms: at(0.50),
            p99_ms: at(0.99),
            errors: self.errors.load(Ordering::Relaxed),
        }
    }
}

/// Connects with a JWT of its own key (the relay never echoes a client's own publishes).
async fn connect(target: Target, url: &str, key_index: u64) -> anyhow::Result<Socket> {
    let url = match target {
        Target::Echo => url.to_owned(),
        Target::Relay => {
            let mut seed = [0x5au8; 32];
            seed[..8].copy_from_slice(&key_index.to_le_bytes());
            let key = ed25519_dalek::SigningKey::from_bytes(&seed);
            let audience = url.split("/relay").next().unwrap_or(url);
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)?
                .as_secs() as i64;
            format!(
                "{url}?auth={}",
                auth::sign(&key, &key_index.to_string(), audience, now, now + 86_400)
            )
        }
    };
    let (socket, _) = connect_async(url.as_str())
        .await
        .with_context(|| format!("connecting {url}"))?;
    Ok(socket)
}

fn topic_of(scenario: usize, pair: usize) -> String {
    format!("{:016x}{:048x}", scenario, pair)
}

fn publish_frame(id: u64, topic: &str, pair: usize, sent_us: u64) -> String {
    // The relay takes base64 messages only (as WalletConnect envelopes are), so the
    // marker `pair:id:sent_us:` and its padding travel encoded, PAYLOAD_BYTES long.
    let head = format!("{pair}:{id}:{sent_us}:");
    let raw = format!(
        "{head}{}",
        "A".repeat((PAYLOAD_BYTES / 4 * 3).saturating_sub(head.len()))
    );
    let message = latch_core::base64::encode(raw.as_bytes());
    json!({"id": id, "jsonrpc": "2.0", "method": "irn_publish",
           "params": {"topic": topic, "message": message, "ttl": 300, "tag": 1108}})
    .to_string()
}

/// The send time carried by a delivered message (base64 of `pair:id:sent_us:padding`).
fn sent_us(message: &str) -> Option<u64> {
    let raw = latch_core::base64::decode(message)?;
    std::str::from_utf8(&raw).ok()?.split(':').nth(2)?.parse().ok()
}

/// One scenario: `pairs` topic pairs, each with `window` messages in flight
/// (closed loop), or sending at `rate` messages/s in total (open loop).
async fn scenario(
    target: Target,
    url: &str,
    id: usize,
    pairs: usize,
    window: usize,
    rate: Option<f64>,
    measure: Duration,
) -> anyhow::Result<Outcome> {
    let tally = Arc::new(Tally::default());
    let clock = Instant::now();
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for pair in 0..pairs {
        let topic = topic_of(id, pair);
        let credit = Arc::new(Semaphore::new(window));
        let (mut sender, receiver_stream, receiver_sink) = match target {
            Target::Echo => {
                let (sink, stream) = connect(target, url, 0).await?.split();
                (sink, stream, None)
            }
            Target::Relay => {
                let base = (id * 10_000 + pair) as u64 * 2;
                let mut subscriber = connect(target, url, base).await?;
                subscriber
                    .send(Message::text(
                        json!({"id": 1, "jsonrpc": "2.0", "method": "irn_subscribe", "params": {"topic": topic}})
                            .to_string(),
                    ))
                    .await?;
                match subscriber.next().await {
                    Some(Ok(Message::Text(text))) if text.contains("\"result\"") => {}
                    other => bail!("subscribe failed: {other:?}"),
                }
                let (publisher_sink, mut publisher_stream) = connect(target, url, base + 1).await?.split();
                // Publish results: only errors matter.
                let results_tally = tally.clone();
                tasks.push(tokio::spawn(async move {
                    while let Some(Ok(frame)) = publisher_stream.next().await {
                        if frame.is_text() && frame.to_text().is_ok_and(|t| t.contains("\"error\"")) {
                            results_tally.errors.fetch_add(1, Ordering::Relaxed);
                        }
                    }
                }));
                let (subscriber_sink, subscriber_stream) = subscriber.split();
                (publisher_sink, subscriber_stream, Some(subscriber_sink))
            }
        };

        // Receiver: record each delivery (acking pushes on the relay) and return a credit.
        let receiver_tally = tally.clone();
        let receiver_credit = credit.clone();
        tasks.push(tokio::spawn(async move {
            let mut stream = receiver_stream;
            let mut ack_sink = receiver_sink;
            while let Some(Ok(frame)) = stream.next().await {
                let Ok(text) = frame.to_text() else { continue };
                let Ok(value) = serde_json::from_str::<Value>(text) else {
                    continue;
                };
                let message = match target {
                    Target::Echo => value.pointer("/params/message"),
                    Target::Relay => value.pointer("/params/data/message"),
                };
                let Some(sent) = message.and_then(Value::as_str).and_then(sent_us) else {
                    continue;
                };
                if let Some(sink) = ack_sink.as_mut() {
                    let ack = json!({"id": value["id"], "jsonrpc": "2.0", "result": true}).to_string();
                    if sink.send(Message::text(ack)).await.is_err() {
                        break;
                    }
                }
                receiver_tally.record(sent, clock);
                receiver_credit.add_permits(1);
            }
        }));

        // Sender.
        let sender_stop = stop.clone();
        let interval = rate.map(|total| Duration::from_secs_f64(pairs as f64 / total));
        tasks.push(tokio::spawn(async move {
            let mut next_id = 1u64;
            let mut ticker = interval.map(|every| {
                let mut ticker = tokio::time::interval(every);
                ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
                ticker
            });
            while !sender_stop.load(Ordering::Relaxed) {
                match ticker.as_mut() {
                    Some(ticker) => drop(ticker.tick().await),
                    None => match credit.acquire().await {
                        Ok(permit) => permit.forget(),
                        Err(_) => break,
                    },
                }
                next_id += 1;
                let frame = publish_frame(next_id, &topic, pair, clock.elapsed().as_micros() as u64);
                if sender.send(Message::text(frame)).await.is_err() {
                    break;
                }
            }
            let _ = sender.close().await;
        }));
    }

    tokio::time::sleep(WARMUP).await;
    tally.measuring.store(true, Ordering::Relaxed);
    let started = Instant::now();
    tokio::time::sleep(measure).await;
    tally.measuring.store(false, Ordering::Relaxed);
    let outcome = tally.outcome(started.elapsed());
    stop.store(true, Ordering::Relaxed);
    for task in tasks {
        task.abort();
    }
    Ok(outcome)
}

fn rss_kib(pid: u32) -> anyhow::Result<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).context("no VmRSS")?;
    Ok(line.split_whitespace().nth(1).context("VmRSS value")?.parse()?)
}

async fn idle_memory(url: &str, pid: u32) -> anyhow::Result<(u64, u64)> {
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = rss_kib(pid)?;
    let mut sockets = Vec::with_capacity(IDLE_CONNECTIONS);
    for chunk in (0..IDLE_CONNECTIONS).collect::<Vec<_>>().chunks(100) {
        let batch = chunk.iter().map(|i| connect(Target::Relay, url, 1_000_000 + *i as u64));
        for socket in futures_util::future::join_all(batch).await {
            sockets.push(socket?);
        }
    }
    tokio::time::sleep(Duration::from_secs(3)).await;
    let after = rss_kib(pid)?;
    drop(sockets);
    Ok((before, after))
}

async fn run(relay: &str, echo: &str, pid: u32) -> anyhow::Result<()> {
    // Memory first, on a fresh server: after the load, freed-but-kept heap would hide the cost.
    let (before, after) = idle_memory(relay, pid).await?;
    println!(
        "Idle connections: {IDLE_CONNECTIONS} authenticated sockets took latch from {before} KiB to {after} KiB RSS: {:.1} KB per connection.",
        (after.saturating_sub(before)) as f64 * 1.024 / IDLE_CONNECTIONS as f64
    );
    println!();
    println!(
        "| scenario | echo msg/s | relay msg/s | relay/echo | echo p50 / p99 ms | relay p50 / p99 ms | relay errors |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|");
    let mut id = 0;
    for pairs in [1usize, 100, 1000] {
        let window = (256 / pairs).max(1);
        id += 1;
        let raw = scenario(Target::Echo, echo, id, pairs, window, None, MEASURE).await?;
        id += 1;
        let ours = scenario(Target::Relay, relay, id, pairs, window, None, MEASURE).await?;
        row(&format!("{pairs} pair(s), {window} in flight each"), &raw, &ours);
    }
    id += 1;
    let raw = scenario(Target::Echo, echo, id, 100, 1, Some(5000.0), MEASURE).await?;
    id += 1;
    let ours = scenario(Target::Relay, relay, id, 100, 1, Some(5000.0), MEASURE).await?;
    row("100 pairs at 5000 msg/s", &raw, &ours);
    Ok(())
}

/// One Markdown table row: echo against relay.
fn row(scenario: &str, raw: &Outcome, ours: &Outcome) {
    println!(
        "| {scenario} | {:.0} | {:.0} | {:.0} % | {:.2} / {:.2} | {:.2} / {:.2} | {} |",
        raw.per_second,
        ours.per_second,
        100.0 * ours.per_second / raw.per_second,
        raw.p50_ms,
        raw.p99_ms,
        ours.p50_ms,
        ours.p99_ms,
        ours.errors
    );
}
