//! `wthor solve`: the exact score and a best move of 8x8 positions.
//!
//! A position is an OBF line (64 squares `X`/`O`/`-` from a1 to h8, a space,
//! the side to move `X` or `O`; a trailing `; A2:+38; …` as in `.obf`
//! files, or a `%` comment, is ignored, any other trailing text refused),
//! given as the argument, one per line of `--file` (blank lines and `%`
//! comment lines skipped), or a game of a WTHOR file replayed to a number
//! of empties or moves. Each position gives one line: the exact final disc
//! difference for the side to move (empties to the winner) and a best
//! move, e.g. `black to move: +38 (a2), 20 empties` (`(pass)` when the
//! side must pass, `(game over)` when neither side can move); with
//! `--wld`, `win`, `draw` or `loss` and a move reaching it (none for a
//! loss: every move loses); with `--json`, one JSON object (`"pass":
//! true` or `"game_over": true` when there is no move to play). `--wld`
//! needs an exact solve: past 30 empties it is refused without `--exact`.
//!
//! A position with more than `EXACT_MAX_EMPTIES` (30) empty squares is not
//! solved: the midgame search (`othello_core::midgame`) judges it at
//! `midgame::DEFAULT_DEPTH` plies, printed as `~+2.3 (f5), an estimate at
//! 40 empties, depth 12`; in JSON `"estimate": true`, `"value"` (discs),
//! `"search_depth"` and `"nodes"`. `--depth`, `--nodes` or `--time` ask for
//! the search at any number of empties (an exact answer reached within
//! the limit is given as exact); `--exact` solves it all the same;
//! `--all-moves` gives every legal move's value (exact or estimated).
//!
//! Ctrl-C (or SIGTERM, SIGHUP) during a search stops it and prints the
//! best found so far, marked `interrupted` (`"interrupted": true`): the
//! midgame search's last completed iteration, or for an exact solve a
//! quick estimate ([`INTERRUPTED_DEPTH`] plies); the positions after it
//! are not searched, and the command exits 130.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context as _, bail};
use othello_core::midgame::{self, Engine, EngineOptions, Limits, Query};
use othello_core::replay::{
    Reach, replay_moves_prefix, replay_to_empties, replay_wthor, wthor_tokens,
};
use othello_core::solver::{Solver, SolverOptions};
use othello_core::{Board, Board8, Color, Size, Square};
use serde::Serialize;
use wthor_format::{BoardSize, ReadOptions, WthorFile, parse_any};

use crate::textfmt::count;

/// Positions with more empty squares get an estimate instead of a solve
/// (an exact solve at 30 empties takes minutes to hours).
pub(crate) const EXACT_MAX_EMPTIES: u32 = 30;

/// What `solve` says of a 10x10 position or game.
const NO_TEN: &str = "a 10x10 position: wthor solve judges 8x8 positions only \
     (there is no 10x10 evaluation, and no 10x10 solver fast enough)";

/// An 8x8 position from an OBF line, or a clear refusal of a 10x10 one
/// or of text after the side to move that is neither `;` annotations nor
/// a `%` comment (the OBF of TEXT-FORMATS.md).
fn board8(line: &str) -> anyhow::Result<Board8> {
    let board = match Board8::from_obf(line) {
        Ok(board) => board,
        Err(e) => match othello_core::position::AnyBoard::from_obf(line) {
            Ok(b) if b.size() == Size::Ten => bail!(NO_TEN),
            _ => return Err(e.into()),
        },
    };
    let tail = obf_tail(line);
    if !(tail.is_empty() || tail.starts_with([';', '%'])) {
        bail!(
            "trailing text after the side to move: {tail:?} (an OBF line may end with \
             `; annotations` or a `% comment`, nothing else)"
        );
    }
    Ok(board)
}

/// What follows the side to move of an OBF line, trimmed: the squares (no
/// whitespace), spaces, the side (one character), then this.
fn obf_tail(line: &str) -> &str {
    let line = line.trim_start();
    let after_squares = line.find(char::is_whitespace).map_or("", |i| &line[i..]);
    let side = after_squares.trim_start();
    let mut chars = side.chars();
    chars.next();
    chars.as_str().trim()
}

/// The plies of the estimate printed when an exact solve is interrupted.
const INTERRUPTED_DEPTH: u32 = 8;

