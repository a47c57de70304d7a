//! The query filters shared by the commands that select games (`wthor
//! search`, `wthor stats`, `wthor export`): players, tournament,
//! years, result, scores, opening, position, sort, limit; and the output
//! format of `wthor search` and `wthor stats`.
//!
//! `--exact` makes names match whole (case- and accent-insensitive) rather
//! than as substrings; it is about names only (the exact solver scores of
//! `wthor stats` are `--solve`).

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser as _};
use othello_core::Size;
use wthor_db::Query;
use wthor_db::query::{Filters, KeyStyle, Outcome, SortKey, Span};

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
    #[arg(long, value_name = "A..B", value_parser = str::parse::<Span<u16>>)]
    pub(crate) year: Option<Span<u16>>,
    /// The result: black, white or draw.
    #[arg(long, value_parser = result_parser())]
    pub(crate) result: Option<Outcome>,
    /// Black's stored discs in A..B (inclusive, e.g. `33..64`).
    #[arg(long, value_name = "A..B", value_parser = str::parse::<Span<u8>>)]
    pub(crate) black_discs: Option<Span<u8>>,
    /// The stored theoretical score (black's discs after perfect play) in
    /// A..B (inclusive).
    #[arg(long, value_name = "A..B", value_parser = str::parse::<Span<u8>>)]
    pub(crate) theoretical: Option<Span<u8>>,
    /// Games that start with these moves, under any of the 8 symmetries.
    #[arg(long, value_name = "TRANSCRIPT")]
    pub(crate) opening: Option<String>,
    /// Match --opening as played (no symmetry).
    #[arg(long, requires = "opening")]
    pub(crate) as_played: bool,
    /// Games through the named opening NAME or one of its sub-lines (a
    /// name or alias of `wthor openings`, case- and accent-insensitive;
    /// 8x8 games).
    #[arg(long, value_name = "NAME")]
    pub(crate) opening_name: Option<String>,
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
    /// 8x8 games whose two players were both rated at least R in the
    /// game's year (Whole-History Rating of the whole database, kept as
    /// `wthor ratings` keeps it; from 1 to 3000).
    #[arg(long, value_name = "R")]
    pub(crate) min_rating: Option<u16>,
    /// Board size of --opening and --position-after: 8 or 10.
    #[arg(long, default_value = "8", value_parser = str::parse::<Size>)]
    pub(crate) size: Size,
    /// Sort by year, black, white, tournament, score or rating (the mean of
    /// both players' ratings that year) (ascending; ties in database order).
    #[arg(long, value_name = "KEY", value_parser = str::parse::<SortKey>)]
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

/// `--result`: the library's names, listed in `--help` with their meaning.
fn result_parser() -> impl clap::builder::TypedValueParser<Value = Outcome> {
    PossibleValuesParser::new([
        PossibleValue::new("black").help("Black won"),
        PossibleValue::new("white").help("White won"),
        PossibleValue::new("draw").help("A draw"),
    ])
    .try_map(|s| s.parse::<Outcome>())
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
            result: self.result,
            black_discs: self.black_discs,
            theoretical: self.theoretical,
            opening: self.opening.clone(),
            as_played: self.as_played,
            opening_name: self.opening_name.clone(),
            position: self.position.clone(),
            position_after: self.position_after.clone(),
            min_rating: self.min_rating,
            size: self.size,
            sort: self.sort,
            descending: self.reverse,
            limit: self.limit,
        }
    }

    /// The query; a malformed transcript or OBF is a one-line error naming
    /// the option and the character. An --opening-name that names no
    /// opening is not an error (no game matches): its note, with the
    /// closest names, goes to stderr.
    pub(crate) fn build(&self) -> anyhow::Result<Query> {
        let filters = self.filters();
        if let Some(note) = filters.opening_name_note() {
            eprintln!("wthor: --opening-name: {note}");
        }
        filters
            .to_query()
            .map_err(|e| anyhow::anyhow!(e.worded(KeyStyle::Flag)))
    }
}
