//! Token-bucket rate limits per project and per client IP (429 with `Retry-After`).
//!
//! [`RateLimiter`] keeps one node's buckets in memory: sharded by key hash so
//! concurrent requests rarely share a lock, and forgotten in two generations so
//! eviction is O(1) amortised (a full generation is dropped at once, never
//! scanned under the lock). [`SharedLimiter`] puts the buckets in Redis when
//! several nodes serve one deployment, so switching nodes buys no budget.

mod key;
mod shared;

use std::borrow::Borrow;
use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

pub use key::{Cidr, CidrError, IpKey};
pub use shared::SharedLimiter;

/// One limit: a steady rate and the burst a client may spend at once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    /// Requests per second refilled (0 disables the limit).
    pub per_second: f64,
    /// Bucket size.
    pub burst: f64,
}

impl Limit {
    /// Whether the limit admits everything (`per_second` 0).
    pub fn disabled(&self) -> bool {
        self.per_second <= 0.0
    }

    /// How long an untouched bucket takes to be full again: after that,
    /// forgetting it changes nothing.
    fn refill_time(&self) -> Duration {
        Duration::try_from_secs_f64(self.burst / self.per_second).unwrap_or(Duration::MAX)
    }
}

/// Buckets unused for at least this long (and at most twice it) are forgotten,
/// so memory follows active clients.
const IDLE_EVICTION: Duration = Duration::from_secs(300);
/// Independent locks: enough that the cores serving requests rarely meet.
const SHARDS: usize = 16;
/// Buckets one generation of one shard holds before it is retired: with two
/// generations, at most `2 × SHARDS × GENERATION_CAPACITY` (131,072) buckets.
const GENERATION_CAPACITY: usize = 4_096;

/// Keyed token buckets sharing one [`Limit`].
#[derive(Debug)]
pub struct RateLimiter<K = String> {
    limit: Limit,
    /// A bucket is kept at least this long unused (longer than a refill, so
    /// forgetting one never hands out a fresh burst early).
    idle: Duration,
    hasher: RandomState,
    shards: Box<[Mutex<Shard<K>>]>,
}

/// Two generations: lookups move a bucket from `previous` to `current`; when
/// `current` is full or old, `previous` is dropped whole and `current` takes its place.
#[derive(Debug)]
struct Shard<K> {
    current: HashMap<K, Bucket>,
    previous: HashMap<K, Bucket>,
    rotated: Option<Instant>,
}

impl<K> Default for Shard<K> {
    fn default() -> Self {
        Self {
            current: HashMap::new(),
            previous: HashMap::new(),
            rotated: None,
        }
    }
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl<K: Hash + Eq> RateLimiter<K> {
    /// Buckets of `limit`.
    pub fn new(limit: Limit) -> Self {
        let idle = if limit.disabled() {
            IDLE_EVICTION
        } else {
            IDLE_EVICTION.max(limit.refill_time())
        };
        Self {
            limit,
            idle,
            hasher: RandomState::new(),
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    /// The limit applied.
    pub fn limit(&self) -> Limit {
        self.limit
    }

    fn shard<Q: Hash + ?Sized>(&self, key: &Q) -> &Mutex<Shard<K>> {
        let index = self.hasher.hash_one(key) as usize % SHARDS;
        &self.shards[index]
    }

    /// Takes one token from `key`'s bucket at `now`; `Err` says how long until one is back.
    pub fn check<Q>(&self, key: &Q, now: Instant) -> Result<(), Duration>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        self.check_n(key, 1, now)
    }

    /// Takes `n` tokens (a JSON-RPC batch of `n` calls) from `key`'s bucket at
    /// `now` while one is left, possibly leaving it in debt (see `take`); `Err`
    /// says how long until a token is back.
    pub fn check_n<Q>(&self, key: &Q, n: u32, now: Instant) -> Result<(), Duration>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let Limit { per_second, burst } = self.limit;
        if self.limit.disabled() {
            return Ok(());
        }
        let mut shard = self.shard(key).lock().unwrap_or_else(|e| e.into_inner());
        let bucket = shard.bucket(key, now, burst, self.idle);
        take(bucket, f64::from(n), per_second, burst, now)
    }

    /// Whether `key` has a token left at `now`, without taking it (a client
    /// never seen has its whole burst).
    pub fn peek<Q>(&self, key: &Q, now: Instant) -> Result<(), Duration>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let Limit { per_second, burst } = self.limit;
        if self.limit.disabled() {
            return Ok(());
        }
        let shard = self.shard(key).lock().unwrap_or_else(|e| e.into_inner());
        let Some(bucket) = shard.current.get(key).or_else(|| shard.previous.get(key)) else {
            return Ok(());
        };
        let tokens = refilled(bucket, per_second, burst, now);
        if tokens >= 1.0 {
            Ok(())
        } else {
            Err(wait_for(1.0 - tokens, per_second))
        }
    }