/// Arguments of `wthor solve`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["position", "file", "game"])))]
pub(crate) struct Args {
    /// An OBF position, e.g. "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X".
    #[arg(value_name = "OBF", allow_hyphen_values = true)]
    position: Option<String>,
    /// Solve every position of an OBF file (one per line, blank lines skipped).
    #[arg(long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Solve a game at `--empties` or `--move`: FILE INDEX (INDEX from 0),
    /// or one game identity (`2001:5`, looked up in `--db` or WTHOR_DIR;
    /// `PATH:INDEX` without a database).
    #[arg(long, num_args = 1..=2, value_names = ["GAME|FILE", "INDEX"])]
    game: Option<Vec<String>>,
    /// The database of a `--game` identity (repeatable; default WTHOR_DIR).
    #[arg(long = "db", value_name = "DIR", requires = "game")]
    db: Vec<PathBuf>,
    /// With --game: the first position with this many empty squares.
    #[arg(
        long,
        value_name = "N",
        requires = "game",
        conflicts_with = "move_number"
    )]
    empties: Option<u32>,
    /// With --game: the position after the first N recorded moves.
    #[arg(long = "move", value_name = "N", requires = "game")]
    move_number: Option<usize>,
    /// Print one JSON object per position.
    #[arg(long)]
    json: bool,
    /// Search threads (1 to 256; default: all cores). With several, the
    /// helper threads share the search's table (Lazy SMP): a fixed-depth
    /// search (--depth, or an estimate past 30 empties, selective) can give
    /// values a little different from run to run; `--threads 1` repeats
    /// exactly. Exact scores do not depend on it.
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
    /// Only win, draw or loss, and a move reaching it (faster than the
    /// exact score). An exact solve: at most 30 empty squares, unless
    /// --exact.
    #[arg(long)]
    wld: bool,
    /// Solve exactly even with more than 30 empty squares (which can take
    /// hours) instead of printing an estimate.
    #[arg(long)]
    exact: bool,
    /// Judge with the midgame search to this many plies (1 to 60; a depth
    /// reaching the empties is exact).
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=60), conflicts_with_all = ["wld", "exact"])]
    depth: Option<u32>,
    /// Judge with the midgame search within this many nodes (at least 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["wld", "exact"])]
    nodes: Option<u64>,
    /// Judge with the midgame search within this many milliseconds (at
    /// least 1; the answer then depends on the machine).
    #[arg(long = "time", value_name = "MS", value_parser = clap::value_parser!(u64).range(1..), conflicts_with_all = ["wld", "exact"])]
    time_ms: Option<u64>,
    /// The value of every legal move too (exact, or estimated and marked).
    /// An estimated move's value comes from its own selective search, so
    /// the best of them can differ from the plain search's value by a few
    /// discs (on 60 positions of 40 empties at depth 10: 1.2 discs on
    /// average, 6.6% of moves more than 4 apart); exact values agree.
    #[arg(long, conflicts_with = "wld")]
    all_moves: bool,
    /// Transposition table of 2^BITS entries (32 bytes each: two 24-byte
    /// entries share a 64-byte bucket); BITS from 4 to 32, within the
    /// machine's memory [default: by the positions' empty squares, 16 up
    /// to 14 empties, one more for each empty square above, at most 22]
    #[arg(long, value_name = "BITS", value_parser = crate::limits::parse_tt_bits)]
    tt_bits: Option<u32>,
}

/// One solved position, as printed with `--json`.
#[derive(Debug, Serialize)]
struct Report {
    obf: String,
    side: &'static str,
    empties: u32,
    /// Exact disc difference for the side to move (absent with `--wld`).
    score: Option<i32>,
    /// `win`, `draw` or `loss` (with `--wld`).
    #[serde(skip_serializing_if = "Option::is_none")]
    wld: Option<&'static str>,
    /// A best move (with `--wld`, a move reaching the result; none for a
    /// loss); `None` also when the side must pass or the game is over.
    best_move: Option<String>,
    /// The side to move has no move and must pass.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pass: bool,
    /// Neither side can move: the score is the final one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    game_over: bool,
    nodes: u64,
    seconds: f64,
    /// The score is an estimate of the midgame search, not an exact solve.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    estimate: bool,
    /// The search's value in discs (`score` is it rounded), for estimates.
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<f32>,
    /// The plies the midgame search reached, when it judged the position.
    #[serde(skip_serializing_if = "Option::is_none")]
    search_depth: Option<u32>,
    /// With `--all-moves`: every legal move, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    moves: Option<Vec<MoveReport>>,
    /// A signal stopped the search: the answer is the best found so far.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    interrupted: bool,
}

