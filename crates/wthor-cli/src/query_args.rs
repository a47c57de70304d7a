//! The query filters shared by the commands that select games (`wthor
//! search`, `wthor stats`, `wthor export`): players, tournament,
//! years, result, scores, opening, position, sort, limit; and the output
//! format of `wthor search` and `wthor stats`.
//!
//! `--exact` makes names match whole (case- and accent-insensitive) rather
//! than as substrings; it is about names only (the exact solver scores of
//! `wthor stats` are `--solve`).

use othello_core::Size;
use wthor_db::Query;
use wthor_db::query::{Filters, FiltersError, Outcome, SortKey, TextFilter};

/// The filters of a query (all combined with AND).
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct QueryArgs {
    /// Games where NAME plays either colour; twice: games between the two.
    #[arg(long, value_name = "NAME", num_args = 1, action = clap::ArgAction::Append)]
    pub(crate) player: Vec<String>,
    /// Games where NAME has black.
    #[arg(long, value_name = "NAME")]
    pub(crate) black: Option<String>,
    /// Games where NAME has white.
    #[arg(long, value_name = "NAME")]
    pub(crate) white: Option<String>,
    /// Names (players, tournament) match whole names, not substrings.
    #[arg(long)]
    pub(crate) exact: bool,
    /// Only games with a program (a name with its author in parentheses,
    /// `Edax (delorme)`).
    #[arg(long, conflicts_with = "human")]
    pub(crate) program: bool,
    /// Only games between humans.
    #[arg(long)]
    pub(crate) human: bool,
    /// Games of tournaments whose name contains TEXT.
    #[arg(long, value_name = "TEXT")]
    pub(crate) tournament: Option<String>,
    /// Years A..B (inclusive; `2020..`, `..1985`, `2001`).
    #[arg(long, value_name = "A..B", value_parser = parse_years)]
    pub(crate) year: Option<(Option<u16>, Option<u16>)>,
    /// The result: black, white or draw.
    #[arg(long, value_enum)]
    pub(crate) result: Option<ResultArg>,
    /// Black's stored discs in A..B (inclusive, e.g. `33..64`).
    #[arg(long, value_name = "A..B", value_parser = parse_discs)]
    pub(crate) black_discs: Option<(Option<u8>, Option<u8>)>,
    /// The stored theoretical score (black's discs after perfect play) in
    /// A..B (inclusive).
    #[arg(long, value_name = "A..B", value_parser = parse_discs)]
    pub(crate) theoretical: Option<(Option<u8>, Option<u8>)>,
    /// Games that start with these moves, under any of the 8 symmetries.
    #[arg(long, value_name = "TRANSCRIPT")]
    pub(crate) opening: Option<String>,
    /// Match --opening as played (no symmetry).
    #[arg(long, requires = "opening")]
    pub(crate) as_played: bool,
    /// Games that reach this OBF position (same side to move), in any
    /// orientation; 100 squares for 10x10.
    #[arg(
        long,
        value_name = "OBF",
        conflicts_with = "position_after",
        allow_hyphen_values = true
    )]
    pub(crate) position: Option<String>,
    /// Games that reach the position after this transcript, in any
    /// orientation.
    #[arg(long, value_name = "TRANSCRIPT")]
    pub(crate) position_after: Option<String>,
    /// Board size of --opening and --position-after: 8 or 10.
    #[arg(long, default_value_t = 8, value_parser = parse_size)]
    pub(crate) size: u8,
    /// Sort by year, black, white, tournament or score (ascending; ties in
    /// database order).
    #[arg(long, value_name = "KEY", value_parser = parse_sort)]
    pub(crate) sort: Option<SortKey>,
    /// Sort in descending order (the highest score, the latest year first).
    #[arg(long, requires = "sort")]
    pub(crate) reverse: bool,
    /// At most N games (after sorting).
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<usize>,
}

/// How `wthor search` and `wthor stats` print: an aligned table, CSV with a
/// header line, or one JSON object a line.
//
// No doc comments on the variants: clap would list them in `--help`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Format {
    Table,
    Csv,
    Jsonl,
}

/// A result filter.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub(crate) enum ResultArg {
    /// Black won.
    Black,
    /// White won.
    White,
    /// A draw.
    Draw,
}

impl QueryArgs {
    /// The filters as given on the command line.
    pub(crate) fn filters(&self) -> Filters {
        Filters {
            players: self.player.clone(),
            black: self.black.clone(),
            white: self.white.clone(),
            exact: self.exact,
            program: self.program,
            human: self.human,
            tournament: self.tournament.clone(),
            years: self.year,
            result: self.result.map(|r| match r {
                ResultArg::Black => Outcome::BlackWin,
                ResultArg::White => Outcome::WhiteWin,
                ResultArg::Draw => Outcome::Draw,
            }),
            black_discs: self.black_discs,
            theoretical: self.theoretical,
            opening: self.opening.clone(),
            as_played: self.as_played,
            position: self.position.clone(),
            position_after: self.position_after.clone(),
            size: if self.size == 10 {
                Size::Ten
            } else {
                Size::Eight
            },
            sort: self.sort,
            descending: self.reverse,
            limit: self.limit,
        }
    }

    /// The query; a malformed transcript or OBF is a one-line error naming
    /// the option and the character.
    pub(crate) fn build(&self) -> anyhow::Result<Query> {
        if self.player.len() > 2 {
            anyhow::bail!(
                "--player is given at most twice (games between two players), got {}",
                self.player.len()
            );
        }
        self.filters().to_query().map_err(|e| match &e {
            FiltersError::Text { filter, .. } => {
                let option = match filter {
                    TextFilter::Opening => "--opening",
                    TextFilter::Position => "--position",
                    TextFilter::PositionAfter => "--position-after",
                };
                anyhow::anyhow!("{option}: {e}")
            }
            // The conflicts, which clap rules out before.
            _ => e.into(),
        })
    }
}

/// `A..B`, `A..`, `..B` or `A` (inclusive), as numbers of type `T`.
fn parse_range<T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display>(
    text: &str,
) -> Result<(Option<T>, Option<T>), String> {
    let num = |s: &str| -> Result<Option<T>, String> {
        let s = s.trim();
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| format!("{s:?} is not a number (expected A..B, A.., ..B or A)"))
    };
    let (low, high) = match text.split_once("..") {
        Some((a, b)) => (num(a)?, num(b)?),
        None => {
            let v = num(text)?;
            if v.is_none() {
                return Err("expected A..B, A.., ..B or A".to_owned());
            }
            (v, v)
        }
    };
    if let (Some(l), Some(h)) = (low, high)
        && l > h
    {
        return Err(format!("empty range: {l} is above {h}"));
    }
    Ok((low, high))
}

fn parse_years(text: &str) -> Result<(Option<u16>, Option<u16>), String> {
    parse_range(text)
}

/// Discs `A..B`; an open end is 0 or 255 (see [`Filters::black_discs`]).
fn parse_discs(text: &str) -> Result<(Option<u8>, Option<u8>), String> {
    parse_range(text)
}

fn parse_sort(text: &str) -> Result<SortKey, String> {
    text.parse()
        .map_err(|e: wthor_db::QueryError| e.to_string())
}

fn parse_size(text: &str) -> Result<u8, String> {
    match text {
        "8" => Ok(8),
        "10" => Ok(10),
        _ => Err("the board size is 8 or 10".to_owned()),
    }
}