    /// Buckets held (both generations, all shards).
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| {
                let shard = s.lock().unwrap_or_else(|e| e.into_inner());
                shard.current.len() + shard.previous.len()
            })
            .sum()
    }

    /// Whether no bucket is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl<K: Hash + Eq> Shard<K> {
    /// `key`'s bucket in the current generation, created full if unknown.
    fn bucket<Q>(&mut self, key: &Q, now: Instant, burst: f64, idle: Duration) -> &mut Bucket
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ToOwned<Owned = K> + ?Sized,
    {
        let rotated = *self.rotated.get_or_insert(now);
        if self.current.len() >= GENERATION_CAPACITY || now.saturating_duration_since(rotated) >= idle {
            // O(1) amortised: each bucket is dropped once, with its generation.
            self.previous = std::mem::take(&mut self.current);
            self.rotated = Some(now);
        }
        if !self.current.contains_key(key) {
            let bucket = self.previous.remove(key).unwrap_or(Bucket {
                tokens: burst,
                updated: now,
            });
            self.current.insert(key.to_owned(), bucket);
        }
        self.current.get_mut(key).expect("inserted above")
    }
}

/// The tokens `bucket` holds at `now`.
fn refilled(bucket: &Bucket, per_second: f64, burst: f64, now: Instant) -> f64 {
    let elapsed = now.saturating_duration_since(bucket.updated).as_secs_f64();
    (bucket.tokens + elapsed * per_second).min(burst)
}

/// Takes `n` tokens from `bucket` at `now` while at least one is left. A
/// JSON-RPC batch larger than what is left (even than the burst, up to the
/// batch cap) is served once and leaves the bucket in debt, which the calls
/// after it wait out: batching never buys more calls than single requests,
/// and a large batch is not refused for ever.
fn take(bucket: &mut Bucket, n: f64, per_second: f64, burst: f64, now: Instant) -> Result<(), Duration> {
    bucket.tokens = refilled(bucket, per_second, burst, now);
    bucket.updated = bucket.updated.max(now);
    if bucket.tokens >= 1.0 {
        bucket.tokens -= n;
        Ok(())
    } else {
        Err(wait_for(1.0 - bucket.tokens, per_second))
    }
}