/// One legal move's value (`--all-moves`).
#[derive(Debug, Serialize)]
struct MoveReport {
    #[serde(rename = "move")]
    square: String,
    /// Its value for the side to move, in discs.
    value: f32,
    exact: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let positions = positions(args)?;
    let most_empties = positions.iter().map(|b| b.empty_count()).max().unwrap_or(0);
    let mut solver = Solver::new(SolverOptions {
        threads: threads(args),
        tt_bits: args
            .tt_bits
            .unwrap_or_else(|| SolverOptions::table_bits_for(most_empties, 22)),
    });
    let mut engine = None;
    let _armed = crate::interrupt::arm_saying(
        "stopping: the best found so far follows (press Ctrl-C again to quit at once)",
    );
    for board in positions {
        let report = solve(&mut solver, &mut engine, &board, args)?;
        let interrupted = report.interrupted;
        if args.json {
            serde_json::to_writer(&mut *out, &report)?;
            writeln!(out)?;
        } else {
            writeln!(out, "{}", as_players_read(&report))?;
            if let Some(moves) = &report.moves {
                if moves.is_empty() {
                    let why = if report.game_over {
                        "game over"
                    } else {
                        "pass"
                    };
                    writeln!(out, "  moves: none ({why})")?;
                    continue;
                }
                let all: Vec<String> = moves
                    .iter()
                    .map(|m| {
                        if m.exact {
                            format!("{} {:+}", m.square, m.value.round() as i32)
                        } else {
                            format!("{} ~{:+.1}", m.square, m.value)
                        }
                    })
                    .collect();
                writeln!(out, "  moves: {}", all.join(", "))?;
            }
        }
        out.flush()?;
        if interrupted {
            return Ok(ExitCode::from(crate::interrupt::INTERRUPTED));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// A result as players read it: who is to move, the score (or win, draw,
/// loss), the move and the empty squares — `black to move: +18 (g8), 14
/// empties`; an estimate is marked `~` and says so.
fn as_players_read(report: &Report) -> String {
    let side = report.side;
    let n = count(report.empties, "empty", "empties");
    let mv = match &report.best_move {
        Some(m) => m.as_str(),
        None if report.game_over => "game over",
        None if report.pass => "pass",
        None if report.wld == Some("loss") => "every move loses",
        None => "no move",
    };
    let line = match (report.wld, report.score) {
        (Some(wld), _) => format!("{side} to move: {wld} ({mv}), {n}"),
        (None, None) => format!("{side} to move: no answer, {n}"),
        (None, Some(_)) if report.estimate => {
            format!(
                "{side} to move: ~{:+.1} ({mv}), an estimate at {n}, depth {}",
                report.value.unwrap_or_default(),
                report.search_depth.unwrap_or_default()
            )
        }
        (None, Some(score)) => format!("{side} to move: {score:+} ({mv}), {n}"),
    };
    if report.interrupted {
        format!("{line} (interrupted: the best found so far)")
    } else {
        line
    }
}

fn solve(
    solver: &mut Solver,
    engine: &mut Option<Engine>,
    board: &Board8,
    args: &Args,
) -> anyhow::Result<Report> {
    let (p, o) = (board.player(), board.opponent());
    let before = solver.nodes();
    let t = Instant::now();
    let limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        time: args.time_ms.map(std::time::Duration::from_millis),
    };
    let search =
        limits != Limits::default() || (!args.exact && board.empty_count() > EXACT_MAX_EMPTIES);
    let name = |x: u8| Square::new_unchecked(x).name(Size::Eight).to_string();
    let mut report = Report {
        obf: board.to_obf(),
        side: match board.side_to_move() {
            Color::Black => "black",
            Color::White => "white",
        },
        empties: board.empty_count(),
        score: None,
        wld: None,
        best_move: None,
        pass: board.must_pass(),
        game_over: board.is_game_over(),
        nodes: 0,
        seconds: 0.0,
        estimate: false,
        value: None,
        search_depth: None,
        moves: None,
        interrupted: false,
    };
    let stop = crate::interrupt::flag();
    if search {
        let limits = if limits == Limits::default() {
            Limits::depth(midgame::DEFAULT_DEPTH)
        } else {
            limits
        };
        let mut query = Query::from(limits).stop(crate::interrupt::shared_flag());
        if args.all_moves {
            query = query.all_moves();
        }
        let a = engine_of(engine, args)?.analyze(p, o, query)?;
        report.interrupted = stop.load(std::sync::atomic::Ordering::SeqCst);
        report.score = Some(a.value.round() as i32);
        report.estimate = !a.exact;
        report.value = (!a.exact).then_some(a.value);
        report.search_depth = Some(a.depth);
        report.best_move = a.best_move.map(name);
        report.nodes = a.nodes;
        if args.all_moves {
            report.moves = Some(
                a.moves
                    .iter()
                    .map(|m| MoveReport {
                        square: name(m.square),
                        value: m.value,
                        exact: m.exact,
                    })
                    .collect(),
            );
        }
    } else if args.wld {
        // (Not stopped by a signal: the first ends the process.) A search
        // in the window (-1, 1): above -1 (a draw or a win) it names a
        // move reaching it; a loss names none, every move losing.
        let (score, best) = solver.solve_window_move(p, o, -1, 1);
        report.wld = Some(match score.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        });
        report.best_move = best.map(name);
        report.nodes = solver.nodes() - before;
    } else {
        let Some(s) = solver.solve_until(p, o, stop) else {
            // Stopped: a quick estimate instead.
            let a = engine_of(engine, args)?.analyze(p, o, Limits::depth(INTERRUPTED_DEPTH))?;
            report.score = Some(a.value.round() as i32);
            report.estimate = !a.exact;
            report.value = (!a.exact).then_some(a.value);
            report.search_depth = Some(a.depth);
            report.best_move = a.best_move.map(name);
            report.nodes = solver.nodes() - before + a.nodes;
            report.interrupted = true;
            report.seconds = t.elapsed().as_secs_f64();
            return Ok(report);
        };
        report.score = Some(s.score);
        report.best_move = s.best_move.map(name);
        if args.all_moves {
            let mut moves: Vec<MoveReport> = solver
                .move_scores(p, o)
                .into_iter()
                .map(|(sq, v)| MoveReport {
                    square: name(sq),
                    value: v as f32,
                    exact: true,
                })
                .collect();
            moves.sort_by(|a, b| b.value.total_cmp(&a.value));
            report.moves = Some(moves);
        }
        report.nodes = solver.nodes() - before;
    }
    report.seconds = t.elapsed().as_secs_f64();
    Ok(report)
}

/// The search threads asked for (`--threads`, else all cores).
fn threads(args: &Args) -> usize {
    args.threads
        .unwrap_or_else(|| SolverOptions::default().threads)
        .max(1)
}

/// The midgame engine, made on first use on [`threads`].
fn engine_of<'a>(engine: &'a mut Option<Engine>, args: &Args) -> anyhow::Result<&'a mut Engine> {
    Ok(match engine {
        Some(e) => e,
        None => engine.insert(Engine::new(EngineOptions::default())?.with_threads(threads(args))?),
    })
}

