//! The spot-check: each new entry is searched by the server's own engine at a small node budget
//! before it is served. Entries wait in a bounded queue; what does not fit stays pending in the
//! store, unserved, and a sweeper brings it back when there is room (also after a restart).

use crate::metrics::Metrics;
use crate::store::{Entry, Status, Store};
use homeostat_chess::{Board, Move};
use homeostat_engine::{Engine, Limits, Silent};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::oneshot;

/// How the verifier works.
#[derive(Clone, Debug)]
pub struct VerifyConfig {
    /// Nodes for each of its (at most two) searches: 40,000 is about 20 ms at 2 M nodes a second.
    pub nodes: u64,
    /// A move this many centipawns or more below the engine's own best is refused.
    pub margin_cp: i32,
    /// Entries that may wait in memory for a worker.
    pub queue: usize,
    /// Worker threads, each with its own engine.
    pub workers: usize,
}

impl Default for VerifyConfig {
    fn default() -> VerifyConfig {
        // 100 cp: 98 % of the moves the engine's own depth-18 search chose in positions of real games pass,
        // a third of random legal moves do; 200 passed half the random ones (README, "Nothing poisoned").
        VerifyConfig { nodes: 40_000, margin_cp: 100, queue: 256, workers: 1 }
    }
}

/// The verifier's judgement of an entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Served from now on.
    Verified,
    /// Never served, for this reason.
    Refused(String),
}

/// Searches `board` and judges `mv`: refused when the engine's best scores `margin_cp` or more
/// above `mv` searched alone at the same budget.
pub fn judge(engine: &mut Engine, board: &Board, mv: Move, nodes: u64, margin_cp: i32) -> Verdict {
    let stop = AtomicBool::new(false);
    let start = Instant::now();
    let clock = move || start.elapsed().as_secs_f64() * 1000.0;
    engine.new_game();
    let best = engine.search(board, &[], &Limits::nodes(nodes), &clock, &stop, &mut Silent);
    if best.best == Some(mv) || best.best.is_none() {
        return Verdict::Verified;
    }
    let alone = Limits { searchmoves: vec![mv], ..Limits::nodes(nodes) };
    let own = engine.search(board, &[], &alone, &clock, &stop, &mut Silent);
    let loss = i64::from(best.score.as_cp()) - i64::from(own.score.as_cp());
    if loss >= i64::from(margin_cp) {
        let best_move = best.best.map_or_else(String::new, |m| board.san(m));
        Verdict::Refused(format!(
            "the server's own search finds {} losing {} against {} ({} vs {})",
            board.san(mv),
            describe_loss(loss),
            best_move,
            best.score,
            own.score
        ))
    } else {
        Verdict::Verified
    }
}

fn describe_loss(cp: i64) -> String {
    if cp >= 10_000 {
        "a forced mate".to_string()
    } else {
        format!("{cp} cp")
    }
}

struct Shared {
    queued: Mutex<HashSet<i64>>,
    waiters: Mutex<HashMap<i64, Vec<oneshot::Sender<Verdict>>>>,
}

/// The queue and its workers.
pub struct Verifier {
    sender: SyncSender<Entry>,
    shared: Arc<Shared>,
    metrics: Arc<Metrics>,
}

impl Verifier {
    /// Starts `config.workers` threads that verify entries of `store` and the sweeper task that
    /// refills the queue from the store's pending entries. Must be called inside a Tokio runtime.
    pub fn start<S: Store>(store: S, config: VerifyConfig, metrics: Arc<Metrics>) -> Arc<Verifier> {
        let (sender, receiver) = sync_channel::<Entry>(config.queue.max(1));
        let receiver = Arc::new(Mutex::new(receiver));
        let shared = Arc::new(Shared { queued: Mutex::new(HashSet::new()), waiters: Mutex::new(HashMap::new()) });
        let runtime = tokio::runtime::Handle::current();
        for i in 0..config.workers.max(1) {
            let worker = Worker {
                receiver: receiver.clone(),
                shared: shared.clone(),
                metrics: metrics.clone(),
                store: store.clone(),
                config: config.clone(),
                runtime: runtime.clone(),
            };
            // Deep searches recurse; give the thread room as the UCI binary does.
            let spawned = std::thread::Builder::new()
                .name(format!("verify-{i}"))
                .stack_size(16 << 20)
                .spawn(move || worker.run());
            if let Err(e) = spawned {
                eprintln!("homeostat-memory: cannot start verifier thread: {e}");
            }
        }
        let verifier = Arc::new(Verifier { sender, shared, metrics });
        tokio::spawn(sweep(store, Arc::downgrade(&verifier), config.queue.max(1)));
        verifier
    }

    /// Queues `entry` unless it is queued already or the queue is full; the receiver gets the
    /// verdict. `None`: not queued now (the sweeper will bring it back).
    pub fn enqueue(&self, entry: Entry) -> Option<oneshot::Receiver<Verdict>> {
        let id = entry.id;
        let (tell, hear) = oneshot::channel();
        self.lock_waiters().entry(id).or_default().push(tell);
        if !self.lock_queued().insert(id) {
            return Some(hear);
        }
        match self.sender.try_send(entry) {
            Ok(()) => {
                self.metrics.queued.fetch_add(1, Ordering::Relaxed);
                Some(hear)
            }
            Err(TrySendError::Full(_) | TrySendError::Disconnected(_)) => {
                self.lock_queued().remove(&id);
                self.lock_waiters().remove(&id);
                None
            }
        }
    }

