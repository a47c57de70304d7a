//! The query filters shared by the commands that select games (`wthor
//! search`, `wthor stats`, `wthor export`): players, tournament,
//! years, result, scores, opening, position, sort, limit.
//!
//! `--exact` makes names match whole (case- and accent-insensitive) rather
//! than as substrings; it is about names only (the exact solver scores of
//! `wthor stats` are `--solve`).

use othello_core::Size;
use wthor_db::Query;
use wthor_db::query::{Opening, Outcome, PlayerKind, Position, PositionError, SortKey};

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
    pub(crate) black_discs: Option<(u8, u8)>,
    /// The stored theoretical score (black's discs after perfect play) in
    /// A..B (inclusive).
    #[arg(long, value_name = "A..B", value_parser = parse_discs)]
    pub(crate) theoretical: Option<(u8, u8)>,
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
    /// At most N games (after sorting).
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<usize>,
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
    /// The query; a malformed transcript or OBF is a one-line error naming
    /// the character.
    pub(crate) fn build(&self) -> anyhow::Result<Query> {
        if self.player.len() > 2 {
            anyhow::bail!(
                "--player is given at most twice (games between two players), got {}",
                self.player.len()
            );
        }
        let size = if self.size == 10 {
            Size::Ten
        } else {
            Size::Eight
        };
        let mut q = Query::new().exact(self.exact);
        for p in &self.player {
            q = q.player(p);
        }
        if let Some(b) = &self.black {
            q = q.black(b);
        }
        if let Some(w) = &self.white {
            q = q.white(w);
        }
        if self.program {
            q = q.kind(PlayerKind::Program);
        }
        if self.human {
            q = q.kind(PlayerKind::Human);
        }
        if let Some(t) = &self.tournament {
            q = q.tournament(t);
        }
        if let Some((from, to)) = self.year {
            q = q.years(from, to);
        }
        if let Some(r) = self.result {
            q = q.result(match r {
                ResultArg::Black => Outcome::BlackWin,
                ResultArg::White => Outcome::WhiteWin,
                ResultArg::Draw => Outcome::Draw,
            });
        }
        if let Some((low, high)) = self.black_discs {
            q = q.black_discs(low, high);
        }
        if let Some((low, high)) = self.theoretical {
            q = q.theoretical(low, high);
        }
        if let Some(text) = &self.opening {
            let opening = Opening::parse(text, size).map_err(|e| explain("--opening", text, &e))?;
            q = q.opening(opening).as_played(self.as_played);
        }
        if let Some(text) = &self.position {
            let p = Position::from_obf(text).map_err(|e| explain("--position", text, &e))?;
            q = q.position(p);
        }
        if let Some(text) = &self.position_after {
            let p = Position::after_transcript(text, size)
                .map_err(|e| explain("--position-after", text, &e))?;
            q = q.position(p);
        }
        if let Some(key) = self.sort {
            q = q.sort(key);
        }
        if let Some(n) = self.limit {
            q = q.limit(n);
        }
        Ok(q)
    }
}

/// A one-line error for a bad OBF or transcript, naming the character.
fn explain(option: &str, text: &str, e: &PositionError) -> anyhow::Error {
    let at = match e {
        PositionError::Obf(o) => Some(o.position()),
        PositionError::Transcript(t) => Some(t.position()),
        _ => None,
    };
    match at.map(|i| text.trim_start().chars().nth(i)) {
        Some(Some(c)) => anyhow::anyhow!("{option}: {e} (found {c:?})"),
        Some(None) => anyhow::anyhow!("{option}: {e} (at the end)"),
        None => anyhow::anyhow!("{option}: {e}"),
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
    if let (Some(l), Some(h)) = (low, high) {
        if l > h {
            return Err(format!("empty range: {l} is above {h}"));
        }
    }
    Ok((low, high))
}

fn parse_years(text: &str) -> Result<(Option<u16>, Option<u16>), String> {
    parse_range(text)
}

fn parse_discs(text: &str) -> Result<(u8, u8), String> {
    let (low, high) = parse_range::<u8>(text)?;
    Ok((low.unwrap_or(0), high.unwrap_or(u8::MAX)))
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
