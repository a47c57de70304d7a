//! `wthor serve`: the database in the browser (an opening explorer,
//! search, a game viewer and player pages), served by `wthor-server`.
//!
//! It listens on 127.0.0.1:8080 by default and prints the URL; another
//! address than a loopback one needs `--public` (and gets a warning:
//! anyone who reaches it reads the database). Read-only: no request
//! writes anything. Ctrl-C or SIGTERM stops it after the requests under
//! way.

use std::io::Write;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context as _;
use wthor_server::{AppState, Config};

use crate::commands::index::IndexArgs;
use crate::db_args::DbArgs;
use crate::textfmt::count;

/// Arguments of `wthor serve`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::SERVE)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    index: IndexArgs,
    /// The address to listen on (port 0: any free port).
    #[arg(long, value_name = "IP:PORT", default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Allow an address other than loopback (anyone who can reach it can
    /// read the database).
    #[arg(long)]
    public: bool,
    /// Open the page in the default browser.
    #[arg(long)]
    open: bool,
    /// Results logs of `wthor analyze --results` (games of this database,
    /// matched by record key): endgame accuracy on the player pages, the
    /// worst mistakes in the reports. Games of another database are left
    /// out, with a warning.
    #[arg(long, value_name = "F.jsonl", num_args = 1..)]
    analysis: Vec<std::path::PathBuf>,
    /// Where the whole database's ratings are kept (see `wthor ratings`;
    /// default: the user's cache directory).
    #[arg(long = "ratings", value_name = "FILE")]
    ratings_file: Option<std::path::PathBuf>,
    /// The longest a query may take, its wait for a turn included (past
    /// it the answer is 503: busy, or too long); the explorer's values get
    /// half of it, an explicit solve (`solve=1`) all of it. Raise it on a
    /// slow or busy machine.
    #[arg(long, value_name = "SECONDS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    time_cap: u64,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if !args.addr.ip().is_loopback() && !args.public {
        anyhow::bail!(
            "--addr {}: not a loopback address; give --public to listen there (anyone who reaches it can read the database)",
            args.addr
        );
    }
    let mut db = args.db.open()?;
    if let Some(file) = &args.ratings_file {
        db = db.with_ratings_file(file);
    }
    let cap = std::time::Duration::from_secs(args.time_cap);
    let config = Config {
        time_cap: cap,
        value_time: cap / 2,
        ..Config::default()
    };
    let (mut state, note) = AppState::new(db, &args.index.choice(), config);
    if !args.analysis.is_empty() {
        let (with, notes) = state
            .with_analysis_logs(&args.analysis)
            .context("--analysis")?;
        state = with;
        for n in notes {
            eprintln!("wthor: warning: {n}");
        }
        eprintln!(
            "wthor: {} analysed of this database",
            count(state.analyses().len(), "game", "games")
        );
    }
    // The server's internal faults (500), each with its request.
    let state = state.on_fault(|what| eprintln!("wthor: {what}"));
    if let Some(note) = note {
        eprintln!("wthor: {note}");
    }
    let runtime = wthor_server::runtime().context("starting the server's runtime")?;
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(args.addr)
            .await
            .with_context(|| format!("--addr {}: cannot listen", args.addr))?;
        let addr = listener.local_addr().context("the address listened on")?;
        if !addr.ip().is_loopback() {
            eprintln!(
                "wthor: warning: listening on {addr}, not only on this machine: anyone who reaches it can read the database"
            );
        }
        let url = format!("http://{addr}/");
        writeln!(
            out,
            "wthor: serving {} at {url} (Ctrl-C stops)",
            count(state.database().game_count(), "game", "games")
        )?;
        out.flush()?;
        if args.open {
            open_browser(&url);
        }
        // The ratings were made by AppState::new, before any request.
        wthor_server::serve(listener, Arc::new(state), stop_signal())
            .await
            .context("serving")?;
        eprintln!("wthor: stopped");
        Ok(ExitCode::SUCCESS)
    })
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    {
        let term = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            () = ctrl_c => {},
            () = term => {},
        }
    }
    #[cfg(not(unix))]
    ctrl_c.await;
}

/// Opens `url` in the default browser; a failure is a warning.
fn open_browser(url: &str) {
    let program = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if let Err(e) = std::process::Command::new(program)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
    {
        eprintln!("wthor: warning: could not open a browser ({program}: {e}); open {url}");
    }
}
