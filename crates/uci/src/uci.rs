//! The UCI session: reads commands, keeps the position and options, writes the answers.

use crate::command::{parse_command, Command, GoLimits};
use crate::display::diagram;
use crate::options::Options;
use crate::perft_cmd::go_perft;
use crate::position::{parse_move, Position};
use crate::search_thread::{self, Job, Searching, SharedOut};
use homeostat_engine::nnue::Network;
use homeostat_engine::{book, Engine, Limits};
use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The development option naming a net file to evaluate with (see [`Session::set_eval_file`]).
const EVAL_FILE: &str = "EvalFile";

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Stop reading: `quit` was received.
    Quit,
}

/// The state of one UCI conversation.
pub struct Session {
    position: Position,
    options: Options,
    debug: bool,
    engine: Arc<Mutex<Engine>>,
    /// The table size the engine has now, in MiB.
    hash_mb: u64,
    out: SharedOut,
    searching: Option<Searching>,
    /// The limits to search with once a pondering search gets `ponderhit`.
    ponder: Option<GoLimits>,
    /// Book moves played, to vary the choice between moves and games.
    book_moves: u64,
    /// The net loaded by `EvalFile`, used instead of the built-in one while `UseNNUE` is on.
    network: Option<Arc<Network>>,
}

impl Session {
    /// A session at the start position with default options, answering on `out`.
    pub fn new(out: impl Write + Send + 'static) -> Session {
        let options = Options::default();
        Session {
            position: Position::startpos(),
            hash_mb: options.hash_mb(),
            engine: Arc::new(Mutex::new(Engine::new(options.hash_mb() as usize))),
            options,
            debug: false,
            out: Arc::new(Mutex::new(Box::new(out))),
            searching: None,
            ponder: None,
            book_moves: 0,
            network: None,
        }
    }

    /// The position set by the last good `position` command.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The current option values.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Whether the GUI asked for `debug on`.
    pub fn debug(&self) -> bool {
        self.debug
    }

    fn say(&self, line: &str) -> io::Result<()> {
        search_thread::write_line(&self.out, line)
    }

    /// Writes `info string error: …` on one line.
    fn report_error(&self, why: &str) -> io::Result<()> {
        self.say(&format!("info string error: {}", why.replace(['\n', '\r'], " ")))
    }

