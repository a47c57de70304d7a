//! `wthor ratings`: every player's rating per year, by Whole-History
//! Rating over the games the filters select ([`wthor_db::ratings`]): the
//! list of a year (`--year`, default the last), one player's history
//! (`--player`), the names that are probably one person's
//! (`--similar-names`), or the validation (`--evaluate A..B`).
//!
//! In this command `--player` and `--year` choose what to show, not the
//! games: the ratings are always fitted on the whole history the other
//! filters select.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Context as _;
use serde_json::json;
use wthor_db::query::{Filters, Span};
use wthor_db::ratings::{EvaluateOptions, Evaluation, Params, PlayerRatings, Ratings, YearRating};

use crate::db_args::DbArgs;
use crate::query_args::{Format, QueryArgs};
use crate::textfmt::csv::field;

/// Arguments of `wthor ratings`.
#[derive(Debug, clap::Args)]
#[command(after_help = crate::help::RATINGS)]
#[command(mut_arg("player", |a| a.help(
    "The rating history of NAME (whole name, or a part that names one \
     player; case- and accent-insensitive); repeat for several"
)))]
#[command(mut_arg("year", |a| a.help(
    "The list of year Y, or of each year of A..B (default: the last year \
     with rated games); with --player, the years of the history"
)))]
#[command(mut_arg("sort", |a| a.hide(true)))]
#[command(mut_arg("reverse", |a| a.hide(true)))]
#[command(mut_arg("limit", |a| a.hide(true)))]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    query: QueryArgs,
    /// Players per list (0: all).
    #[arg(long, value_name = "N", default_value_t = 20)]
    top: usize,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Table)]
    format: Format,
    /// The pairs of rated names that are probably one person (the same
    /// name but for case and accents, or one letter apart): never merged.
    #[arg(long, conflicts_with_all = ["player", "evaluate"])]
    similar_names: bool,
    /// Instead of the ratings, the validation over the years A..B: each
    /// game predicted from the games before its tournament by WHR, Elo,
    /// Glicko-2 and a constant, scored by log-loss.
    #[arg(long, value_name = "A..B", value_parser = str::parse::<Span<u16>>, conflicts_with = "player")]
    evaluate: Option<Span<u16>>,
    /// Where the ratings of the whole database are kept between runs
    /// (fitted once per database content, read back afterwards) [default:
    /// ratings-KEY.json in the user's cache directory, never the data
    /// folder]. Ratings of filtered games are fitted each time.
    #[arg(long = "ratings", value_name = "FILE", conflicts_with = "evaluate")]
    ratings_file: Option<std::path::PathBuf>,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut filters = args.query.filters();
    // --player and --year choose what to show: the fit takes every year
    // and every player of the other filters.
    let players = std::mem::take(&mut filters.players);
    let years = filters.years.take();
    if filters.sort.is_some() || filters.limit.is_some() {
        anyhow::bail!("--sort and --limit do not apply to ratings (see --top)");
    }
    let query = filters.to_query()?;
    let db = args.db.open()?;
    if let Some(span) = args.evaluate {
        let (first, last) = match (span.low, span.high) {
            (Some(first), Some(last)) => (first, last),
            _ => anyhow::bail!("--evaluate needs both ends of its years, as in 2021..2025"),
        };
        if years.is_some() {
            anyhow::bail!("--year chooses a list to show, not the years of --evaluate");
        }
        let evaluation = db
            .evaluate_ratings(&query, &EvaluateOptions::years(first, last))
            .context("evaluation")?;
        return evaluation_out(&evaluation, args.format, out).map(|()| ExitCode::SUCCESS);
    }
    let ratings = if filters == Filters::default() {
        whole(&db, args.ratings_file.as_deref())?
    } else {
        if let Some(file) = &args.ratings_file {
            anyhow::bail!(
                "--ratings {}: the file keeps the whole database's ratings; with filters the \
                 ratings are fitted on the games chosen (drop --ratings or the filters)",
                file.display()
            );
        }
        db.ratings(&query, &Params::FITTED).context("ratings")?
    };
    if args.similar_names {
        similar_out(&ratings, args.format, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    if !players.is_empty() {
        let found: Vec<&PlayerRatings> = players
            .iter()
            .map(|name| ratings.find(name))
            .collect::<Result<_, _>>()?;
        histories_out(&ratings, &found, years, args.format, out)?;
        return Ok(ExitCode::SUCCESS);
    }
    let rated = ratings.years();
    let Some(&latest) = rated.last() else {
        return nothing_rated(&ratings, args.format, out);
    };
    let shown: Vec<u16> = match years {
        None => vec![latest],
        // One year: its list, or that it has none. A range: the rated
        // years in it (a year between them without games is said too).
        Some(Span {
            low: Some(low),
            high: Some(high),
        }) if low == high => vec![low],
        Some(span) => {
            let low = span.low.unwrap_or(rated[0]).max(rated[0]);
            let high = span.high.unwrap_or(latest).min(latest);
            if low > high {
                return say(&format!("no rated games in {span}"), args.format, out);
            }
            (low..=high).collect()
        }
    };
    lists_out(&ratings, &shown, args.top, args.format, out)?;
    Ok(ExitCode::SUCCESS)
}

/// The ratings of every game of `db`, kept between runs; a file that
/// cannot be used or written is a warning.
fn whole(db: &wthor_db::Database, file: Option<&std::path::Path>) -> anyhow::Result<Ratings> {
    let kept = db.kept_ratings(&Params::FITTED, file).context("ratings")?;
    if let Some(note) = &kept.note {
        eprintln!("warning: {note}");
    }
    Ok(kept.ratings)
}

fn flags(player: &PlayerRatings, at: &YearRating) -> String {
    let mut flags = Vec::new();
    if player.program {
        flags.push("program");
    }
    if at.provisional {
        flags.push("provisional");
    }
    flags.join(",")
}

fn rank_text(rank: Option<u32>) -> String {
    rank.map_or_else(|| "-".to_owned(), |r| r.to_string())
}

fn score_percent(at: &YearRating) -> f64 {
    100.0 * at.points / f64::from(at.games.max(1))
}

/// The line that says how the ratings were fitted.
fn fitted_line(ratings: &Ratings) -> String {
    let p = ratings.params();
    format!(
        "Whole-History Rating of {} games (mean rated human 1500; black's edge {:+.1}; \
         yearly change sd {:.0}, newcomers' sd {:.0}; provisional above ±{:.0})",
        ratings.games(),
        ratings.black_advantage(),
        p.wiener_sd,
        p.prior_sd,
        p.provisional_sd
    )
}

/// A rating to the hundredth of a point: the fit's precision is a
/// thousandth, and the last digits of a double would differ from one
/// platform's `exp` to another's.
fn hundredths(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn row_json(player: &PlayerRatings, at: &YearRating) -> serde_json::Value {
    json!({
        "kind": "rating",
        "player": player.name,
        "year": at.year,
        "rank": at.rank,
        "rating": hundredths(at.rating),
        "sd": hundredths(at.sd),
        "games": at.games,
        "points": at.points,
        "program": player.program,
        "provisional": at.provisional,
    })
}

const CSV_HEADER: &str = "year,rank,player,rating,sd,games,points,program,provisional";

fn row_csv(player: &PlayerRatings, at: &YearRating) -> String {
    format!(
        "{},{},{},{:.1},{:.1},{},{},{},{}",
        at.year,
        at.rank.map_or_else(String::new, |r| r.to_string()),
        field(&player.name),
        at.rating,
        at.sd,
        at.games,
        at.points,
        player.program,
        at.provisional
    )
}

fn lists_out(
    ratings: &Ratings,
    years: &[u16],
    top: usize,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    if format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
    }
    if format == Format::Table {
        writeln!(out, "{}", fitted_line(ratings))?;
    }
    for &year in years {
        let list = ratings.year(year);
        let shown = if top == 0 {
            &list[..]
        } else {
            &list[..list.len().min(top)]
        };
        match format {
            Format::Table => {
                writeln!(out)?;
                if list.is_empty() {
                    writeln!(out, "{year}: no rated games")?;
                    continue;
                }
                let games: u32 = list.iter().map(|r| r.at.games).sum::<u32>() / 2;
                let provisional = match list.iter().filter(|r| r.rank.is_none()).count() {
                    0 => String::new(),
                    n => format!(" ({n} provisional, listed after the others)"),
                };
                writeln!(
                    out,
                    "{year}: {} players rated{provisional}, {games} games{}",
                    list.len(),
                    if shown.len() < list.len() {
                        format!(" (the first {})", shown.len())
                    } else {
                        String::new()
                    }
                )?;
                let w = shown
                    .iter()
                    .map(|r| r.player.name.chars().count())
                    .max()
                    .unwrap_or(0)
                    .max(6);
                writeln!(
                    out,
                    "{:>4}  {:w$}  {:>6}  {:>4}  {:>5}  {:>6}  FLAGS",
                    "RANK", "PLAYER", "RATING", "±", "GAMES", "SCORE%"
                )?;
                for r in shown {
                    let line = format!(
                        "{:>4}  {:w$}  {:>6.0}  {:>4.0}  {:>5}  {:>6.1}  {}",
                        rank_text(r.rank),
                        r.player.name,
                        r.at.rating,
                        r.at.sd,
                        r.at.games,
                        score_percent(r.at),
                        flags(r.player, r.at)
                    );
                    writeln!(out, "{}", line.trim_end())?;
                }
            }
            Format::Csv => {
                for r in shown {
                    writeln!(out, "{}", row_csv(r.player, r.at))?;
                }
            }
            Format::Jsonl => {
                for r in shown {
                    serde_json::to_writer(&mut *out, &row_json(r.player, r.at))?;
                    writeln!(out)?;
                }
            }
        }
        if list.is_empty() && format != Format::Table {
            eprintln!("wthor: {year}: no rated games");
        }
    }
    Ok(())
}

fn histories_out(
    ratings: &Ratings,
    players: &[&PlayerRatings],
    years: Option<Span<u16>>,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let within = |y: u16| {
        years.is_none_or(|s| s.low.is_none_or(|l| y >= l) && s.high.is_none_or(|h| y <= h))
    };
    if format == Format::Csv {
        writeln!(out, "{CSV_HEADER}")?;
    }
    if format == Format::Table {
        writeln!(out, "{}", fitted_line(ratings))?;
    }
    for player in players {
        let rows: Vec<&YearRating> = player.years.iter().filter(|y| within(y.year)).collect();
        match format {
            Format::Table => {
                writeln!(out)?;
                let peak = player.peak().expect("a rated player has a year");
                let n = player.years.len();
                writeln!(
                    out,
                    "{}{}: {n} year{}, {} games; peak {:.0} in {}",
                    player.name,
                    if player.program { " (program)" } else { "" },
                    if n == 1 { "" } else { "s" },
                    player.years.iter().map(|y| y.games).sum::<u32>(),
                    peak.rating,
                    peak.year
                )?;
                if rows.is_empty() {
                    writeln!(out, "no rated games in the years asked")?;
                }
                if !rows.is_empty() {
                    writeln!(
                        out,
                        "{:>4}  {:>6}  {:>4}  {:>5}  {:>6}  {:>5}  FLAGS",
                        "YEAR", "RATING", "±", "GAMES", "SCORE%", "RANK"
                    )?;
                }
                for at in &rows {
                    let line = format!(
                        "{:>4}  {:>6.0}  {:>4.0}  {:>5}  {:>6.1}  {:>5}  {}",
                        at.year,
                        at.rating,
                        at.sd,
                        at.games,
                        score_percent(at),
                        rank_text(at.rank),
                        if at.provisional { "provisional" } else { "" }
                    );
                    writeln!(out, "{}", line.trim_end())?;
                }
                for s in ratings.similar_to(&player.name) {
                    let other = if s.names[0] == player.name {
                        &s.names[1]
                    } else {
                        &s.names[0]
                    };
                    writeln!(
                        out,
                        "probably the same person: {other} ({}), rated apart",
                        similar_why(s.how)
                    )?;
                }
            }
            Format::Csv => {
                for at in &rows {
                    writeln!(out, "{}", row_csv(player, at))?;
                }
            }
            Format::Jsonl => {
                for at in &rows {
                    serde_json::to_writer(&mut *out, &row_json(player, at))?;
                    writeln!(out)?;
                }
            }
        }
    }
    Ok(())
}

fn similar_why(how: wthor_db::ratings::Similar) -> &'static str {
    match how {
        wthor_db::ratings::Similar::SameFolded => "the same name but for case and accents",
        wthor_db::ratings::Similar::OneEdit => "one letter apart",
    }
}

