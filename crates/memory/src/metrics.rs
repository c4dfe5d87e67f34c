//! Counters of this process, for `/metrics` (Prometheus text) and, flushed to the store, for the
//! totals `/v1/stats` shows across processes and restarts.

use crate::validate::Reason;
use std::fmt::Write;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Upper bounds of the latency histogram buckets, in seconds.
const BUCKETS: [f64; 9] = [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.5];

/// A latency histogram.
#[derive(Default)]
pub struct Histogram {
    counts: [AtomicU64; BUCKETS.len()],
    count: AtomicU64,
    sum_us: AtomicU64,
}

impl Histogram {
    /// Records one observation.
    pub fn observe(&self, elapsed: Duration) {
        let seconds = elapsed.as_secs_f64();
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            if seconds <= *bound {
                count.fetch_add(1, Ordering::Relaxed);
            }
        }
        self.count.fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(elapsed.as_micros() as u64, Ordering::Relaxed);
    }

    fn write(&self, out: &mut String, name: &str, help: &str) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        for (bound, count) in BUCKETS.iter().zip(&self.counts) {
            let _ = writeln!(out, "{name}_bucket{{le=\"{bound}\"}} {}", count.load(Ordering::Relaxed));
        }
        let total = self.count.load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {total}");
        let _ = writeln!(out, "{name}_sum {}", self.sum_us.load(Ordering::Relaxed) as f64 / 1e6);
        let _ = writeln!(out, "{name}_count {total}");
    }
}

/// Everything this process counts.
#[derive(Default)]
pub struct Metrics {
    /// Lookups answered with an entry.
    pub hits: AtomicU64,
    /// Lookups answered 404.
    pub misses: AtomicU64,
    /// Submissions that made a new entry.
    pub stored: AtomicU64,
    /// Submissions that agreed with an entry already there.
    pub agreed: AtomicU64,
    rejections: [AtomicU64; Reason::ALL.len()],
    /// Entries the verifier passed.
    pub verified: AtomicU64,
    /// Entries waiting in the verification queue.
    pub queued: AtomicU64,
    /// Errors from the store.
    pub store_errors: AtomicU64,
    /// Lookup latency.
    pub lookup_latency: Histogram,
    /// Submission latency (including the wait for verification).
    pub submit_latency: Histogram,
    /// Time the verifier spends on one entry.
    pub verify_latency: Histogram,
    flushed: Mutex<Vec<(String, u64)>>,
}

impl Metrics {
    /// Counts one refusal for `reason`.
    pub fn reject(&self, reason: Reason) {
        self.rejections[reason as usize].fetch_add(1, Ordering::Relaxed);
    }

    /// The counters kept in the store, with their values in this process.
    pub fn persistent(&self) -> Vec<(String, u64)> {
        let mut list = vec![
            ("lookups_hit".to_string(), self.hits.load(Ordering::Relaxed)),
            ("lookups_miss".to_string(), self.misses.load(Ordering::Relaxed)),
            ("submissions_stored".to_string(), self.stored.load(Ordering::Relaxed)),
            ("submissions_agreed".to_string(), self.agreed.load(Ordering::Relaxed)),
            ("verified".to_string(), self.verified.load(Ordering::Relaxed)),
        ];
        for reason in Reason::ALL {
            list.push((
                format!("rejected_{}", reason.name()),
                self.rejections[reason as usize].load(Ordering::Relaxed),
            ));
        }
        list
    }

    /// What grew since the last call that was marked flushed by [`Metrics::mark_flushed`].
    pub fn unflushed(&self) -> Vec<(String, i64)> {
        let flushed = self.flushed.lock().unwrap_or_else(|p| p.into_inner());
        self.persistent()
            .into_iter()
            .filter_map(|(name, value)| {
                let before = flushed.iter().find(|(n, _)| *n == name).map_or(0, |(_, v)| *v);
                (value > before).then(|| (name, (value - before) as i64))
            })
            .collect()
    }

    /// Records that `deltas` reached the store.
    pub fn mark_flushed(&self, deltas: &[(String, i64)]) {
        let mut flushed = self.flushed.lock().unwrap_or_else(|p| p.into_inner());
        for (name, delta) in deltas {
            match flushed.iter_mut().find(|(n, _)| n == name) {
                Some((_, value)) => *value += *delta as u64,
                None => flushed.push((name.clone(), *delta as u64)),
            }
        }
    }

    /// The Prometheus text exposition of this process's counters.
    pub fn prometheus(&self, pending_in_store: Option<u64>) -> String {
        let mut out = String::new();
        let counter = |out: &mut String, name: &str, help: &str, value: u64| {
            let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} counter\n{name} {value}");
        };
        let _ = writeln!(
            out,
            "# HELP homeostat_memory_lookups_total Lookups answered, by result.\n\
             # TYPE homeostat_memory_lookups_total counter\n\
             homeostat_memory_lookups_total{{result=\"hit\"}} {}\n\
             homeostat_memory_lookups_total{{result=\"miss\"}} {}",
            self.hits.load(Ordering::Relaxed),
            self.misses.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP homeostat_memory_submissions_total Submissions accepted, by result.\n\
             # TYPE homeostat_memory_submissions_total counter\n\
             homeostat_memory_submissions_total{{result=\"stored\"}} {}\n\
             homeostat_memory_submissions_total{{result=\"agreed\"}} {}",
            self.stored.load(Ordering::Relaxed),
            self.agreed.load(Ordering::Relaxed)
        );
        let _ = writeln!(
            out,
            "# HELP homeostat_memory_rejections_total Requests refused, by reason.\n\
             # TYPE homeostat_memory_rejections_total counter"
        );
        for reason in Reason::ALL {
            let _ = writeln!(
                out,
                "homeostat_memory_rejections_total{{reason=\"{}\"}} {}",
                reason.name(),
                self.rejections[reason as usize].load(Ordering::Relaxed)
            );
        }
        counter(
            &mut out,
            "homeostat_memory_verified_total",
            "Entries the server's own search passed.",
            self.verified.load(Ordering::Relaxed),
        );
        counter(
            &mut out,
            "homeostat_memory_store_errors_total",
            "Requests that failed on a storage error.",
            self.store_errors.load(Ordering::Relaxed),
        );
        let _ = writeln!(
            out,
            "# HELP homeostat_memory_verify_queue Entries waiting in this process's verification queue.\n\
             # TYPE homeostat_memory_verify_queue gauge\nhomeostat_memory_verify_queue {}",
            self.queued.load(Ordering::Relaxed)
        );
        if let Some(pending) = pending_in_store {
            let _ = writeln!(
                out,
                "# HELP homeostat_memory_pending Entries in the store waiting for verification.\n\
                 # TYPE homeostat_memory_pending gauge\nhomeostat_memory_pending {pending}"
            );
        }
        self.lookup_latency.write(&mut out, "homeostat_memory_lookup_seconds", "Time to answer a lookup.");
        self.submit_latency.write(&mut out, "homeostat_memory_submit_seconds", "Time to answer a submission.");
        self.verify_latency.write(&mut out, "homeostat_memory_verify_seconds", "Time to verify one entry.");
        out
    }
}
