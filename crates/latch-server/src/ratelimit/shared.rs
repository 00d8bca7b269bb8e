//! Buckets shared by every node through Redis (when `redis_url` is set).
//!
//! One Lua script refills and takes tokens atomically, on Redis's clock, so
//! the nodes agree whatever their own clocks say. If Redis cannot answer
//! within [`REDIS_TIMEOUT`], the node falls back to its own in-memory buckets
//! (fail-open to local limits): clients keep being served and each node still
//! enforces the limit, so while Redis is down a client can get at most the
//! budget once per node, never an unlimited one.

use std::borrow::Borrow;
use std::fmt::Display;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use redis::aio::MultiplexedConnection;

use super::{Limit, RateLimiter};

/// Longest wait for Redis before the local buckets decide.
const REDIS_TIMEOUT: Duration = Duration::from_millis(250);
/// Time between reconnection attempts after Redis failed (one request tries;
/// the others use local buckets meanwhile).
const RECONNECT_INTERVAL: Duration = Duration::from_secs(1);
/// Prefix of every bucket's Redis key.
const KEY_PREFIX: &str = "latch:rl:";

/// A token bucket in a Redis hash `{tokens, at}`: ARGV rate, burst, n.
/// Answers `{1, "0"}` when taken, `{0, "<seconds to wait>"}` when not. The key
/// expires once the bucket would be full again, so idle buckets cost nothing.
const TOKEN_BUCKET: &str = r"
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) + tonumber(time[2]) / 1000000
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local taken = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - n
  taken = 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / rate * 1000) + 1000)
return {taken, tostring(wait)}
";

/// Rate limits that hold across nodes: Redis when configured, else (and while
/// Redis is unreachable) this node's [`RateLimiter`].
pub struct SharedLimiter<K> {
    local: RateLimiter<K>,
    /// Which limit this is in Redis keys (`ip`, `project`).
    name: &'static str,
    redis: Option<Redis>,
}

struct Redis {
    client: redis::Client,
    connection: Mutex<Link>,
}

/// The connection, or when it was last lost.
enum Link {
    Up(MultiplexedConnection),
    Down(Instant),
}

impl<K: Hash + Eq + Display> SharedLimiter<K> {
    /// This node's buckets of `limit` only.
    pub fn local(name: &'static str, limit: Limit) -> Self {
        Self {
            local: RateLimiter::new(limit),
            name,
            redis: None,
        }
    }

    /// Buckets of `limit` kept in the Redis at `url` (connecting now, so a
    /// wrong URL fails the start).
    pub async fn redis(name: &'static str, limit: Limit, url: &str) -> redis::RedisResult<Self> {
        let client = redis::Client::open(url)?;
        let connection = client.get_multiplexed_async_connection().await?;
        Ok(Self {
            local: RateLimiter::new(limit),
            name,
            redis: Some(Redis {
                client,
                connection: Mutex::new(Link::Up(connection)),
            }),
        })
    }

    /// The limit applied.
    pub fn limit(&self) -> Limit {
        self.local.limit()
    }

    /// Takes one token from `key`'s bucket; `Err` says how long until one is back.
    pub async fn check<Q>(&self, key: &Q) -> Result<(), Duration>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Display + ToOwned<Owned = K> + ?Sized,
    {
        self.check_n(key, 1).await
    }

    /// Takes `n` tokens from `key`'s bucket while one is left (see [`RateLimiter::check_n`]).
    pub async fn check_n<Q>(&self, key: &Q, n: u32) -> Result<(), Duration>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + Display + ToOwned<Owned = K> + ?Sized,
    {
        let limit = self.local.limit();
        if limit.disabled() {
            return Ok(());
        }
        if let Some(redis) = &self.redis {
            let redis_key = format!("{KEY_PREFIX}{}:{key}", self.name);
            if let Some(answer) = redis.take(&redis_key, limit, n).await {
                return answer;
            }
        }
        self.local.check_n(key, n, Instant::now())
    }
}

impl Redis {
    /// The shared bucket's answer, or `None` when Redis cannot give one.
    async fn take(&self, key: &str, limit: Limit, n: u32) -> Option<Result<(), Duration>> {
        let mut connection = self.connection().await?;
        let mut command = redis::cmd("EVAL");
        command
            .arg(TOKEN_BUCKET)
            .arg(1)
            .arg(key)
            .arg(limit.per_second)
            .arg(limit.burst)
            .arg(n);
        let call = command.query_async::<(i64, String)>(&mut connection);
        match tokio::time::timeout(REDIS_TIMEOUT, call).await {
            Ok(Ok((1, _))) => Some(Ok(())),
            Ok(Ok((_, wait))) => {
                let seconds = wait.parse::<f64>().unwrap_or(1.0);
                Some(Err(Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)))
            }
            Ok(Err(error)) => {
                self.lost(&format!("{error}"));
                None
            }
            Err(_) => {
                self.lost("timed out");
                None
            }
        }
    }

    /// The connection, reconnecting at most every [`RECONNECT_INTERVAL`].
    async fn connection(&self) -> Option<MultiplexedConnection> {
        let since = {
            let link = self.connection.lock().unwrap_or_else(|e| e.into_inner());
            match &*link {
                Link::Up(connection) => return Some(connection.clone()),
                Link::Down(since) if since.elapsed() < RECONNECT_INTERVAL => return None,
                Link::Down(since) => *since,
            }
        };
        // Claim this attempt, so concurrent requests do not all reconnect.
        *self.connection.lock().unwrap_or_else(|e| e.into_inner()) = Link::Down(Instant::now());
        let connecting = self.client.get_multiplexed_async_connection();
        match tokio::time::timeout(REDIS_TIMEOUT, connecting).await {
            Ok(Ok(connection)) => {
                tracing::info!(down_for = ?since.elapsed(), "rate limits: redis is back");
                *self.connection.lock().unwrap_or_else(|e| e.into_inner()) = Link::Up(connection.clone());
                Some(connection)
            }
            _ => None,
        }
    }

    fn lost(&self, why: &str) {
        let mut link = self.connection.lock().unwrap_or_else(|e| e.into_inner());
        if matches!(*link, Link::Up(_)) {
            tracing::warn!(
                why,
                "rate limits: redis unreachable, each node limits on its own meanwhile"
            );
            *link = Link::Down(Instant::now());
        }
    }
}