/// The positions asked for, all parsed before any is solved (so that a bad
/// line fails at once), each checked against the options
/// ([`check_options`]).
fn positions(args: &Args) -> anyhow::Result<Vec<Board8>> {
    if let Some(text) = &args.position {
        let board = board8(text.trim())
            .and_then(|b| check_options(b, args))
            .context("the position argument")?;
        return Ok(vec![board]);
    }
    if let Some(path) = &args.file {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("{}: cannot read", path.display()))?;
        let mut boards = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('%') {
                continue;
            }
            let board = board8(line)
                .and_then(|b| check_options(b, args))
                .with_context(|| format!("{}: line {}", path.display(), i + 1))?;
            boards.push(board);
        }
        return Ok(boards);
    }
    let game = args.game.as_deref().unwrap_or_default();
    let (label, moves) = match game {
        [file, index] => file_game(file, index)?,
        [id] => db_game(args, id)?,
        _ => bail!("--game takes a file and a game index, or a game"),
    };
    let moves = moves.as_slice();
    let at = |what: String| format!("{label}: {what}");
    let board = match (args.empties, args.move_number) {
        (Some(n), _) => match replay_to_empties::<Board8>(moves, n) {
            Reach::At { board, .. } => board,
            Reach::Ended { moves, empties, .. } => bail!(at(format!(
                "the game ends after {} with {}, before {}",
                count(moves, "move", "moves"),
                count(empties, "empty", "empties"),
                count(n, "empty", "empties")
            ))),
            Reach::Illegal { index: bad } => bail!(at(format!(
                "move {} is illegal, before {}",
                bad + 1,
                count(n, "empty", "empties")
            ))),
        },
        (None, Some(n)) => match replay_moves_prefix::<Board8>(moves, n) {
            Some(board) => board,
            None => bail!(at(no_prefix(moves, n))),
        },
        (None, None) => bail!("--game needs --empties N or --move N"),
    };
    Ok(vec![
        check_options(board, args).with_context(|| label.clone())?,
    ])
}

