//! Token buckets per key (client token or address), in memory, bounded in size.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::Mutex;
use std::time::Instant;

/// The most keys remembered; past it, buckets that have refilled are forgotten first.
const MAX_KEYS: usize = 100_000;

/// A rate: `per_minute` requests a minute on average, bursts of up to `burst`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rate {
    /// Sustained requests per minute; 0 turns the limit off.
    pub per_minute: f64,
    /// Requests allowed at once after a quiet spell.
    pub burst: f64,
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

/// A rate limiter keyed by `K`.
pub struct RateLimiter<K> {
    rate: Rate,
    buckets: Mutex<HashMap<K, Bucket>>,
}

impl<K: Hash + Eq + Clone> RateLimiter<K> {
    /// A limiter at `rate`.
    pub fn new(rate: Rate) -> RateLimiter<K> {
        RateLimiter { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Whether `key` may make one more request now; takes a token if so.
    pub fn allow(&self, key: &K) -> bool {
        if self.rate.per_minute <= 0.0 {
            return true;
        }
        let now = Instant::now();
        let per_second = self.rate.per_minute / 60.0;
        let burst = self.rate.burst.max(1.0);
        let mut buckets = self.buckets.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if buckets.len() >= MAX_KEYS && !buckets.contains_key(key) {
            buckets.retain(|_, b| b.tokens + now.duration_since(b.at).as_secs_f64() * per_second < burst);
            if buckets.len() >= MAX_KEYS {
                // Every remembered key is still limited: refuse newcomers rather than grow without bound.
                return false;
            }
        }
        let bucket = buckets.entry(key.clone()).or_insert(Bucket { tokens: burst, at: now });
        bucket.tokens = (bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * per_second).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_passes_then_the_rest_waits() {
        let limiter = RateLimiter::new(Rate { per_minute: 1.0, burst: 3.0 });
        assert!((0..3).all(|_| limiter.allow(&"a")));
        assert!(!limiter.allow(&"a"));
        assert!(limiter.allow(&"b"));
        let off = RateLimiter::new(Rate { per_minute: 0.0, burst: 0.0 });
        assert!((0..1000).all(|_| off.allow(&"a")));
    }
}
