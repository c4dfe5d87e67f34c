//! `homeostat datagen`: self-play training data for the neural evaluation, on every core,
//! resumable, and `homeostat datagen --stats FILE...` to summarise data files.
//!
//! Game `i` of a run depends only on `--seed`, `--nodes` and `i` (see
//! `homeostat_engine::datagen`), so a run is reproducible and can be resumed: re-running the
//! same command on an existing file reads the games already there (dropping a cut-off last
//! record), plays only the missing indices, and appends. The format is in
//! `homeostat_engine::datagen::format` (about 4 bytes a position).

use homeostat_engine::datagen::{self, format, read_games, GameRecord, Header};
use homeostat_engine::nnue::Network;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Usage text of the command.
pub const USAGE: &str = "usage: homeostat datagen --out FILE [--games N] [--minutes M] [--threads T] [--nodes N]
                         [--seed S] [--max-mb MB] [--net builtin|NETFILE]
       homeostat datagen --stats FILE...
  Plays the engine against itself from random openings and appends the games to FILE.
  --games N     the file holds games 0..N when done (resumes an existing file)
  --minutes M   stop starting games after M minutes (at least one of --games, --minutes)
  --threads T   games in parallel (default: all cores)
  --nodes N     soft node budget a move (default 5000)
  --seed S      the run's seed (default 1); a file keeps the seed and nodes it was started with
  --max-mb MB   stop starting games once FILE reaches MB megabytes (default 15)
  --net N       evaluate with the built-in net or a net file (default: the hand-crafted evaluation);
                the file records the net's checksum, and a resumed run must name the same net";

/// Default soft node budget a move.
pub const DEFAULT_NODES: u64 = 5_000;
/// Default seed.
pub const DEFAULT_SEED: u64 = 1;
/// Default cap on the file size in MiB.
pub const DEFAULT_MAX_MB: f64 = 15.0;

/// One generation run's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The data file, created or resumed.
    pub out: PathBuf,
    /// Game indices `0..games` are to be in the file.
    pub games: Option<u32>,
    /// No new game after this many minutes.
    pub minutes: Option<f64>,
    /// Worker threads.
    pub threads: usize,
    /// Soft node budget a move.
    pub nodes: u64,
    /// The run's seed.
    pub seed: u64,
    /// No new game once the file is this large (MiB).
    pub max_mb: f64,
    /// `builtin` or a net file's path; `None` for the hand-crafted evaluation.
    pub net: Option<String>,
}

/// What a run did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Games found in the file at the start.
    pub resumed: usize,
    /// Bytes of a cut-off record dropped at the start.
    pub dropped_bytes: usize,
    /// Games played and written now (dropped openings included).
    pub played: u64,
    /// Positions written now.
    pub positions: u64,
    /// The file's size at the end.
    pub bytes: u64,
}

/// Runs the command with its arguments.
pub fn run_cli(args: &[String]) -> Result<(), String> {
    if args.first().map(String::as_str) == Some("--stats") {
        if args.len() < 2 {
            return Err(format!("datagen --stats: name at least one file\n{USAGE}"));
        }
        for file in &args[1..] {
            let text = stats(Path::new(file))?;
            let _ = writeln!(std::io::stdout(), "{text}");
        }
        return Ok(());
    }
    let config = parse(args)?;
    let start = Instant::now();
    let summary = generate(&config, &|line| eprintln!("{line}"))?;
    let secs = start.elapsed().as_secs_f64();
    let _ = writeln!(
        std::io::stdout(),
        "datagen: {} games and {} positions written in {secs:.0} s ({:.0} positions/s); {} games were already there; {} is {} bytes",
        summary.played,
        summary.positions,
        summary.positions as f64 / secs.max(1e-9),
        summary.resumed,
        config.out.display(),
        summary.bytes
    );
    Ok(())
}

