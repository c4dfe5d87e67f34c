//! The UCI session: reads commands, keeps the position and options, writes the answers.

use crate::command::{parse_command, Command, GoLimits};
use crate::display::diagram;
use crate::options::Options;
use crate::perft_cmd::go_perft;
use crate::position::{parse_move, Position};
use homeostat_chess::{Board, Move};
use std::io::{self, BufRead, Write};

/// What the loop does after a command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// Stop reading: `quit` was received.
    Quit,
}

/// A `bestmove` held back until the GUI ends an infinite or pondering search.
#[derive(Clone, Debug)]
struct Pending {
    reply: String,
    /// `go infinite`: only `stop` releases it (`ponderhit` alone does not).
    infinite: bool,
}

/// The state of one UCI conversation.
#[derive(Clone, Debug, Default)]
pub struct Session {
    position: Position,
    options: Options,
    debug: bool,
    pending: Option<Pending>,
}

impl Session {
    /// A session at the start position with default options.
    pub fn new() -> Session {
        Session::default()
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

    /// Parses and carries out one input line; a bad line gets an `info string error: …` reply.
    pub fn handle_line(&mut self, line: &str, out: &mut impl Write) -> io::Result<Flow> {
        match parse_command(line) {
            Ok(command) => self.handle(command, out),
            Err(why) => {
                report_error(out, &why)?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Carries out one command.
    pub fn handle(&mut self, command: Command, out: &mut impl Write) -> io::Result<Flow> {
        match command {
            Command::Empty | Command::Register => {}
            Command::Uci => {
                writeln!(out, "id name Homeostat {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the Homeostat developers")?;
                for line in Options::declarations() {
                    writeln!(out, "{line}")?;
                }
                writeln!(out, "uciok")?;
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => writeln!(out, "readyok")?,
            Command::SetOption { name, value } => {
                if let Err(why) = self.options.set(&name, value.as_deref()) {
                    report_error(out, &why)?;
                }
            }
            Command::UciNewGame => self.position = Position::startpos(),
            Command::Position { fen, moves } => match Position::from_command(fen.as_deref(), &moves) {
                Ok(position) => self.position = position,
                Err(why) => report_error(out, &format!("{why}; position unchanged"))?,
            },
            Command::Go(limits) => self.go(&limits, out)?,
            Command::Perft(depth) => go_perft(self.position.board(), depth, out)?,
            Command::Stop => self.release_pending(out)?,
            Command::PonderHit => {
                if self.pending.as_ref().is_some_and(|p| !p.infinite) {
                    self.release_pending(out)?;
                }
            }
            Command::Quit => return Ok(Flow::Quit),
            Command::Display => write!(out, "{}", diagram(self.position.board()))?,
        }
        Ok(Flow::Continue)
    }

    /// Answers `go`. Until crates/engine has a search this picks the first capture, else the
    /// first legal move; infinite and pondering searches hold the answer until released.
    fn go(&mut self, limits: &GoLimits, out: &mut impl Write) -> io::Result<()> {
        self.release_pending(out)?;
        let board = self.position.board();
        let mut allowed = Vec::new();
        for text in &limits.searchmoves {
            match parse_move(board, text) {
                Ok(m) => allowed.push(m),
                Err(why) => report_error(out, &format!("searchmoves '{text}': {why}"))?,
            }
        }
        let reply = match placeholder_move(board, &allowed) {
            Some(m) => format!("bestmove {m}"),
            None => "bestmove 0000".to_string(),
        };
        if limits.infinite || limits.ponder {
            self.pending = Some(Pending { reply, infinite: limits.infinite });
        } else {
            writeln!(out, "{reply}")?;
        }
        Ok(())
    }

    fn release_pending(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(pending) = self.pending.take() {
            writeln!(out, "{}", pending.reply)?;
        }
        Ok(())
    }
}

/// The first capture, else the first move, among `allowed` (all legal moves if it is empty).
fn placeholder_move(board: &Board, allowed: &[Move]) -> Option<Move> {
    let moves: Vec<Move> = if allowed.is_empty() { board.legal_moves().to_vec() } else { allowed.to_vec() };
    moves.iter().find(|&&m| board.is_capture(m)).or(moves.first()).copied()
}

/// Writes `info string error: …` on one line.
fn report_error(out: &mut impl Write, why: &str) -> io::Result<()> {
    writeln!(out, "info string error: {}", why.replace(['\n', '\r'], " "))
}

/// Speaks UCI until `quit` or the end of `input`, flushing `output` after every command.
pub fn run(mut input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::new();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        // Invalid UTF-8 is garbage like any other, not a reason to stop.
        let line = String::from_utf8_lossy(&bytes);
        let flow = session.handle_line(&line, &mut output)?;
        output.flush()?;
        if flow == Flow::Quit {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn talk(lines: &[&str]) -> String {
        let input = lines.join("\n");
        let mut out = Vec::new();
        run(input.as_bytes(), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn handshake() {
        let text = talk(&["uci", "isready"]);
        assert!(text.starts_with("id name Homeostat"));
        assert!(text.contains("option name Move Overhead type spin"));
        assert!(text.ends_with("uciok\nreadyok\n"));
    }

    #[test]
    fn bad_position_keeps_the_old_one() {
        let mut session = Session::new();
        let mut out = Vec::new();
        session.handle_line("position startpos moves e2e4", &mut out).unwrap();
        let before = *session.position().board();
        session.handle_line("position startpos moves d2d4 d7d5 d4d5", &mut out).unwrap();
        assert_eq!(session.position().board(), &before);
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("info string error: move 3 'd4d5'"), "{text}");
        assert!(text.trim_end().ends_with("position unchanged"), "{text}");
    }

    #[test]
    fn go_prefers_a_capture_and_honours_searchmoves() {
        let text = talk(&["position startpos moves e2e4 d7d5", "go depth 1"]);
        assert_eq!(text, "bestmove e4d5\n");
        let text = talk(&["position startpos moves e2e4 d7d5", "go searchmoves a2a3 b1c3"]);
        assert_eq!(text, "bestmove a2a3\n");
    }

    #[test]
    fn infinite_waits_for_stop() {
        let text = talk(&["go infinite", "isready", "stop"]);
        assert!(text.starts_with("readyok\nbestmove "), "{text}");
        let text = talk(&["go ponder", "ponderhit"]);
        assert!(text.starts_with("bestmove "), "{text}");
        let text = talk(&["go ponder infinite", "ponderhit"]);
        assert_eq!(text, "");
    }

    #[test]
    fn quit_stops_reading() {
        assert_eq!(talk(&["quit", "isready"]), "");
    }

    #[test]
    fn invalid_utf8_is_reported_not_fatal() {
        let mut out = Vec::new();
        run(&b"\xff\xfe\nisready\n"[..], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("info string error: unknown command"));
        assert!(text.ends_with("readyok\n"));
    }
}