/// `board`, when the options can be answered on it: `--wld` needs an exact
/// solve, refused past [`EXACT_MAX_EMPTIES`] without `--exact` (rather
/// than an estimate that is no win, draw or loss).
fn check_options(board: Board8, args: &Args) -> anyhow::Result<Board8> {
    let empties = board.empty_count();
    if args.wld && !args.exact && empties > EXACT_MAX_EMPTIES {
        bail!(
            "--wld needs an exact solve: the position has {}, more than the \
             {EXACT_MAX_EMPTIES} solved exactly (give --exact too to solve it all the same, \
             which can take hours)",
            count(empties, "empty square", "empty squares")
        );
    }
    Ok(board)
}

/// Why the first `n` recorded moves of `moves` give no position: one of
/// them is illegal, or the record holds fewer.
fn no_prefix(moves: &[u8], n: usize) -> String {
    let recorded = wthor_tokens::<Board8>(moves).count();
    let before = &moves[..n.min(moves.len())];
    match replay_wthor::<Board8>(before).illegal {
        Some(bad) => format!("move {} is illegal, before move {n}", bad.index + 1),
        None => format!(
            "the game has {}: no position after move {n} (--move takes 0 to {recorded})",
            count(recorded, "move", "moves")
        ),
    }
}

/// Game `index` of the file `file`: its label (`FILE game INDEX`) and move
/// bytes.
fn file_game(file: &str, index: &str) -> anyhow::Result<(String, Vec<u8>)> {
    let path = PathBuf::from(file);
    let index: usize = index
        .parse()
        .with_context(|| format!("--game: bad game index {index:?} (a number from 0)"))?;
    let bytes = super::info::read_regular(&path)?;
    let parsed = parse_any(
        &bytes,
        wthor_format::FileKind::from_path(&path),
        &ReadOptions::default(),
    )
    .with_context(|| format!("{}: cannot parse", path.display()))?;
    let WthorFile::Games(games) = parsed else {
        bail!("{}: not a game file", path.display());
    };
    if games.board_size() == BoardSize::Ten {
        bail!("{}: {NO_TEN}", path.display());
    }
    let Some(view) = games.get(index) else {
        bail!(
            "{}: no game {index} (the file holds {}, numbered from 0)",
            path.display(),
            count(games.len(), "game", "games")
        );
    };
    Ok((
        format!("{} game {index}", path.display()),
        view.moves_raw().to_vec(),
    ))
}

/// A game named by its identity: in the database of `--db` or WTHOR_DIR,
/// else `PATH:INDEX` of a file.
fn db_game(args: &Args, id: &str) -> anyhow::Result<(String, Vec<u8>)> {
    let db_args = crate::db_args::DbArgs {
        db: args.db.clone(),
        players: None,
        tournaments: None,
        strict: false,
    };
    if db_args.sources().is_empty() {
        // `PATH:INDEX` of a file; else a game identity (`2001:3`) that
        // needs a database.
        let Some((file, index)) = id
            .rsplit_once(':')
            .filter(|(file, _)| std::path::Path::new(file).is_file())
        else {
            return Err(anyhow::anyhow!(
                "--game {id:?}: a game identity needs a database to look it up in (give --db \
                 DIR or set WTHOR_DIR), and it is not PATH:INDEX of a file"
            ));
        };
        return file_game(file, index);
    }
    let db = db_args.open()?;
    let game_id = db.parse_game_id(id).map_err(anyhow::Error::new)?;
    let view = db.game(game_id).expect("a game of the database");
    if view.board_size() == BoardSize::Ten {
        bail!("{}: {NO_TEN}", db.game_name(game_id));
    }
    Ok((db.game_name(game_id).to_string(), view.moves_raw().to_vec()))
}