    /// Parses and carries out one input line; a bad line gets an `info string error: …` reply.
    pub fn handle_line(&mut self, line: &str) -> io::Result<Flow> {
        match parse_command(line) {
            Ok(command) => self.handle(command),
            Err(why) => {
                self.report_error(&why)?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Carries out one command.
    pub fn handle(&mut self, command: Command) -> io::Result<Flow> {
        match command {
            Command::Empty | Command::Register => {}
            Command::Uci => {
                self.say(&format!("id name Homeostat {}", env!("CARGO_PKG_VERSION")))?;
                self.say("id author the Homeostat developers")?;
                for line in Options::declarations() {
                    self.say(&line)?;
                }
                self.say(&format!("option name {EVAL_FILE} type string default <empty>"))?;
                self.say("uciok")?;
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => self.say("readyok")?,
            Command::SetOption { name, value } if name.eq_ignore_ascii_case(EVAL_FILE) => {
                self.set_eval_file(value.as_deref())?
            }
            Command::SetOption { name, value } => {
                if let Err(why) = self.options.set(&name, value.as_deref()) {
                    self.report_error(&why)?;
                }
            }
            Command::UciNewGame => {
                self.stop();
                search_thread::lock(&self.engine).new_game();
                self.position = Position::startpos();
            }
            Command::Position { fen, moves } => match Position::from_command(fen.as_deref(), &moves) {
                Ok(position) => self.position = position,
                Err(why) => self.report_error(&format!("{why}; position unchanged"))?,
            },
            Command::Go(limits) => self.go(&limits)?,
            Command::Perft(depth) => {
                self.stop();
                let mut text = Vec::new();
                go_perft(self.position.board(), depth, &mut text)?;
                let mut w = self.out.lock().unwrap_or_else(|p| p.into_inner());
                w.write_all(&text)?;
                w.flush()?;
            }
            Command::Stop => self.stop(),
            Command::PonderHit => self.ponderhit()?,
            Command::Quit => {
                self.stop();
                return Ok(Flow::Quit);
            }
            Command::Display => {
                let text = diagram(self.position.board());
                let mut w = self.out.lock().unwrap_or_else(|p| p.into_inner());
                w.write_all(text.as_bytes())?;
                w.flush()?;
            }
        }
        Ok(Flow::Continue)
    }

    /// `EvalFile`: loads the net file at `path` for `UseNNUE` (empty or `<empty>`: the built-in
    /// net). A file that cannot be read or is no net is refused with the reason, and the net in
    /// use stays.
    fn set_eval_file(&mut self, path: Option<&str>) -> io::Result<()> {
        let path = path.map(str::trim).unwrap_or("");
        if path.is_empty() || path == "<empty>" {
            self.network = None;
            return self.say("info string EvalFile: the built-in net");
        }
        let loaded = std::fs::read(path).map_err(|e| e.to_string()).and_then(|bytes| Network::from_bytes(&bytes));
        match loaded {
            Ok(net) => {
                let text =
                    format!("info string EvalFile: loaded {path} (768->{}x2->1{})", net.hidden(), net.layout_note());
                self.network = Some(Arc::new(net));
                self.say(&text)
            }
            Err(why) => self.report_error(&format!("EvalFile '{path}': {why}; the net in use is unchanged")),
        }
    }

    /// Starts a search; `bestmove` follows from the search thread.
    fn go(&mut self, go: &GoLimits) -> io::Result<()> {
        let started = Instant::now();
        self.stop();
        let board = *self.position.board();
        if let Some(m) = self.book_move(go) {
            self.say(&format!("info string book move {m}"))?;
            return self.say(&format!("bestmove {m}"));
        }
        let mut searchmoves = Vec::new();
        for text in &go.searchmoves {
            match parse_move(&board, text) {
                Ok(m) => searchmoves.push(m),
                Err(why) => self.report_error(&format!("searchmoves '{text}': {why}"))?,
            }
        }
        let ms = |d: Option<Duration>| d.map(|d| d.as_millis().min(u64::MAX as u128) as u64);
        let limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            soft_nodes: None,
            movetime_ms: ms(go.movetime),
            wtime: ms(go.wtime),
            btime: ms(go.btime),
            winc: ms(go.winc),
            binc: ms(go.binc),
            movestogo: go.movestogo,
            // Pondering searches run until `ponderhit` or `stop`.
            infinite: go.infinite || go.ponder,
            mate: go.mate,
            move_overhead_ms: self.options.move_overhead_ms(),
            adaptive: None,
            searchmoves,
            multipv: self.options.multipv(),
        };
        {
            let mut engine = search_thread::lock(&self.engine);
            if self.hash_mb != self.options.hash_mb() {
                self.hash_mb = self.options.hash_mb();
                engine.set_hash_mb(self.hash_mb as usize);
            }
            let level = self.options.level();
            engine.set_level(level);
            engine.set_network(self.network.clone());
            engine.set_use_nnue(self.options.use_nnue() && level.uses_net());
        }
        let job = Job { board, history: history_keys(&self.position), limits, hold: go.infinite || go.ponder };
        self.searching = Some(Searching::start(self.engine.clone(), self.out.clone(), job, started));
        // A pondering search that is not infinite becomes a timed one on `ponderhit`.
        self.ponder = (go.ponder && !go.infinite).then(|| GoLimits { ponder: false, ..go.clone() });
        Ok(())
    }

    /// A move from the opening book when `OwnBook` is on and `go` asks for a move to play (not an
    /// infinite, pondering, mate or `searchmoves` search).
    fn book_move(&mut self, go: &GoLimits) -> Option<homeostat_chess::Move> {
        if !self.options.own_book() || go.infinite || go.ponder || go.mate.is_some() || !go.searchmoves.is_empty() {
            return None;
        }
        // Varied by the clock and a counter: a book is there to give different games.
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        self.book_moves += 1;
        book::book_move(self.position.board(), nanos as u64 ^ self.book_moves.rotate_left(32))
    }

    /// The opponent played the expected move: search it for real with the clock running.
    /// A `ponderhit` with no pondering search running is ignored, and the search that is running
    /// (an infinite one, say) goes on: its handle must stay here, or `stop` could never reach it.
    fn ponderhit(&mut self) -> io::Result<()> {
        let Some(go) = self.ponder.take() else { return Ok(()) };
        if let Some(searching) = self.searching.take() {
            searching.stop_silently();
            self.go(&go)?;
        }
        Ok(())
    }

    /// Stops any search (its `bestmove` is printed).
    fn stop(&mut self) {
        self.ponder = None;
        if let Some(searching) = self.searching.take() {
            searching.stop();
        }
    }

    /// At the end of input: a search with an end of its own (depth, nodes, time, a mate to find) may
    /// reach it, so a piped `go mate 3` prints the mate; one that only a `stop` would end (infinite,
    /// pondering, a plain `go`) is stopped, since no `stop` can come now.
    fn finish(&mut self) {
        if let Some(searching) = self.searching.take() {
            if searching.job().hold || !searching.job().limits.has_own_end() {
                searching.stop();
            } else {
                searching.wait();
            }
        }
    }
}

/// The keys of the positions before the current one, for repetition detection.
fn history_keys(position: &Position) -> Vec<u64> {
    let mut board = *position.start();
    let mut keys = Vec::with_capacity(position.moves().len());
    for &m in position.moves() {
        keys.push(board.hash());
        board.play(m);
    }
    keys
}

/// Speaks UCI until `quit` or the end of `input`; answers go to `output`, flushed per line.
pub fn run(mut input: impl BufRead, output: impl Write + Send + 'static) -> io::Result<()> {
    let mut session = Session::new(output);
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            session.finish();
            return Ok(());
        }
        // Invalid UTF-8 is garbage like any other, not a reason to stop.
        let line = String::from_utf8_lossy(&bytes);
        if session.handle_line(&line)? == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An output buffer the search thread and the test can both reach.
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn talk(lines: &[&str]) -> String {
        let input = lines.join("\n");
        let out = Shared::default();
        run(input.as_bytes(), out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text
    }

    /// The answer without `info` lines.
    fn answers(text: &str) -> Vec<&str> {
        text.lines().filter(|l| !l.starts_with("info ")).collect()
    }

    #[test]
    fn handshake() {
        let text = talk(&["uci", "isready"]);
        assert!(text.starts_with("id name Homeostat"));
        assert!(text.contains("option name Move Overhead type spin"));
        assert!(text.contains("option name UCI_LimitStrength type check default false"));
        assert!(text.ends_with("uciok\nreadyok\n"));
    }

    #[test]
    fn bad_position_keeps_the_old_one() {
        let out = Shared::default();
        let mut session = Session::new(out.clone());
        session.handle_line("position startpos moves e2e4").unwrap();
        let before = *session.position().board();
        session.handle_line("position startpos moves d2d4 d7d5 d4d5").unwrap();
        assert_eq!(session.position().board(), &before);
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("info string error: move 3 'd4d5'"), "{text}");
        assert!(text.trim_end().ends_with("position unchanged"), "{text}");
    }

    #[test]
    fn go_searches_and_honours_searchmoves() {
        // The queen on d5 hangs.
        let text = talk(&["position fen 4k3/8/8/3q4/8/8/3R4/4K3 w - - 0 1", "go depth 5"]);
        assert!(text.contains("info depth 5 "), "{text}");
        assert!(answers(&text).last().unwrap().starts_with("bestmove d2d5"), "{text}");
        let text = talk(&["position startpos moves e2e4 d7d5", "go depth 3 searchmoves a2a3 b1c3"]);
        let last = *answers(&text).last().unwrap();
        assert!(last.starts_with("bestmove a2a3") || last.starts_with("bestmove b1c3"), "{text}");
    }

    #[test]
    fn infinite_waits_for_stop() {
        let text = talk(&["go infinite", "isready", "stop"]);
        let lines = answers(&text);
        assert_eq!(lines[0], "readyok", "{text}");
        assert!(lines[1].starts_with("bestmove "), "{text}");
        // A ponder search ends on ponderhit with a real search (here depth-limited).
        let text = talk(&["go ponder depth 3", "ponderhit"]);
        assert!(answers(&text).last().unwrap().starts_with("bestmove "), "{text}");
        assert_eq!(answers(&text).len(), 1, "{text}");
    }

    /// The words a GUI or a person sends when no search waits for them must not cut the engine off
    /// from a search that runs: here a stray `ponderhit` during an infinite search once dropped its
    /// handle, so the next `go` waited for ever on the engine that search still held.
    #[test]
    fn a_stray_ponderhit_leaves_the_search_in_reach() {
        let (done, finished) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let text = talk(&["go infinite", "ponderhit", "isready", "go depth 2", "ponderhit", "stop", "quit"]);
            let _ = done.send(text);
        });
        let text = finished.recv_timeout(Duration::from_secs(60)).expect("the session ends");
        let lines = answers(&text);
        assert_eq!(lines.len(), 3, "{text}");
        assert_eq!(lines[0], "readyok", "{text}");
        assert!(lines[1].starts_with("bestmove ") && lines[2].starts_with("bestmove "), "{text}");
    }

