//! Parsing one line of UCI input into a typed [`Command`], without any engine state.

use std::time::Duration;

/// Deepest `go perft` accepted: deeper would run for years and recurse without bound.
pub const MAX_PERFT_DEPTH: u32 = 32;

/// One command from the GUI.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// A blank line: nothing to do.
    Empty,
    /// `uci`: identify and list the options.
    Uci,
    /// `debug on|off`.
    Debug(bool),
    /// `isready`: answer `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name as given (may contain spaces).
        name: String,
        /// The value, if any (may contain spaces).
        value: Option<String>,
    },
    /// `register …`: accepted and ignored.
    Register,
    /// `ucinewgame`.
    UciNewGame,
    /// `position startpos|fen <fields> [moves …]`.
    Position {
        /// The FEN text, `None` for the start position.
        fen: Option<String>,
        /// The moves to play from there, as written.
        moves: Vec<String>,
    },
    /// `go` with search limits.
    Go(GoLimits),
    /// `go perft <depth>`.
    Perft(u32),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the board.
    Display,
}

/// The limits of a `go` command; all absent means "search until told to stop".
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoLimits {
    /// White's remaining clock time.
    pub wtime: Option<Duration>,
    /// Black's remaining clock time.
    pub btime: Option<Duration>,
    /// White's increment per move.
    pub winc: Option<Duration>,
    /// Black's increment per move.
    pub binc: Option<Duration>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Search this many plies.
    pub depth: Option<u32>,
    /// Search this many nodes.
    pub nodes: Option<u64>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    /// Search exactly this long.
    pub movetime: Option<Duration>,
    /// Search until `stop`.
    pub infinite: bool,
    /// Search in pondering mode until `ponderhit` or `stop`.
    pub ponder: bool,
    /// Restrict the search to these root moves, as written.
    pub searchmoves: Vec<String>,
}

const GO_KEYWORDS: [&str; 13] = [
    "wtime",
    "btime",
    "winc",
    "binc",
    "movestogo",
    "depth",
    "nodes",
    "mate",
    "movetime",
    "infinite",
    "ponder",
    "searchmoves",
    "perft",
];

/// Parses one line of UCI input; the error says what is wrong with it.
pub fn parse_command(line: &str) -> Result<Command, String> {
    let mut tokens = line.split_whitespace();
    let Some(name) = tokens.next() else {
        return Ok(Command::Empty);
    };
    let rest: Vec<&str> = tokens.collect();
    let no_args = |command: Command| {
        if rest.is_empty() {
            Ok(command)
        } else {
            Err(format!("'{name}' takes no arguments, got '{}'", rest.join(" ")))
        }
    };
    match name {
        "uci" => no_args(Command::Uci),
        "isready" => no_args(Command::IsReady),
        "ucinewgame" => no_args(Command::UciNewGame),
        "stop" => no_args(Command::Stop),
        "ponderhit" => no_args(Command::PonderHit),
        "quit" => no_args(Command::Quit),
        "d" => no_args(Command::Display),
        "register" => Ok(Command::Register),
        "debug" => match rest.as_slice() {
            ["on"] => Ok(Command::Debug(true)),
            ["off"] => Ok(Command::Debug(false)),
            _ => Err("debug: expected 'debug on' or 'debug off'".to_string()),
        },
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest),
        _ => Err(format!("unknown command '{}'", shorten(name))),
    }
}

/// At most 40 characters of `s`, so a garbage line cannot flood the output.
fn shorten(s: &str) -> String {
    match s.char_indices().nth(40) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_string(),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, String> {
    let Some((&"name", after)) = rest.split_first() else {
        return Err("setoption: expected 'setoption name <name> [value <value>]'".to_string());
    };
    let (name, value) = match after.iter().position(|&t| t == "value") {
        Some(i) => (&after[..i], Some(after[i + 1..].join(" "))),
        None => (after, None),
    };
    if name.is_empty() {
        return Err("setoption: the option name is missing".to_string());
    }
    Ok(Command::SetOption { name: name.join(" "), value })
}

fn parse_position(rest: &[&str]) -> Result<Command, String> {
    let (fen, after) = match rest.split_first() {
        Some((&"startpos", after)) => (None, after),
        Some((&"fen", after)) => {
            let end = after.iter().position(|&t| t == "moves").unwrap_or(after.len());
            if end == 0 {
                return Err("position fen: the FEN is missing".to_string());
            }
            (Some(after[..end].join(" ")), &after[end..])
        }
        Some((other, _)) => return Err(format!("position: expected 'startpos' or 'fen', got '{}'", shorten(other))),
        None => return Err("position: expected 'startpos' or 'fen <FEN>'".to_string()),
    };
    let moves = match after.split_first() {
        None => Vec::new(),
        Some((&"moves", moves)) => moves.iter().map(|m| m.to_string()).collect(),
        Some((other, _)) => {
            return Err(format!("position: expected 'moves' after the position, got '{}'", shorten(other)))
        }
    };
    Ok(Command::Position { fen, moves })
}

fn parse_go(rest: &[&str]) -> Result<Command, String> {
    if let Some((&"perft", args)) = rest.split_first() {
        return match args {
            [depth] => match depth.parse::<u32>() {
                Ok(d) if d <= MAX_PERFT_DEPTH => Ok(Command::Perft(d)),
                _ => Err(format!(
                    "go perft: depth must be a whole number from 0 to {MAX_PERFT_DEPTH}, got '{}'",
                    shorten(depth)
                )),
            },
            _ => Err("go perft: expected 'go perft <depth>'".to_string()),
        };
    }
    let mut limits = GoLimits::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        i += 1;
        let mut value = || {
            let v = rest.get(i).copied();
            i += 1;
            v.ok_or_else(|| format!("go: '{key}' needs a value"))
        };
        match key {
            "wtime" => limits.wtime = Some(millis(key, value()?)?),
            "btime" => limits.btime = Some(millis(key, value()?)?),
            "winc" => limits.winc = Some(millis(key, value()?)?),
            "binc" => limits.binc = Some(millis(key, value()?)?),
            "movetime" => limits.movetime = Some(millis(key, value()?)?),
            "movestogo" => limits.movestogo = Some(number(key, value()?)?),
            "depth" => limits.depth = Some(number(key, value()?)?),
            "nodes" => limits.nodes = Some(number(key, value()?)?),
            "mate" => limits.mate = Some(number(key, value()?)?),
            "infinite" => limits.infinite = true,
            "ponder" => limits.ponder = true,
            "searchmoves" => {
                while let Some(&m) = rest.get(i) {
                    if GO_KEYWORDS.contains(&m) {
                        break;
                    }
                    limits.searchmoves.push(m.to_string());
                    i += 1;
                }
            }
            "perft" => return Err("go: 'perft' cannot be combined with other limits".to_string()),
            other => return Err(format!("go: unknown limit '{}'", shorten(other))),
        }
    }
    Ok(Command::Go(limits))
}

