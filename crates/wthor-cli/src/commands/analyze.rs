//! `wthor analyze GAME [--empties N] [--format table|jsonl]`: every move of
//! an 8x8 game judged ([`wthor_db::analysis`]): exactly from N empty
//! squares (20 by default) to the end, estimated before by the midgame
//! search at `--estimate-depth` plies (18 by default: repeatable), or
//! for `--time MS` a search (not repeatable).
//!
//! The table has a row per move: its number and side, the square, the
//! empties before it, the value of the position for black before the move
//! (an estimate marked `~` with its depth: `~+3 (d18)`), the discs the
//! move lost for its player, the
//! best moves when it lost some, and a bar of black's value (the game's
//! graph, from -64 on the left to +64 on the right); then the stored
//! theoretical score checked (when the analysis reaches its depth) and the
//! mistakes, largest first. `--format jsonl` writes the whole analysis as
//! one JSON object, the library's [`Report`] (camelCase: `game`,
//! `exactFrom`, `blackLine`, `moves`, `ending`, `finalBlack`, `finalDepth`,
//! `estimate`, `theoretical`), the same as the server's game page gets:
//! each estimated move `"exact": false` with its `"depth"`, the search in
//! `"estimate"`. The solver is the one every front end analyses one game
//! with ([`AnalysisOptions::one_game_solver`]). Exit 1 when the stored
//! theoretical score is wrong or the game has an illegal move.
//!
//! Without GAME, a batch: every game of `--db` the search filters select
//! (8x8 only), analysed on the library's batch loop of `validate --solve`
//! ([`wthor_db::verify::Run`], observed by [`crate::verify::Bar`]):
//! `--results F.jsonl` logs one [`GameAnalysis`] per game (the moves judged
//! exactly, and the search that estimated the others) and a re-run
//! resumes (saying how many logged games another search estimated:
//! their logged moves, exact, are the same; refused when the logged games
//! were judged exactly from another `--empties`); `--sample`, `--shard K/N`, `--threads`
//! as there. It prints a summary; `wthor stats --accuracy --results F`
//! reads the logs. Exit 1 with `--strict` on a finding (a wrong stored
//! theoretical score, an illegal game), 130 when interrupted.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::solver::SolverOptions;
use wthor_db::GameId;
use wthor_db::analysis::{
    Analysis, AnalysisError, AnalysisOptions, Analyzer, DEFAULT_ESTIMATE_DEPTH, Ending,
    GameAnalysis, Judged, Report,
};
use wthor_db::cache::SolveCache;
use wthor_db::index::IndexChoice;
use wthor_db::verify::{Job, RecordKey, Run, RunOptions, Shard, TheoryStatus, Workers};

use crate::db_args::DbArgs;
use crate::game::open_game;
use crate::query_args::QueryArgs;
use crate::textfmt::count;
use crate::verify::{Bar, check, say_interrupted};

/// Arguments of `wthor analyze`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  wthor analyze testdata/WTH_2001.wtb 3
  wthor analyze 2001:3 --db testdata --estimate-depth 10
  wthor analyze 2001:3 --db testdata --time 5
  wthor analyze testdata/WTH_2002.wtb 4 --format jsonl
  wthor analyze 2003:7 --db testdata --empties 18 --estimate-depth 12 --svg graph.svg --png graph.png
  wthor analyze --db testdata --year 2001 --empties 14 --estimate-depth 8 --results analysed.jsonl