    /// Entries in the queue or being searched.
    pub fn in_flight(&self) -> usize {
        self.lock_queued().len()
    }

    fn lock_queued(&self) -> std::sync::MutexGuard<'_, HashSet<i64>> {
        self.shared.queued.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn lock_waiters(&self) -> std::sync::MutexGuard<'_, HashMap<i64, Vec<oneshot::Sender<Verdict>>>> {
        self.shared.waiters.lock().unwrap_or_else(|p| p.into_inner())
    }
}

struct Worker<S> {
    receiver: Arc<Mutex<Receiver<Entry>>>,
    shared: Arc<Shared>,
    metrics: Arc<Metrics>,
    store: S,
    config: VerifyConfig,
    runtime: tokio::runtime::Handle,
}

impl<S: Store> Worker<S> {
    fn run(self) {
        let mut engine = Engine::new(8);
        // The engine the memory names (see `Identity`): full strength, with the net.
        engine.set_use_nnue(true);
        loop {
            let next = self.receiver.lock().unwrap_or_else(|p| p.into_inner()).recv();
            let Ok(entry) = next else { return };
            self.metrics.queued.fetch_sub(1, Ordering::Relaxed);
            let start = Instant::now();
            let verdict = verdict_for(&mut engine, &entry, &self.config);
            self.metrics.verify_latency.observe(start.elapsed());
            let (status, reason) = match &verdict {
                Verdict::Verified => (Status::Verified, None),
                Verdict::Refused(why) => (Status::Refused, Some(why.as_str())),
            };
            let written = self.runtime.block_on(self.store.set_status(entry.id, status, reason));
            self.shared.queued.lock().unwrap_or_else(|p| p.into_inner()).remove(&entry.id);
            let waiters = self.shared.waiters.lock().unwrap_or_else(|p| p.into_inner()).remove(&entry.id);
            match written {
                Ok(changed) => {
                    // Counted once, by whichever worker or server judged it first.
                    if changed {
                        match &verdict {
                            Verdict::Verified => {
                                self.metrics.verified.fetch_add(1, Ordering::Relaxed);
                            }
                            Verdict::Refused(_) => self.metrics.reject(crate::validate::Reason::Refuted),
                        }
                    }
                    for waiter in waiters.into_iter().flatten() {
                        let _ = waiter.send(verdict.clone());
                    }
                }
                Err(e) => {
                    // Left pending: the sweeper retries it. Waiters hear nothing and answer "pending".
                    self.metrics.store_errors.fetch_add(1, Ordering::Relaxed);
                    eprintln!("homeostat-memory: cannot record verdict on entry {}: {e}", entry.id);
                }
            }
        }
    }
}

/// Judges a stored entry; one whose text no longer reads (it cannot happen for entries this server
/// wrote) is refused.
fn verdict_for(engine: &mut Engine, entry: &Entry, config: &VerifyConfig) -> Verdict {
    let Ok(board) = Board::from_fen(&entry.fen) else {
        return Verdict::Refused("stored position unreadable".to_string());
    };
    let Ok(mv) = board.parse_uci(&entry.mv) else {
        return Verdict::Refused("stored move illegal".to_string());
    };
    judge(engine, &board, mv, config.nodes, config.margin_cp)
}

/// Twice a second, fills free room in the queue with pending entries from the store, oldest
/// first; ends with the verifier (whose workers end when its queue's sender is dropped).
async fn sweep<S: Store>(store: S, verifier: std::sync::Weak<Verifier>, capacity: usize) {
    let mut after = 0i64;
    loop {
        tokio::time::sleep(Duration::from_millis(500)).await;
        let Some(verifier) = verifier.upgrade() else { return };
        let room = capacity.saturating_sub(verifier.in_flight());
        if room == 0 {
            continue;
        }
        match store.pending(after, room as u32).await {
            Ok(entries) => {
                after = if entries.len() < room { 0 } else { entries.last().map_or(0, |e| e.id) };
                for entry in entries {
                    if verifier.enqueue(entry).is_none() {
                        break;
                    }
                }
            }
            Err(e) => eprintln!("homeostat-memory: cannot read pending entries: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_queen_blunder_is_refused_and_a_good_move_passes() {
        let mut engine = Engine::new(8);
        let board = Board::from_fen("rnbqkbnr/ppp1pppp/8/3p4/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap();
        let good = board.parse_uci("e4d5").unwrap();
        assert_eq!(judge(&mut engine, &board, good, 20_000, 200), Verdict::Verified);
        let board = Board::from_fen("rnb1kbnr/pppp1ppp/8/4p1q1/4P3/3P4/PPP2PPP/RNBQKBNR w KQkq - 1 3").unwrap();
        let hangs_queen = board.parse_uci("d1g4").unwrap();
        assert!(matches!(judge(&mut engine, &board, hangs_queen, 20_000, 200), Verdict::Refused(_)));
    }

    /// After 1.e4 e5 2.Nf3 Nc6, Nxe5? (a knight for a pawn after Nxe5) scores 100 to 200 cp below the best at
    /// this budget: the old margin of 200 served it, the default refuses it.
    #[test]
    fn a_move_a_piece_for_a_pawn_worse_is_refused_by_the_default_margin() {
        let mut engine = Engine::new(8);
        let board = Board::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
        let takes = board.parse_uci("f3e5").unwrap();
        let config = VerifyConfig::default();
        assert!(matches!(judge(&mut engine, &board, takes, config.nodes, config.margin_cp), Verdict::Refused(_)));
        assert_eq!(judge(&mut engine, &board, takes, config.nodes, 200), Verdict::Verified);
    }
}
