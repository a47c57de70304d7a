//! `wthor report player NAME`: a preparation report on one player
//! ([`wthor_db::report`]): the lines they chose as one colour, as a tree
//! with their score and the archive's in each line, where they leave the
//! archive's most played move, their results against stronger and weaker
//! opponents (by the kept ratings), and with analysis logs their worst
//! endgame mistakes, as Markdown, JSON or a self-contained HTML page.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use othello_core::Color;

use wthor_db::analysis::{Blunder, read_matched, worst_moves};
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
    /// Results logs of `wthor analyze --results` (games of this database,
    /// matched by record key): the player's worst endgame mistakes.
    #[arg(long, value_name = "F.jsonl", num_args = 1..)]
    analysis: Vec<PathBuf>,
    /// HTML: the address of `wthor serve` the lines link to (its explorer
    /// at each line with the player's filter).
    #[arg(long, value_name = "URL", default_value = "http://127.0.0.1:8080")]
    server: String,
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
    /// A self-contained HTML page (no script, no outside file).
    Html,
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
    let player = ratings.find(&args.name)?;
    let mut options = ReportOptions::new(match args.side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    });
    options.since = args.since;
    let report = db
        .player_report(&player.name, &options, Some(&ratings))
        .context("report")?;
    let mistakes = if args.analysis.is_empty() {
        None
    } else {
        Some(mistakes(&db, &args.analysis, &report)?)
    };
    match args.format {
        ReportFormat::Json => {
            let mut value = serde_json::to_value(&report)?;
            if let (Some(m), Some(obj)) = (&mistakes, value.as_object_mut()) {
                obj.insert("mistakes".into(), serde_json::to_value(m)?);
            }
            serde_json::to_writer(&mut *out, &value)?;
            writeln!(out)?;
        }
        ReportFormat::Md => {
            markdown(&report, out)?;
            if let Some(m) = &mistakes {
                markdown_mistakes(m, out)?;
            }
        }
        ReportFormat::Html => html(
            &report,
            player.years.last(),
            mistakes.as_deref(),
            args.server.trim_end_matches('/'),
            out,
        )?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The worst mistakes a report lists.
const MISTAKES: usize = 10;

/// The player's costliest endgame moves with the report's colour (and
/// years) in the logs `paths`, those of this database only (matched by
/// record key; the others said on stderr).
fn mistakes(
    db: &wthor_db::Database,
    paths: &[PathBuf],
    report: &PlayerReport,
) -> anyhow::Result<Vec<Blunder>> {
    let log = read_matched(db, paths).context("--analysis")?;
    for w in &log.warnings {
        eprintln!("wthor: warning: {w}");
    }
    let games: Vec<_> = log.games.into_iter().map(|(_, g)| g).collect();
    Ok(worst_moves(
        &games,
        &report.player,
        Some(wthor_db::analysis::Side::from(report.color)),
        report.since,
        MISTAKES,
    ))
}

fn markdown_mistakes(m: &[Blunder], out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "## Worst endgame mistakes")?;
    writeln!(out)?;
    if m.is_empty() {
        writeln!(out, "None in the analysed games.")?;
        return Ok(());
    }
    writeln!(out, "| game | move | discs lost |")?;
    writeln!(out, "|---|---|---|")?;
    for b in m {
        writeln!(
            out,
            "| {} | {}. {} | {} |",
            b.game, b.number, b.square, b.loss
        )?;
    }
    Ok(())
}

/// `text` with `& < > "` escaped for HTML.
fn esc(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => s.push_str("&amp;"),
            '<' => s.push_str("&lt;"),
            '>' => s.push_str("&gt;"),
            '"' => s.push_str("&quot;"),
            _ => s.push(c),
        }
    }
    s
}

/// The page's style: the server's colours, no outside file.
const HTML_STYLE: &str = "body{font:15px/1.45 system-ui,sans-serif;margin:1.5rem auto;max-width:60rem;\
padding:0 1rem;color:#222;background:#f6f4ef}h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.6rem}\
a{color:#1f6f43}table{border-collapse:collapse}td,th{padding:.2rem .7rem;border-bottom:1px solid #ddd8cc;\
text-align:left}.n{text-align:right}ul.tree{list-style:none;padding-left:1.1rem;margin:.1rem 0}\
.moves{font-family:ui-monospace,monospace}.fig{color:#6b6860;font-size:.85rem;margin-left:.5rem}\
.better{color:#2e7d32}.worse{color:#b23b3b}.note{color:#6b6860;font-size:.85rem}";

