//! Token-bucket rate limits per project and per client IP (429 with `Retry-After`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

/// One limit: a steady rate and the burst a client may spend at once.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limit {
    /// Requests per second refilled (0 disables the limit).
    pub per_second: f64,
    /// Bucket size.
    pub burst: f64,
}

/// Buckets are forgotten after this long unused, so memory follows active clients.
const IDLE_EVICTION: Duration = Duration::from_secs(300);
/// Eviction runs when the map grows past this many buckets.
const EVICTION_THRESHOLD: usize = 50_000;

/// Keyed token buckets sharing one [`Limit`].
#[derive(Debug)]
pub struct RateLimiter {
    limit: Limit,
    buckets: Mutex<HashMap<String, Bucket>>,
}

#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// Buckets of `limit`.
    pub fn new(limit: Limit) -> Self {
        Self {
            limit,
            buckets: Mutex::default(),
        }
    }

    /// Takes one token from `key`'s bucket at `now`; `Err` says how long until one is back.
    pub fn check(&self, key: &str, now: Instant) -> Result<(), Duration> {
        let Limit { per_second, burst } = self.limit;
        if per_second <= 0.0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > EVICTION_THRESHOLD {
            buckets.retain(|_, b| now.duration_since(b.updated) < IDLE_EVICTION);
        }
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            updated: now,
        });
        let refilled = now.duration_since(bucket.updated).as_secs_f64() * per_second;
        bucket.tokens = (bucket.tokens + refilled).min(burst);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }

    /// Takes `n` tokens from `key`'s bucket at `now` (a JSON-RPC batch of `n`
    /// calls costs `n`). Granted while at least one token is left; the bucket
    /// may then go into debt (down to `-n`), which later requests wait out, so
    /// a batch larger than the burst is possible but never cheaper than `n`
    /// single calls. `Err` says how long until a token is back.
    pub fn check_n(&self, key: &str, n: u32, now: Instant) -> Result<(), Duration> {
        let Limit { per_second, burst } = self.limit;
        if per_second <= 0.0 || n == 0 {
            return Ok(());
        }
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        let bucket = buckets.entry(key.to_owned()).or_insert(Bucket {
            tokens: burst,
            updated: now,
        });
        let refilled = now.saturating_duration_since(bucket.updated).as_secs_f64() * per_second;
        bucket.tokens = (bucket.tokens + refilled).min(burst);
        bucket.updated = bucket.updated.max(now);
        if bucket.tokens >= 1.0 {
            bucket.tokens -= f64::from(n);
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bursts_then_refills() {
        let limiter = RateLimiter::new(Limit {
            per_second: 2.0,
            burst: 3.0,
        });
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
    fn check_n_charges_n_and_keeps_the_debt() {
        let limiter = RateLimiter::new(Limit {
            per_second: 10.0,
            burst: 20.0,
        });
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
    fn zero_rate_disables() {
        let limiter = RateLimiter::new(Limit {
            per_second: 0.0,
            burst: 0.0,
        });
        assert!((0..1000).all(|_| limiter.check("a", Instant::now()).is_ok()));
    }
}