/// How long `missing` tokens take to come back at `per_second`.
fn wait_for(missing: f64, per_second: f64) -> Duration {
    Duration::try_from_secs_f64(missing.max(0.0) / per_second).unwrap_or(Duration::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter(per_second: f64, burst: f64) -> RateLimiter {
        RateLimiter::new(Limit { per_second, burst })
    }

    #[test]
    fn bursts_then_refills() {
        let limiter = limiter(2.0, 3.0);
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check("a", t0).is_ok());
        }
        let wait = limiter.check("a", t0).unwrap_err();
        assert_eq!(wait, Duration::from_millis(500));
        assert!(limiter.check("b", t0).is_ok(), "keys are independent");
        assert!(limiter.check("a", t0 + Duration::from_millis(500)).is_ok());
        assert!(limiter.check("a", t0 + Duration::from_millis(500)).is_err());
        // Refill is capped at the burst.
        let later = t0 + Duration::from_secs(60);
        for _ in 0..3 {
            assert!(limiter.check("a", later).is_ok());
        }
        assert!(limiter.check("a", later).is_err());
    }

    #[test]
    fn zero_rate_disables() {
        let limiter = limiter(0.0, 0.0);
        assert!((0..1000).all(|_| limiter.check("a", Instant::now()).is_ok()));
        assert!(limiter.is_empty(), "a disabled limit keeps no buckets");
    }

    #[test]
    fn check_n_charges_n_and_keeps_the_debt() {
        let limiter = limiter(10.0, 20.0);
        let t0 = Instant::now();
        assert!(limiter.check_n("a", 15, t0).is_ok());
        assert!(limiter.check_n("a", 10, t0).is_ok(), "5 left: granted, 5 in debt");
        assert_eq!(limiter.check_n("a", 1, t0), Err(Duration::from_millis(600)));
        assert!(limiter.check("a", t0).is_err(), "the debt holds single calls too");
        // 0.6 s repays the debt and leaves one token.
        assert!(limiter.check_n("a", 1, t0 + Duration::from_millis(600)).is_ok());
        assert!(limiter.check_n("b", 0, t0).is_ok());
        assert!(limiter.check_n("b", 1000, t0).is_ok(), "larger than the burst, once");
        assert_eq!(limiter.check_n("b", 1, t0), Err(Duration::from_secs_f64(98.1)));
    }

    #[test]
    fn peek_takes_nothing() {
        let limiter = limiter(1.0, 2.0);
        let t0 = Instant::now();
        assert!(limiter.peek("a", t0).is_ok());
        assert!(limiter.is_empty(), "peeking creates no bucket");
        limiter.check_n("a", 2, t0).unwrap();
        assert_eq!(limiter.peek("a", t0).unwrap_err(), Duration::from_secs(1));
        assert!(limiter.peek("a", t0 + Duration::from_secs(1)).is_ok());
    }

    #[test]
    fn memory_is_bounded_and_recent_buckets_survive_a_flood() {
        let limiter = limiter(1.0, 5.0);
        let t0 = Instant::now();
        limiter.check_n("victim", 5, t0).unwrap();
        for i in 0..(4 * SHARDS * GENERATION_CAPACITY) {
            limiter.check(&format!("flood-{i}"), t0).unwrap();
            if i % 1000 == 0 {
                // The victim keeps using its bucket: it stays in the current generation.
                assert!(limiter.check("victim", t0).is_err(), "forgotten after {i} keys");
            }
        }
        assert!(limiter.len() <= 2 * SHARDS * GENERATION_CAPACITY, "{}", limiter.len());
    }

    #[test]
    fn idle_buckets_are_forgotten_but_never_before_their_refill() {
        let slow = limiter(0.01, 10.0);
        let t0 = Instant::now();
        slow.check_n("a", 10, t0).unwrap();
        // 400 s: past IDLE_EVICTION, but only 4 of 10 tokens are back.
        let t1 = t0 + Duration::from_secs(400);
        slow.check("other", t1).unwrap();
        // 4 tokens back, not a fresh 10: taking 5 leaves it in debt.
        slow.check_n("a", 5, t1).unwrap();
        assert!(slow.check("a", t1).is_err(), "the drained bucket was kept");
        let fast = limiter(10.0, 10.0);
        fast.check("a", t0).unwrap();
        // Rotation is per shard, when the shard is used: use a's shard without "a".
        let neighbour = (0..)
            .map(|i| format!("k{i}"))
            .find(|k| std::ptr::eq(fast.shard(k.as_str()), fast.shard("a")))
            .unwrap();
        for step in 1..=2 {
            fast.check(neighbour.as_str(), t0 + IDLE_EVICTION * step).unwrap();
        }
        let shard = fast.shard("a").lock().unwrap();
        assert!(!shard.current.contains_key("a") && !shard.previous.contains_key("a"));
    }

    #[test]
    fn typed_ip_keys() {
        let limiter: RateLimiter<IpKey> = RateLimiter::new(Limit {
            per_second: 1.0,
            burst: 1.0,
        });
        let t0 = Instant::now();
        let a = IpKey::of("2001:db8::1".parse().unwrap());
        let b = IpKey::of("2001:db8::ffff:1".parse().unwrap());
        limiter.check(&a, t0).unwrap();
        assert!(limiter.check(&b, t0).is_err(), "one /64, one bucket");
        limiter
            .check(&IpKey::of("2001:db8:0:1::1".parse().unwrap()), t0)
            .unwrap();
    }
}