Estimates (the moves before --empties) are the midgame search's at 18 plies by
default, marked ~ with their depth in every output (the table's ~+3 (d18), JSON's
exact: false with the depth). A results log keeps only the exactly judged moves,
and names the search that estimated the others (its estimate field); lines of
older logs lack it (the old evaluation search's estimates) and are read as before.
A log resumes only with the --empties it was made with (another is refused).

Exit status: 0 ok, 1 the stored theoretical score is wrong or a move is illegal
(a batch: only with --strict), 2 usage or I/O error (a 10x10 game: there is no
10x10 endgame solver), 130 a batch interrupted (the results file keeps what
was done: the same command resumes).")]
pub(crate) struct Args {
    /// A game (`2001:5`, `FILE:INDEX`), or a WTHOR game file followed by
    /// INDEX. Leave out for a batch over the games of --db that the
    /// filters select.
    game: Option<String>,
    /// The 0-based record index of the game in FILE.
    index: Option<usize>,
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    /// Solve exactly from this many empty squares to the end (each more
    /// doubles the time: about 0.1 s a game at 20, seconds at 24).
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=30))]
    empties: u8,
    /// Plies of the midgame search that estimates the earlier moves, from 2
    /// to 20 (the time about doubles every 2 plies: about 1 s a game at 16,
    /// 3 to 4 s at 20). Repeatable: the same values on any machine.
    #[arg(long, default_value_t = DEFAULT_ESTIMATE_DEPTH, value_name = "N", value_parser = clap::value_parser!(u32).range(2..=20))]
    estimate_depth: u32,
    /// Instead of a depth, give each estimate search MS milliseconds (up to
    /// two searches per estimated move): deeper where time allows, but the
    /// values are not repeatable (they depend on the machine and its load).
    #[arg(long, value_name = "MS", conflicts_with = "estimate_depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    time: Option<u64>,
    /// Output: a table with a graph, or one JSON object.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// Solver threads for one game; games analysed in parallel in a
    /// batch (1 to 256; default: the cores available).
    #[arg(long, value_name = "N", value_parser = crate::limits::parse_threads)]
    threads: Option<usize>,
    /// Draw the graph of the values to FILE as SVG (one game).
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
    /// Draw the graph of the values to FILE as PNG (one game).
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Pixels per SVG unit of the PNG (1: 720 pixels wide).
    #[arg(long, default_value_t = 1.0, value_parser = crate::commands::show::parse_scale)]
    scale: f32,
    /// Batch: append one JSON object per analysed game to FILE (JSON
    /// Lines); games already in FILE are skipped (resume).
    #[arg(long, value_name = "FILE.jsonl")]
    results: Option<PathBuf>,
    /// Batch: a deterministic random sample of N of the selected games.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// Seed of --sample.
    #[arg(long, value_name = "S", default_value_t = 1, requires = "sample")]
    seed: u64,
    /// Batch: only shard K of N (the i-th selected game, from 0, after
    /// --sample, goes to shard i mod N + 1).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
}

/// The output of `wthor analyze`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Moves, values, losses and a graph; then the theoretical score and
    /// the mistakes.
    Table,
    /// One JSON object (camelCase keys): the game, where the exact part
    /// starts and the analysis, as the server's `?analysis=1` gives it.
    Jsonl,
}