/// Reads the command line into a [`Config`].
pub fn parse(args: &[String]) -> Result<Config, String> {
    let mut out = None;
    let mut config = Config {
        out: PathBuf::new(),
        games: None,
        minutes: None,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
        nodes: DEFAULT_NODES,
        seed: DEFAULT_SEED,
        max_mb: DEFAULT_MAX_MB,
        net: None,
    };
    let mut i = 0;
    while i < args.len() {
        let flag = args[i].as_str();
        let value = args.get(i + 1).ok_or_else(|| format!("datagen: {flag} needs a value\n{USAGE}"))?;
        let bad = || format!("datagen: {flag} takes a positive number, got '{value}'");
        match flag {
            "--out" => out = Some(PathBuf::from(value)),
            "--games" => config.games = Some(value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?),
            "--minutes" => {
                config.minutes = Some(value.parse().ok().filter(|&m: &f64| m > 0.0 && m.is_finite()).ok_or_else(bad)?)
            }
            "--threads" => config.threads = value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
            "--nodes" => config.nodes = value.parse().ok().filter(|&n| n > 0).ok_or_else(bad)?,
            "--seed" => {
                config.seed =
                    value.parse().map_err(|_| format!("datagen: --seed takes a whole number, got '{value}'"))?
            }
            "--max-mb" => {
                config.max_mb = value.parse().ok().filter(|&m: &f64| m > 0.0 && m.is_finite()).ok_or_else(bad)?
            }
            "--net" => config.net = Some(value.clone()),
            _ => return Err(format!("datagen: unknown option '{flag}'\n{USAGE}")),
        }
        i += 2;
    }
    config.out = out.ok_or_else(|| format!("datagen: --out FILE is required\n{USAGE}"))?;
    if config.games.is_none() && config.minutes.is_none() {
        return Err(format!("datagen: bound the run with --games N and/or --minutes M\n{USAGE}"));
    }
    Ok(config)
}

/// Creates or resumes `config.out` and plays until a bound is reached; `progress` gets a line
/// every ten seconds or so.
pub fn generate(config: &Config, progress: &(dyn Fn(&str) + Sync)) -> Result<Summary, String> {
    let path = &config.out;
    let net = config.net.as_deref().map(load_net).transpose()?;
    let header = Header { seed: config.seed, nodes: config.nodes, net: net.as_ref().map(|n| n.checksum()) };
    let mut summary = Summary::default();
    let mut done = HashSet::new();
    let existing = std::fs::read(path).ok().filter(|b| !b.is_empty());
    let file = match existing {
        Some(bytes) => {
            let games = read_games(&bytes).map_err(|e| format!("datagen: {}: {e}", path.display()))?;
            if games.header != header {
                return Err(format!(
                    "datagen: {} was made with --seed {} --nodes {} and the {}; resume it with those, or choose another --out",
                    path.display(),
                    games.header.seed,
                    games.header.nodes,
                    games.header.evaluation()
                ));
            }
            done.extend(games.games.iter().map(|g| g.index));
            summary.resumed = games.games.len();
            summary.dropped_bytes = games.truncated;
            let file = OpenOptions::new().write(true).open(path).map_err(|e| io_error(path, e))?;
            // Cut off a record an interrupted run left half written.
            file.set_len(games.valid_len as u64).map_err(|e| io_error(path, e))?;
            if games.truncated > 0 {
                progress(&format!("datagen: dropped a cut-off last record ({} bytes)", games.truncated));
            }
            file
        }
        None => {
            let mut file = File::create(path).map_err(|e| io_error(path, e))?;
            file.write_all(&header.to_bytes()).map_err(|e| io_error(path, e))?;
            file
        }
    };
    let file_len = file.metadata().map_err(|e| io_error(path, e))?.len();
    drop(file);
    let file = OpenOptions::new().append(true).open(path).map_err(|e| io_error(path, e))?;

    let start = Instant::now();
    let deadline = config.minutes.map(|m| start + Duration::from_secs_f64(m * 60.0));
    let max_bytes = (config.max_mb * 1024.0 * 1024.0) as u64;
    let limit = config.games.unwrap_or(u32::MAX);
    let limits = datagen::soft_limits(config.nodes);
    let next = AtomicU32::new(0);
    let bytes = AtomicU64::new(file_len);
    let played = AtomicU64::new(0);
    let positions = AtomicU64::new(0);
    let failed = AtomicBool::new(false);
    let writer = Mutex::new((file, Ok::<(), String>(()), start));

    std::thread::scope(|scope| {
        for _ in 0..config.threads.max(1) {
            scope.spawn(|| loop {
                if failed.load(Ordering::Relaxed)
                    || deadline.is_some_and(|d| Instant::now() >= d)
                    || bytes.load(Ordering::Relaxed) >= max_bytes
                {
                    break;
                }
                let index = loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= limit || !done.contains(&i) {
                        break i;
                    }
                };
                if index >= limit {
                    break;
                }
                let record: GameRecord = datagen::play_game(config.seed, index, &limits, net.as_ref());
                let mut buffer = Vec::with_capacity(format::RECORD_HEAD_LEN + record.plies.len() * format::PLY_LEN);
                record.write_to(&mut buffer);
                let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = w.0.write_all(&buffer) {
                    w.1 = Err(io_error(path, e));
                    failed.store(true, Ordering::Relaxed);
                    break;
                }
                let total = bytes.fetch_add(buffer.len() as u64, Ordering::Relaxed) + buffer.len() as u64;
                let games = played.fetch_add(1, Ordering::Relaxed) + 1;
                let pos = positions.fetch_add(record.plies.len() as u64, Ordering::Relaxed) + record.plies.len() as u64;
                if w.2.elapsed() >= Duration::from_secs(10) {
                    w.2 = Instant::now();
                    let secs = start.elapsed().as_secs_f64();
                    progress(&format!(
                        "datagen: {games} games, {pos} positions, {:.1} MiB, {:.0} positions/s",
                        total as f64 / 1048576.0,
                        pos as f64 / secs
                    ));
                }
            });
        }
    });
    let (_, status, _) = writer.into_inner().unwrap_or_else(|e| e.into_inner());
    status?;
    summary.played = played.into_inner();
    summary.positions = positions.into_inner();
    summary.bytes = bytes.into_inner();
    Ok(summary)
}