/// A time in milliseconds; GUIs may send negative clocks, which count as zero.
fn millis(key: &str, text: &str) -> Result<Duration, String> {
    match text.parse::<i64>() {
        Ok(ms) => Ok(Duration::from_millis(ms.max(0) as u64)),
        Err(_) => Err(format!("go: '{key}' needs a time in milliseconds, got '{}'", shorten(text))),
    }
}

fn number<T: std::str::FromStr>(key: &str, text: &str) -> Result<T, String> {
    text.parse().map_err(|_| format!("go: '{key}' needs a non-negative whole number, got '{}'", shorten(text)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn simple_commands() {
        assert_eq!(parse_command("uci"), Ok(Command::Uci));
        assert_eq!(parse_command("  isready \r"), Ok(Command::IsReady));
        assert_eq!(parse_command(""), Ok(Command::Empty));
        assert_eq!(parse_command("debug on"), Ok(Command::Debug(true)));
        assert!(parse_command("isready now").is_err());
        assert!(parse_command("xyzzy").unwrap_err().contains("unknown command 'xyzzy'"));
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            parse_command("position startpos moves e2e4 e7e5"),
            Ok(Command::Position { fen: None, moves: vec!["e2e4".into(), "e7e5".into()] })
        );
        assert_eq!(
            parse_command("position fen 8/8/8/8/8/8/8/K6k w - - 0 1"),
            Ok(Command::Position { fen: Some("8/8/8/8/8/8/8/K6k w - - 0 1".into()), moves: vec![] })
        );
        assert!(parse_command("position").is_err());
        assert!(parse_command("position fen moves e2e4").is_err());
        assert!(parse_command("position startpos e2e4").is_err());
    }

    #[test]
    fn setoption_names_and_values_with_spaces() {
        assert_eq!(
            parse_command("setoption name Move Overhead value 30"),
            Ok(Command::SetOption { name: "Move Overhead".into(), value: Some("30".into()) })
        );
        assert_eq!(
            parse_command("setoption name Clear Hash"),
            Ok(Command::SetOption { name: "Clear Hash".into(), value: None })
        );
        assert!(parse_command("setoption value 3").is_err());
        assert!(parse_command("setoption name value 3").is_err());
    }

    #[test]
    fn go_limits() {
        let Ok(Command::Go(go)) =
            parse_command("go wtime -20 btime 1000 winc 5 binc 5 movestogo 3 searchmoves e2e4 d2d4 depth 7")
        else {
            panic!("not a go");
        };
        assert_eq!(go.wtime, Some(Duration::ZERO));
        assert_eq!(go.btime, Some(Duration::from_millis(1000)));
        assert_eq!(go.movestogo, Some(3));
        assert_eq!(go.depth, Some(7));
        assert_eq!(go.searchmoves, vec!["e2e4".to_string(), "d2d4".to_string()]);
        assert_eq!(parse_command("go perft 3"), Ok(Command::Perft(3)));
        assert!(parse_command("go perft 99").is_err());
        assert!(parse_command("go perft").is_err());
        assert!(parse_command("go depth").is_err());
        assert!(parse_command("go depth x").is_err());
        assert!(parse_command("go fast").is_err());
        assert_eq!(parse_command("go"), Ok(Command::Go(GoLimits::default())));
    }

    #[test]
    fn long_garbage_is_shortened() {
        let line = "é".repeat(1000);
        assert!(parse_command(&line).unwrap_err().chars().count() < 80);
    }
}