impl Args {
    /// The analysis options of the arguments.
    fn options(&self) -> AnalysisOptions {
        AnalysisOptions {
            empties: self.empties,
            estimate_depth: self.estimate_depth,
            estimate_time: self.time.map(std::time::Duration::from_millis),
        }
    }
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let Some(game) = &args.game else {
        let pictures = [(args.svg.is_some(), "--svg"), (args.png.is_some(), "--png")];
        if let Some((_, flag)) = pictures.iter().find(|(given, _)| *given) {
            anyhow::bail!("{flag} draws the graph of one game: give GAME");
        }
        return run_batch(args, out);
    };
    let batch_only = [
        (args.results.is_some(), "--results"),
        (args.sample.is_some(), "--sample"),
        (args.shard.is_some(), "--shard"),
    ];
    if let Some((_, flag)) = batch_only.iter().find(|(given, _)| *given) {
        anyhow::bail!("{flag} is for a batch: leave out GAME");
    }
    crate::commands::show::check_picture_paths(&[args.svg.as_deref(), args.png.as_deref()])?;
    let (db, id) = open_game(game, args.index, &args.db)?;
    let name = db.game_name(id).to_string();
    let game = db.game(id).expect("a game of the database");
    let depth = db.file_of(id).expect("its file").header().depth();
    let options = args.options();
    let mut analyzer =
        Analyzer::for_one_game(&options, args.threads).context("cannot make the searches")?;
    let analysis = match wthor_db::analysis::analyze_game(&game, depth, &options, &mut analyzer) {
        Ok(a) => a,
        Err(e @ AnalysisError::Illegal(_)) => {
            match args.format {
                // One JSON object still, as a batch's log line says it:
                // the game and why it was not analysed.
                Format::Jsonl => {
                    let failed = NotAnalysed {
                        game: &name,
                        error: e.to_string(),
                    };
                    serde_json::to_writer(&mut *out, &failed)?;
                    writeln!(out)?;
                }
                Format::Table => writeln!(out, "{name}: {e}: not analysed")?,
            }
            return Ok(ExitCode::FAILURE);
        }
        Err(e) => return Err(anyhow::Error::new(e).context(name)),
    };
    match args.format {
        Format::Jsonl => {
            let report = Report::new(name.as_str(), &options, analysis.clone());
            serde_json::to_writer(&mut *out, &report)?;
            writeln!(out)?;
        }
        Format::Table => write_table(&name, &analysis, &options, out)?,
    }
    if args.svg.is_some() || args.png.is_some() {
        let player = |n: wthor_db::NameRef<'_>| n.to_string();
        let title = format!(
            "{name}: {} - {}, exact from {}",
            player(db.black(id)),
            player(db.white(id)),
            count(args.empties, "empty", "empties")
        );
        let svg = wthor_draw::graph_svg(&graph(&analysis, title));
        crate::commands::show::write_pictures(
            &svg,
            args.svg.as_deref(),
            args.png.as_deref(),
            args.scale,
            out,
        )?;
    }
    let wrong = analysis
        .theoretical
        .as_ref()
        .is_some_and(|t| matches!(t.status, TheoryStatus::Mismatch | TheoryStatus::Impossible));
    Ok(if wrong {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The JSON object of a game that could not be analysed (an illegal
/// move): its identity and why, the `error` of a batch's log line.
#[derive(serde::Serialize)]
struct NotAnalysed<'a> {
    game: &'a str,
    error: String,
}

/// The graph of an analysis: black's value before each move and at the
/// end (estimates with their depth); moves that lost 4 discs or more
/// dotted, the 3 largest labelled.
fn graph(a: &Analysis, title: String) -> wthor_draw::Graph {
    wthor_draw::Graph {
        points: a
            .moves
            .iter()
            .map(|m| wthor_draw::Point {
                value: m.black_value(),
                exact: m.exact,
                depth: m.depth,
                loss: m.loss,
            })
            .chain(std::iter::once(wthor_draw::Point {
                value: a.final_black,
                exact: a.final_depth.is_none(),
                depth: a.final_depth,
                loss: 0,
            }))
            .collect(),
        title: Some(title),
        mistake_from: 4,
        labels: 3,
    }
}

/// A signed value; an estimate marked `~` with its depth: `~+3 (d18)`.
fn value(v: i32, exact: bool, depth: Option<u32>) -> String {
    match (exact, depth) {
        (true, _) => format!("{v:+}"),
        (false, Some(d)) => format!("~{v:+} (d{d})"),
        (false, None) => format!("~{v:+}"),
    }
}

/// Black's value as a bar: `|` at 0, `#` towards black (right) or white
/// (left), 16 characters a side for 64 discs.
fn bar(v: i32) -> String {
    const SIDE: i32 = 16;
    let n = ((v.abs() * SIDE + 32) / 64).min(SIDE) as usize;
    let side = SIDE as usize;
    if v < 0 {
        format!(
            "{}{}|{}",
            " ".repeat(side - n),
            "#".repeat(n),
            " ".repeat(side)
        )
    } else {
        format!(
            "{}|{}{}",
            " ".repeat(side),
            "#".repeat(n),
            " ".repeat(side - n)
        )
    }
}

fn best(j: &Judged) -> String {
    j.best
        .iter()
        .map(|sq| sq.name(othello_core::Size::Eight).to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn write_table(
    name: &str,
    a: &Analysis,
    options: &AnalysisOptions,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    writeln!(
        out,
        "game {name}: exact from {}, estimated before ({}; marked ~ with the depth searched)",
        count(options.empties, "empty", "empties"),
        a.estimate
    )?;
    writeln!(
        out,
        "{:>4}  {:<5}  {:<4}  {:>4}  {:>10}  {:>4}  {:<12}  BLACK'S VALUE (-64 … +64)",
        "MOVE", "SIDE", "SQ", "EMPT", "BLACK", "LOSS", "BEST"
    )?;
    for j in &a.moves {
        let lost = if j.loss > 0 { best(j) } else { String::new() };
        let row = format!(
            "{:>4}  {:<5}  {:<4}  {:>4}  {:>10}  {:>4}  {:<12}  {}",
            j.index + 1,
            j.color.to_string(),
            j.square.name(othello_core::Size::Eight).to_string(),
            j.empties,
            value(j.black_value(), j.exact, j.depth),
            j.loss,
            lost,
            bar(j.black_value()),
        );
        writeln!(out, "{}", row.trim_end())?;
    }
    let end = match a.ending {
        Ending::Finished => "game over",
        Ending::Unfinished => "the record stops while moves remain",
    };
    writeln!(
        out,
        "end: {end}, black {}",
        value(a.final_black, a.final_depth.is_none(), a.final_depth)
    )?;
    if let Some(t) = &a.theoretical {
        match t.solved {
            Some(solved) => writeln!(
                out,
                "theoretical score at {}: stored black {}, solved black {}: {}",
                count(t.depth, "empty", "empties"),
                t.stored,
                solved,
                t.status.as_str()
            )?,
            None => writeln!(
                out,
                "theoretical score at {}: stored black {}: {}",
                count(t.depth, "empty", "empties"),
                t.stored,
                t.status.as_str()
            )?,
        }
    }
    let mistakes = a.mistakes();
    if mistakes.is_empty() {
        writeln!(out, "mistakes: none")?;
    } else {
        writeln!(out, "mistakes (largest first):")?;
        for j in mistakes {
            writeln!(
                out,
                "  move {} ({} {}): {} lost{}, best {}",
                j.index + 1,
                j.color,
                j.square.name(othello_core::Size::Eight),
                count(j.loss, "disc", "discs"),
                match (j.exact, j.depth) {
                    (true, _) => String::new(),
                    (false, Some(d)) => format!(" (estimate, d{d})"),
                    (false, None) => " (estimate)".to_owned(),
                },
                best(j)
            )?;
        }
    }
    Ok(())
}

/// The batch: the games of `--db` the filters select, analysed on worker
/// threads (each with a one-thread solver), logged, summarised.
fn run_batch(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    if args.format != Format::Table {
        anyhow::bail!("--format is for one game: a batch writes --results FILE.jsonl");
    }
    if args.db.sources().is_empty() {
        anyhow::bail!("give GAME, or --db DIR (or WTHOR_DIR) for a batch over its games");
    }
    let db = args.db.open()?;
    let query = args.query.build()?;
    // 8x8 games only: there is no 10x10 endgame solver.
    let found = db.searcher(IndexChoice::Never).search(&query)?;
    let ids = found.value.into_iter().filter(|&id| {
        db.game(id)
            .is_some_and(|g| g.board_size() == wthor_format::BoardSize::Eight)
    });
    // The candidates per file, in database order.
    let mut candidates: Vec<Vec<(usize, GameId)>> = vec![Vec::new(); db.files().len()];
    for id in ids {
        candidates[id.file()].push((id.index(), id));
    }
    let key = |_: usize, _: usize, id: GameId| {
        RecordKey::of_game(&db, id).expect("a game of the database")
    };
    let is_finding = GameAnalysis::is_finding;
    let bar = Bar::new("games", "findings", &is_finding);
    let run = Run::prepare(
        &candidates,
        key,
        RunOptions {
            sample: args.sample.map(|n| (n, args.seed)),
            shard: args.shard,
            results: args.results.as_deref(),
            ..RunOptions::new(crate::interrupt::flag())
        },
        &bar,
    )?;
    let previous: Vec<&GameAnalysis> = run.logged().iter().map(|(_, g)| g).collect();
    let options = args.options();
    refuse_other_empties(&previous, args)?;
    note_other_estimates(&previous, &options);
    let workers = Workers::new(args.threads, options.table_bits());
    let work = |job: &Job<GameId>, analyzer: &mut Analyzer, _: Option<&SolveCache>| {
        let id = job.record;
        let game = db.game(id).expect("a game of the database");
        let depth = db.file_of(id).expect("its file").header().depth();
        let analysis = wthor_db::analysis::analyze_game(&game, depth, &options, analyzer);
        GameAnalysis::new(&db, id, &options, &analysis)
    };
    let line = |job: &Job<GameId>, g: &GameAnalysis| {
        let mut value = serde_json::to_value(&job.key)?;
        if let (Some(line), serde_json::Value::Object(fields)) =
            (value.as_object_mut(), serde_json::to_value(g)?)
        {
            line.extend(fields);
        }
        Ok(value)
    };
    let analyzers = analyzers(workers, run.todo().len())?;
    let checked = check(run, analyzers, work, line, &bar)?;
    let analysed_now = checked.done.len();
    let mut games: Vec<GameAnalysis> = checked.done.into_iter().map(|(_, g)| g).collect();
    games.extend(checked.logged.into_iter().map(|(_, g)| g));
    let findings = write_summary(&games, analysed_now, args.empties, out)?;
    if checked.stopped {
        say_interrupted(
            analysed_now,
            "games",
            &[args.results.as_deref()],
            "--results FILE keeps them",
        );
        return Ok(ExitCode::from(crate::interrupt::INTERRUPTED));
    }
    // `--strict` (of the database flags) also makes a finding an error.
    Ok(if args.db.strict && findings > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The searches of a batch's workers: one analyzer per worker (no more
/// than the games), each with a one-thread solver of `workers.tt_bits`.
///
/// # Errors
/// The solver tables not fitting in this machine's memory (refused before
/// any is made), or memory that cannot be had.
fn analyzers(workers: Workers, games: usize) -> anyhow::Result<Vec<Analyzer>> {
    crate::limits::fits(workers.tt_bits, workers.workers).map_err(anyhow::Error::msg)?;
    (0..workers.count(games))
        .map(|_| {
            Analyzer::new(SolverOptions {
                threads: 1,
                tt_bits: workers.tt_bits,
            })
            .context("cannot make the searches")
        })
        .collect()
}

/// The searches that estimated `games`, each with its count of games, in
/// words: `midgame search, depth 16 (40 games), old evaluation search (4
/// games)`; the most frequent first.
fn estimators(games: &[&GameAnalysis]) -> String {
    let mut by: Vec<(String, usize)> = Vec::new();
    for g in games {
        let name = g.estimated_by();
        match by.iter_mut().find(|(n, _)| *n == name) {
            Some((_, k)) => *k += 1,
            None => by.push((name, 1)),
        }
    }
    by.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    by.iter()
        .map(|(name, k)| format!("{name} ({})", count(*k, "game", "games")))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Refuses to resume a results file whose games (those this run selects)
/// were judged exactly from another number of empties than `--empties`:
/// their logged moves are another set (a log made at 14 empties holds no
/// move of 15 or 16), so a summary "from 16 empties" would be wrong, and
/// re-analysing them would log the same games twice. Unlike another
/// estimate search (noted, kept: the logged moves are the same), this is
/// an error, before any work.
///
/// # Errors
/// The empties of the log and the way to resume it.
fn refuse_other_empties(previous: &[&GameAnalysis], args: &Args) -> anyhow::Result<()> {
    // The games of each other number of empties, fewest empties first.
    let mut other = std::collections::BTreeMap::<u8, usize>::new();
    for g in previous.iter().filter(|g| g.empties != args.empties) {
        *other.entry(g.empties).or_default() += 1;
    }
    if other.is_empty() {
        return Ok(());
    }
    let held: Vec<String> = other
        .iter()
        .map(|(&e, &k)| {
            format!(
                "{} from {}",
                count(k, "game", "games"),
                count(e, "empty", "empties")
            )
        })
        .collect();
    let results = args
        .results
        .as_deref()
        .map_or_else(String::new, |p| format!("{}: ", p.display()));
    let resume = match other.keys().collect::<Vec<_>>()[..] {
        [e] => format!("resume it with --empties {e}, or "),
        _ => String::new(),
    };
    anyhow::bail!(
        "{results}the results file holds games analysed exactly from another number of empties \
         than this run's --empties {}: {}; {resume}give another --results file",
        args.empties,
        held.join(", ")
    )
}

/// Says on stderr when games of the results file were estimated by
/// another search than this run's (an old log's evaluation search, another
/// depth): resumed, the log mixes them. Their logged moves are the exact
/// ones, which no estimate changes, so they are kept.
fn note_other_estimates(previous: &[&GameAnalysis], options: &AnalysisOptions) {
    let now = options.estimator();
    let other: Vec<&GameAnalysis> = previous
        .iter()
        .copied()
        .filter(|g| g.estimate != Some(now))
        .collect();
    if !other.is_empty() {
        eprintln!(
            "wthor: note: the results file holds games estimated by another search than this \
             run's {now}: {}; kept (the log holds their exact moves only, which no estimate \
             changes)",
            estimators(&other)
        );
    }
}

/// The batch's summary; returns the number of findings.
fn write_summary(
    games: &[GameAnalysis],
    analysed_now: usize,
    empties: u8,
    out: &mut dyn Write,
) -> anyhow::Result<usize> {
    let mut findings = 0;
    for g in games.iter().filter(|g| g.is_finding()) {
        findings += 1;
        let what = match (&g.error, g.theoretical) {
            (Some(e), _) => e.clone(),
            (None, Some(status)) => format!("stored theoretical score: {}", status.as_str()),
            (None, None) => String::new(),
        };
        writeln!(out, "{}: {} vs {}: {what}", g.game, g.black, g.white)?;
    }
    let moves: usize = games.iter().map(|g| g.moves.len()).sum();
    let loss: i64 = games
        .iter()
        .flat_map(|g| &g.moves)
        .map(|m| i64::from(m.loss))
        .sum();
    let perfect = games
        .iter()
        .flat_map(|g| &g.moves)
        .filter(|m| m.loss == 0)
        .count();
    let checked = games.iter().filter(|g| g.theoretical.is_some()).count();
    write!(
        out,
        "{} analysed from {} ({analysed_now} now, {} from the results file): {} judged",
        count(games.len(), "game", "games"),
        count(empties, "empty", "empties"),
        games.len() - analysed_now,
        count(moves, "move", "moves"),
    )?;
    if moves > 0 {
        write!(
            out,
            ", mean loss {:.3} discs a move, {:.1}% perfect",
            loss as f64 / moves as f64,
            100.0 * perfect as f64 / moves as f64
        )?;
    }
    writeln!(
        out,
        "; theoretical scores checked: {checked}; findings: {findings}"
    )?;
    if !games.is_empty() {
        let all: Vec<&GameAnalysis> = games.iter().collect();
        writeln!(
            out,
            "estimated before the exact part (not logged) by: {}",
            estimators(&all)
        )?;
    }
    Ok(findings)
}