/// A self-contained HTML page of the report: each line links to the
/// explorer of `server` at that position with the player's filter.
fn html(
    r: &PlayerReport,
    rating: Option<&wthor_db::ratings::YearRating>,
    mistakes: Option<&[Blunder]>,
    server: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let since = r.since.map(|y| format!(" since {y}")).unwrap_or_default();
    let title = format!("{} as {}{since}", r.player, color(r.color));
    writeln!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>Report: {}</title><style>{HTML_STYLE}</style></head><body>",
        esc(&title)
    )?;
    writeln!(out, "<h1>Preparation report: {}</h1>", esc(&title))?;
    let rating = rating
        .map(|y| {
            format!(
                "; rating {} ± {} in {}",
                y.rating.round(),
                y.sd.round(),
                y.year
            )
        })
        .unwrap_or_default();
    writeln!(
        out,
        "<p>{} games, {} scored{rating}.</p>",
        r.tree.player.games,
        score(&r.tree.player)
    )?;
    writeln!(
        out,
        "<p class=\"note\">Lines are f5-first move sequences (each game turned so that its first \
         move is f5; no transpositions), shown when at least {:.0}% of these games follow them and \
         followed while at least {} remain; scores are the points of {} (a draw half a point), \
         the player's and the archive's. Each line opens the explorer of <a href=\"{}\">{}</a> \
         (<code>wthor serve</code>) there, with the player's filter.</p>",
        100.0 * r.min_share,
        r.min_games,
        color(r.color),
        esc(server),
        esc(server)
    )?;
    writeln!(out, "<h2>Lines</h2>")?;
    if r.tree.lines.is_empty() {
        writeln!(
            out,
            "<p>No line is followed by {:.0}% of these games and {} of them.</p>",
            100.0 * r.min_share,
            r.min_games
        )?;
    } else {
        html_tree(&r.tree.lines, "", r, server, out)?;
    }
    let link = |moves: &str, text: &str| {
        format!(
            "<a class=\"moves\" href=\"{}\">{}</a>",
            esc(&format!("{server}{}", explorer(moves, &r.player, r.color))),
            esc(text)
        )
    };
    writeln!(
        out,
        "<h2>Where {} leaves the archive's main line</h2>",
        esc(&r.player)
    )?;
    if r.departures.is_empty() {
        writeln!(
            out,
            "<p>Nowhere in these lines: the player's most played move is the archive's.</p>"
        )?;
    } else {
        writeln!(
            out,
            "<table><tr><th>after</th><th>played</th><th>score</th><th>archive's move</th>\
             <th>its score</th></tr>"
        )?;
        for d in &r.departures {
            writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                link(
                    &d.moves,
                    if d.moves.is_empty() {
                        "(start)"
                    } else {
                        &d.moves
                    }
                ),
                link(&format!("{}{}", d.moves, d.played), &d.played),
                score(&d.record),
                link(&format!("{}{}", d.moves, d.archive_next), &d.archive_next),
                score(&d.archive_record)
            )?;
        }
        writeln!(out, "</table>")?;
    }
    writeln!(out, "<h2>Results by the opponent's rating that year</h2>")?;
    writeln!(
        out,
        "<table><tr><td>rated above {}</td><td>{}</td></tr>\
         <tr><td>rated at or below</td><td>{}</td></tr>",
        esc(&r.player),
        score(&r.against_stronger),
        score(&r.against_weaker)
    )?;
    if r.against_unrated.games > 0 {
        writeln!(
            out,
            "<tr><td>unrated</td><td>{}</td></tr>",
            score(&r.against_unrated)
        )?;
    }
    writeln!(out, "</table>")?;
    if let Some(m) = mistakes {
        writeln!(out, "<h2>Worst endgame mistakes</h2>")?;
        if m.is_empty() {
            writeln!(out, "<p>None in the analysed games.</p>")?;
        } else {
            writeln!(
                out,
                "<table><tr><th>game</th><th>move</th><th class=\"n\">discs lost</th></tr>"
            )?;
            for b in m {
                writeln!(
                    out,
                    "<tr><td><a href=\"{}\">{}</a></td><td>{}. {}</td><td class=\"n\">{}</td></tr>",
                    esc(&format!(
                        "{server}/game/{}?ply={}",
                        b.game,
                        b.number.saturating_sub(1)
                    )),
                    esc(&b.game),
                    b.number,
                    esc(&b.square),
                    b.loss
                )?;
            }
            writeln!(out, "</table>")?;
        }
    }
    writeln!(out, "</body></html>")
}

/// The lines of the tree as nested lists: each line's moves after its
/// parent's, a link to the explorer, the player's score and the archive's.
fn html_tree(
    lines: &[Line],
    parent: &str,
    r: &PlayerReport,
    server: &str,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(out, "<ul class=\"tree\">")?;
    for l in lines {
        let own = l.moves.strip_prefix(parent).unwrap_or(&l.moves);
        let class = match (l.player.score(), l.archive.score()) {
            (Some(p), Some(a)) if p > a + 0.05 => " better",
            (Some(p), Some(a)) if p < a - 0.05 => " worse",
            _ => "",
        };
        write!(
            out,
            "<li><a class=\"moves\" title=\"{}\" href=\"{}\">{}{}</a>\
             <span class=\"fig{class}\">{}</span><span class=\"fig\">archive {}</span>",
            esc(&l.moves),
            esc(&format!(
                "{server}{}",
                explorer(&l.moves, &r.player, r.color)
            )),
            if parent.is_empty() { "" } else { "…" },
            esc(own),
            score(&l.player),
            score(&l.archive)
        )?;
        if !l.lines.is_empty() {
            writeln!(out)?;
            html_tree(&l.lines, &l.moves, r, server, out)?;
        }
        writeln!(out, "</li>")?;
    }
    writeln!(out, "</ul>")
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
    format!("/?play={moves}&{}={name}&exact=true", color(side))
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