fn similar_out(ratings: &Ratings, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    let pairs = ratings.similar_names();
    match format {
        Format::Table => {
            writeln!(
                out,
                "{} pairs of rated names are probably one person (rated apart):",
                pairs.len()
            )?;
            for s in pairs {
                writeln!(
                    out,
                    "{}  |  {}  ({})",
                    s.names[0],
                    s.names[1],
                    similar_why(s.how)
                )?;
            }
        }
        Format::Csv => {
            writeln!(out, "name,other,how")?;
            for s in pairs {
                let how = serde_json::to_value(s.how)?;
                writeln!(
                    out,
                    "{},{},{}",
                    field(&s.names[0]),
                    field(&s.names[1]),
                    how.as_str().unwrap_or_default()
                )?;
            }
        }
        Format::Jsonl => {
            for s in pairs {
                serde_json::to_writer(
                    &mut *out,
                    &json!({"kind": "similar_names", "name": s.names[0], "other": s.names[1], "how": s.how}),
                )?;
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

/// Says `text` plainly: the table's output, or stderr beside an empty CSV
/// (its header) or JSON Lines output.
fn say(text: &str, format: Format, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    match format {
        Format::Table => writeln!(out, "{text}")?,
        Format::Csv => {
            writeln!(out, "{CSV_HEADER}")?;
            eprintln!("wthor: {text}");
        }
        Format::Jsonl => eprintln!("wthor: {text}"),
    }
    Ok(ExitCode::SUCCESS)
}

fn nothing_rated(
    ratings: &Ratings,
    format: Format,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let left = ratings.left_out();
    let why = format!(
        "no rated games in the games selected ({} with an unknown player, {} on 10x10 boards)",
        left.unknown_player, left.ten_by_ten
    );
    say(&why, format, out)
}

fn evaluation_out(e: &Evaluation, format: Format, out: &mut dyn Write) -> anyhow::Result<()> {
    let models = [
        ("whr", e.whr),
        ("elo", e.elo),
        ("glicko2", e.glicko2),
        ("constant", e.constant),
    ];
    match format {
        Format::Table => {
            writeln!(
                out,
                "validation {}..{}: {} games of {} tournaments, each predicted from the games \
                 before its tournament",
                e.first, e.last, e.games, e.tournaments
            )?;
            writeln!(
                out,
                "games with a player never seen before: {} ({:.1}%)",
                e.never_seen,
                100.0 * e.never_seen as f64 / e.games.max(1) as f64
            )?;
            writeln!(out, "{:10}  LOG-LOSS", "MODEL")?;
            for (name, loss) in models {
                writeln!(out, "{name:10}  {loss:.4}")?;
            }
            writeln!(
                out,
                "WHR trained on the results softened by the disc margin (weight {}): {:.4}",
                e.other_margin, e.whr_other_margin
            )?;
        }
        Format::Csv => {
            writeln!(out, "model,log_loss,games")?;
            for (name, loss) in models {
                writeln!(out, "{name},{loss:.6},{}", e.games)?;
            }
        }
        Format::Jsonl => {
            serde_json::to_writer(&mut *out, e)?;
            writeln!(out)?;
        }
    }
    Ok(())
}