    /// Input that ends during a search no `stop` can end any more: it is stopped with its
    /// `bestmove`; one with an end of its own runs to it.
    #[test]
    fn the_end_of_input_stops_only_endless_searches() {
        for go in ["go", "go infinite", "go ponder"] {
            let text = talk(&["position fen 8/8/8/3k4/8/8/8/2QK4 w - - 0 1", go]);
            assert_eq!(answers(&text).len(), 1, "{go}: {text}");
            assert!(answers(&text)[0].starts_with("bestmove ") && !text.contains("bestmove 0000"), "{go}: {text}");
        }
        let text = talk(&["go depth 6"]);
        assert!(text.contains("info depth 6 "), "{text}");
        // Mate in two (Kb6 Kb8 Qb7#): a piped mate search runs until it finds it.
        let text = talk(&["position fen k7/8/2K5/8/8/8/8/7Q w - - 0 1", "go mate 2"]);
        assert!(text.contains(" score mate 2 "), "{text}");
    }

    #[test]
    fn quit_stops_reading() {
        assert_eq!(talk(&["quit", "isready"]), "");
        let text = talk(&["go infinite", "quit", "isready"]);
        assert!(!text.contains("readyok"), "{text}");
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        let out = Shared::default();
        run(&b"\xff\xfe\nisready\n"[..], out.clone()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        assert!(text.starts_with("info string error: unknown command"));
        assert!(text.ends_with("readyok\n"));
    }

    #[test]
    fn repetition_history_follows_the_moves() {
        let position = Position::from_command(None, &["g1f3".into(), "g8f6".into()]).unwrap();
        let keys = history_keys(&position);
        assert_eq!(keys.len(), 2);
        assert_eq!(keys[0], homeostat_chess::Board::startpos().hash());
    }
}
