//! `homeostat-memory`: the chess memory service.

use homeostat_memory::ratelimit::Rate;
use homeostat_memory::{start_spec, Identity, Settings, StoreSpec};
use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "homeostat-memory: the chess memory service

Usage: homeostat-memory [OPTIONS]

  --listen ADDR:PORT          where to listen (default 127.0.0.1:8001)
  --store sqlite:PATH         the embedded store (default sqlite:memory.db)
  --store postgres://USER@HOST:PORT/DATABASE
                              a PostgreSQL database, shared by any number of servers
  --verify-nodes N            nodes of each spot-check search (default 40000, about 20 ms)
  --verify-margin CP          a move the spot-check finds this much below its own best is refused (default 100)
  --verify-workers N          threads that spot-check entries (default 1)
  --verify-queue N            entries waiting in memory for a check (default 256)
  --verify-wait-ms N          how long a submission waits for its verdict (default 500)
  --lookup-rate N             lookups a minute per address, 0 for no limit (default 1200, bursts of 200)
  --submit-rate N             submissions a minute per client token, 0 for no limit (default 30)
  --submit-rate-addr N        submissions a minute per address, 0 for no limit (default 120)
  --trust-forwarded-for       take the address from X-Forwarded-For (only behind your own proxy)
  --help, --version
";

struct Options {
    listen: String,
    store: StoreSpec,
    settings: Settings,
}

fn parse(args: &[String]) -> Result<Option<Options>, String> {
    let mut options = Options {
        listen: "127.0.0.1:8001".to_string(),
        store: StoreSpec::Sqlite("memory.db".to_string()),
        settings: Settings::default(),
    };
    let mut i = 0;
    while i < args.len() {
        let name = args[i].as_str();
        let mut value = || -> Result<&str, String> {
            i += 1;
            args.get(i).map(String::as_str).ok_or_else(|| format!("{name} needs a value"))
        };
        let number = |text: &str| -> Result<u64, String> {
            text.parse::<u64>().map_err(|_| format!("{name} takes a whole number, not '{text}'"))
        };
        match name {
            "--help" | "-h" => {
                print!("{USAGE}");
                return Ok(None);
            }
            "--version" => {
                println!("homeostat-memory {}", env!("CARGO_PKG_VERSION"));
                return Ok(None);
            }
            "--listen" => options.listen = value()?.to_string(),
            "--store" => options.store = StoreSpec::parse(value()?)?,
            "--verify-nodes" => options.settings.verify.nodes = number(value()?)?.clamp(1, 10_000_000),
            "--verify-margin" => options.settings.verify.margin_cp = number(value()?)?.clamp(1, 10_000) as i32,
            "--verify-workers" => options.settings.verify.workers = number(value()?)?.clamp(1, 64) as usize,
            "--verify-queue" => options.settings.verify.queue = number(value()?)?.clamp(1, 1_000_000) as usize,
            "--verify-wait-ms" => options.settings.verify_wait = Duration::from_millis(number(value()?)?.min(60_000)),
            "--lookup-rate" => {
                let n = number(value()?)? as f64;
                options.settings.lookup_rate = Rate { per_minute: n, burst: (n / 6.0).max(1.0) };
            }
            "--submit-rate" => {
                let n = number(value()?)? as f64;
                options.settings.submit_rate_client = Rate { per_minute: n, burst: n.max(1.0) };
            }
            "--submit-rate-addr" => {
                let n = number(value()?)? as f64;
                options.settings.submit_rate_addr = Rate { per_minute: n, burst: (n / 2.0).max(1.0) };
            }
            "--trust-forwarded-for" => options.settings.trust_forwarded_for = true,
            other => return Err(format!("unknown option '{other}'; see --help")),
        }
        i += 1;
    }
    Ok(Some(options))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let options = match parse(&args) {
        Ok(Some(options)) => options,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("homeostat-memory: {e}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("homeostat-memory: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(serve(options)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("homeostat-memory: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn serve(options: Options) -> Result<(), String> {
    let identity =
        tokio::task::spawn_blocking(Identity::of_this_build).await.map_err(|e| format!("bench failed: {e}"))?;
    let listener = tokio::net::TcpListener::bind(&options.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", options.listen))?;
    let running = start_spec(listener, &options.store, identity.clone(), options.settings).await?;
    let store = match &options.store {
        StoreSpec::Sqlite(path) => format!("sqlite:{path}"),
        StoreSpec::Postgres(_) => "postgres".to_string(),
    };
    eprintln!("homeostat-memory: {} on http://{} with {store}", identity.name(), running.addr);
    shutdown_signal().await;
    eprintln!("homeostat-memory: stopping");
    running.stop().await;
    Ok(())
}

async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(signal) => signal,
            Err(_) => {
                let _ = interrupt.await;
                return;
            }
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
