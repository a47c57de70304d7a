//! `wthor report player NAME`: a preparation report on one player
//! ([`wthor_db::report`]): the lines they chose as one colour, as a tree
//! with their score and the archive's in each line, where they leave the
//! archive's most played move, their results against stronger and weaker
//! opponents (by the kept ratings), as Markdown or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::Color;
use wthor_db::ratings::Params;
use wthor_db::report::{Line, PlayerReport, Record, ReportOptions};

use crate::db_args::DbArgs;

/// Arguments of `wthor report`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::REPORT)]
pub(crate) struct Args {
    #[command(subcommand)]
    kind: Kind,
}

#[derive(Debug, clap::Subcommand)]
enum Kind {
    /// The lines a player chose as one colour, their scores and the
    /// archive's, where they leave its most played move, their results
    /// against stronger and weaker opponents.
    Player(PlayerArgs),
}

#[derive(Debug, clap::Args)]
struct PlayerArgs {
    #[command(flatten)]
    db: DbArgs,
    /// The player: a whole name, or a part that names one rated player
    /// (case- and accent-insensitive).
    name: String,
    /// The colour of the player's games.
    #[arg(long = "as", value_enum, default_value_t = Side::Black)]
    side: Side,
    /// Games of this year and later only.
    #[arg(long, value_name = "YEAR")]
    since: Option<u16>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = ReportFormat::Md)]
    format: ReportFormat,
    /// Where the whole database's ratings are kept (see `wthor ratings`).
    #[arg(long = "ratings", value_name = "FILE")]
    ratings_file: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Side {
    Black,
    White,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum ReportFormat {
    /// Markdown: a table per part, the tree as a nested list.
    Md,
    /// One JSON object.
    Json,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let Kind::Player(args) = &args.kind;
    let db = args.db.open()?;
    let kept = db
        .kept_ratings(&Params::FITTED, args.ratings_file.as_deref())
        .context("ratings")?;
    if let Some(note) = &kept.note {
        eprintln!("warning: {note}");
    }
    let ratings = kept.ratings;
    let player = crate::commands::ratings::find_player(&ratings, &args.name)?;
    let mut options = ReportOptions::new(match args.side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    });
    options.since = args.since;
    let report = db
        .player_report(&player.name, &options, Some(&ratings))
        .context("report")?;
    match args.format {
        ReportFormat::Json => {
            serde_json::to_writer(&mut *out, &report)?;
            writeln!(out)?;
        }
        ReportFormat::Md => markdown(&report, out)?,
    }
    Ok(ExitCode::SUCCESS)
}

fn color(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// `57.5% of 40` (or `no games`).
fn score(r: &Record) -> String {
    match r.score() {
        Some(s) => format!("{:.1}% of {}", 100.0 * s, r.games),
        None => "no games".to_owned(),
    }
}

/// The explorer's address of a line with the player's filter.
fn explorer(moves: &str, player: &str, side: Color) -> String {
    let name: String = player
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("/?play={moves}&{}={name}", color(side))
}

fn markdown(r: &PlayerReport, out: &mut dyn Write) -> std::io::Result<()> {
    let since = r.since.map(|y| format!(" since {y}")).unwrap_or_default();
    writeln!(out, "# {} as {}{since}", r.player, color(r.color))?;
    writeln!(out)?;
    writeln!(
        out,
        "{} games, {} scored. Lines are f5-first move sequences (each game turned so that its first \
         move is f5; no transpositions), shown when at least {:.0}% of these games follow them and \
         followed while at least {} remain; scores are the points of {} (a draw half a point).",
        r.tree.player.games,
        score(&r.tree.player),
        100.0 * r.min_share,
        r.min_games,
        color(r.color)
    )?;
    writeln!(out)?;
    if r.tree.lines.is_empty() {
        writeln!(
            out,
            "Too few games for a tree of lines: none is followed by {:.0}% of them and {} games.",
            100.0 * r.min_share,
            r.min_games
        )?;
    } else {
        writeln!(out, "## Lines")?;
        writeln!(out)?;
        for l in &r.tree.lines {
            tree(l, 0, r, out)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "## Where {} leaves the archive's main line", r.player)?;
    writeln!(out)?;
    if r.departures.is_empty() {
        writeln!(
            out,
            "Nowhere in these lines: the player's most played move is the archive's."
        )?;
    } else {
        writeln!(
            out,
            "| after | played | score | archive's move | its score |"
        )?;
        writeln!(out, "|---|---|---|---|---|")?;
        for d in &r.departures {
            writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                if d.moves.is_empty() {
                    "(start)"
                } else {
                    &d.moves
                },
                d.played,
                score(&d.record),
                d.archive_next,
                score(&d.archive_record)
            )?;
        }
    }
    writeln!(out)?;
    writeln!(out, "## Results by the opponent's rating that year")?;
    writeln!(out)?;
    writeln!(out, "| opponents | score |")?;
    writeln!(out, "|---|---|")?;
    writeln!(
        out,
        "| rated above {} | {} |",
        r.player,
        score(&r.against_stronger)
    )?;
    writeln!(out, "| rated at or below | {} |", score(&r.against_weaker))?;
    if r.against_unrated.games > 0 {
        writeln!(out, "| unrated | {} |", score(&r.against_unrated))?;
    }
    Ok(())
}

fn tree(l: &Line, depth: usize, r: &PlayerReport, out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "{}- [{}]({}): {}; archive {}",
        "  ".repeat(depth),
        l.moves,
        explorer(&l.moves, &r.player, r.color),
        score(&l.player),
        score(&l.archive)
    )?;
    for c in &l.lines {
        tree(c, depth + 1, r, out)?;
    }
    Ok(())
}