/// The net `--net` names: `builtin`, or a net file checked whole.
fn load_net(name: &str) -> Result<Arc<Network>, String> {
    if name == "builtin" {
        return Network::embedded().ok_or_else(|| "datagen: this build has no built-in net".to_string());
    }
    let bytes = std::fs::read(name).map_err(|e| format!("datagen: --net {name}: {e}"))?;
    Network::from_bytes(&bytes).map(Arc::new).map_err(|e| format!("datagen: --net {name}: {e}"))
}

fn io_error(path: &Path, e: std::io::Error) -> String {
    format!("datagen: {}: {e}", path.display())
}

/// A summary of a data file: games, positions, results, size.
pub fn stats(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("datagen --stats: {}: {e}", path.display()))?;
    let games = read_games(&bytes).map_err(|e| format!("datagen --stats: {}: {e}", path.display()))?;
    let mut played = 0u64;
    let mut dropped = 0u64;
    let mut positions = 0u64;
    let mut results = [0u64; 3];
    let mut mates = 0u64;
    for g in &games.games {
        if g.is_dropped() {
            dropped += 1;
            continue;
        }
        played += 1;
        positions += g.plies.len() as u64;
        results[format::result_code(g.result) as usize] += 1;
        mates += g.plies.iter().filter(|p| p.1.abs() > format::MAX_CP).count() as u64;
    }
    let pct = |n: u64| 100.0 * n as f64 / played.max(1) as f64;
    Ok(format!(
        "{}: seed {} nodes {}, {}; {played} games ({dropped} openings dropped), {positions} positions ({:.1} a game, {mates} with mate scores), \
         White won {} ({:.1}%), drawn {} ({:.1}%), Black won {} ({:.1}%); {} bytes ({:.2} a position){}",
        path.display(),
        games.header.seed,
        games.header.nodes,
        games.header.evaluation(),
        positions as f64 / played.max(1) as f64,
        results[2],
        pct(results[2]),
        results[1],
        pct(results[1]),
        results[0],
        pct(results[0]),
        bytes.len(),
        bytes.len() as f64 / positions.max(1) as f64,
        if games.truncated > 0 { format!("; a cut-off last record of {} bytes is ignored", games.truncated) } else { String::new() }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(out: &Path, games: u32, threads: usize) -> Config {
        Config {
            out: out.to_path_buf(),
            games: Some(games),
            minutes: None,
            threads,
            nodes: 200,
            seed: 7,
            max_mb: DEFAULT_MAX_MB,
            net: None,
        }
    }

    fn sorted_games(path: &Path) -> Vec<GameRecord> {
        let mut games = read_games(&std::fs::read(path).unwrap()).unwrap().games;
        games.sort_by_key(|g| g.index);
        games
    }

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("homeostat-datagen-{}-{name}.bin", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn resuming_continues_without_duplicates_and_matches_one_run() {
        let (whole, parts) = (temp("whole"), temp("parts"));
        generate(&config(&whole, 10, 2), &|_| {}).unwrap();
        let first = generate(&config(&parts, 4, 2), &|_| {}).unwrap();
        assert_eq!(first.played, 4);
        let second = generate(&config(&parts, 10, 2), &|_| {}).unwrap();
        assert_eq!((second.resumed, second.played), (4, 6));
        let again = generate(&config(&parts, 10, 1), &|_| {}).unwrap();
        assert_eq!(again.played, 0, "a finished file needs nothing more");
        let games = sorted_games(&parts);
        assert_eq!(games.iter().map(|g| g.index).collect::<Vec<_>>(), (0..10).collect::<Vec<_>>());
        assert_eq!(games, sorted_games(&whole));
        assert!(games.iter().any(|g| !g.is_dropped()));
        let mut other_seed = config(&parts, 12, 1);
        other_seed.seed = 8;
        assert!(generate(&other_seed, &|_| {}).unwrap_err().contains("--seed 7"));
        let _ = (std::fs::remove_file(&whole), std::fs::remove_file(&parts));
    }

    #[test]
    fn a_truncated_last_record_is_dropped_and_replayed() {
        let (whole, cut) = (temp("whole2"), temp("cut"));
        generate(&config(&whole, 5, 1), &|_| {}).unwrap();
        let bytes = std::fs::read(&whole).unwrap();
        std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
        let text = stats(&cut).unwrap();
        assert!(text.contains("cut-off last record"), "{text}");
        let summary = generate(&config(&cut, 5, 1), &|_| {}).unwrap();
        assert_eq!((summary.resumed, summary.played), (4, 1));
        assert_eq!(sorted_games(&cut), sorted_games(&whole));
        assert_eq!(std::fs::metadata(&cut).unwrap().len(), bytes.len() as u64);
        let _ = (std::fs::remove_file(&whole), std::fs::remove_file(&cut));
    }

    #[test]
    fn a_net_made_file_records_its_net_and_is_resumed_only_with_it() {
        let (net_file, hce_file) = (temp("net"), temp("hce"));
        let mut with_net = config(&net_file, 3, 2);
        with_net.net = Some("builtin".into());
        generate(&with_net, &|_| {}).unwrap();
        let header = read_games(&std::fs::read(&net_file).unwrap()).unwrap().header;
        let builtin = Network::embedded().unwrap().checksum();
        assert_eq!(header.net, Some(builtin));
        assert!(stats(&net_file).unwrap().contains(&format!("net {builtin:#018x}")));
        generate(&config(&hce_file, 3, 2), &|_| {}).unwrap();
        assert_ne!(sorted_games(&net_file), sorted_games(&hce_file), "the net played other games");
        // Resuming with the other evaluation is refused and names the one the file was made with.
        let mut more = config(&net_file, 5, 1);
        assert!(generate(&more, &|_| {}).unwrap_err().contains("and the net 0x"));
        more.net = Some("builtin".into());
        assert_eq!(generate(&more, &|_| {}).unwrap().played, 2);
        let mut other = config(&hce_file, 5, 1);
        other.net = Some("builtin".into());
        assert!(generate(&other, &|_| {}).unwrap_err().contains("hand-crafted evaluation"));
        // A net file that is not one is named in the error, and no data file is made.
        let not_a_net = temp("not-a-net");
        std::fs::write(&not_a_net, b"HSTNNUE1 but nothing more").unwrap();
        let fresh = temp("fresh");
        let mut bad = config(&fresh, 1, 1);
        bad.net = Some(not_a_net.display().to_string());
        let e = generate(&bad, &|_| {}).unwrap_err();
        assert!(e.contains("--net") && e.contains("not-a-net"), "{e}");
        assert!(!fresh.exists());
        let _ = [net_file, hce_file, not_a_net].map(std::fs::remove_file);
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        assert!(parse(&args("--games 5")).unwrap_err().contains("--out"));
        assert!(parse(&args("--out x.bin")).unwrap_err().contains("bound the run"));
        assert!(parse(&args("--out x.bin --games 0")).unwrap_err().contains("positive"));
        assert!(parse(&args("--out x.bin --minutes")).unwrap_err().contains("needs a value"));
        assert!(parse(&args("--out x.bin --frobs 3")).unwrap_err().contains("unknown option"));
        let c = parse(&args("--out x.bin --minutes 9 --threads 16 --seed 3")).unwrap();
        assert_eq!((c.threads, c.seed, c.nodes, c.minutes, c.net), (16, 3, DEFAULT_NODES, Some(9.0), None));
        assert_eq!(parse(&args("--out x.bin --games 2 --net builtin")).unwrap().net.as_deref(), Some("builtin"));
        let e = stats(Path::new("/nonexistent/file.bin")).unwrap_err();
        assert!(e.contains("/nonexistent/file.bin"));
    }
}
