//! The game filters of the commands that select games (`wthor export`):
//! one clap `Args` building a [`wthor_db::Query`].

use std::path::PathBuf;

use anyhow::Context as _;
use othello_core::Size;
use wthor_db::Query;
use wthor_db::query::{Opening, Outcome, PlayerKind, Position, SortKey};

/// The database to read: `--db DIR`, else the `WTHOR_DIR` environment
/// variable.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct DbArgs {
    /// The WTHOR directory (default: the WTHOR_DIR environment variable).
    #[arg(long, value_name = "DIR")]
    pub(crate) db: Option<PathBuf>,
}

impl DbArgs {
    /// The directory given, or `WTHOR_DIR`.
    pub(crate) fn dir(&self) -> anyhow::Result<PathBuf> {
        self.db
            .clone()
            .or_else(|| std::env::var_os("WTHOR_DIR").map(PathBuf::from))
            .context("no database: give --db DIR or set WTHOR_DIR")
    }
}

/// Which games: every filter given must hold.
#[derive(Debug, Clone, Default, clap::Args)]
pub(crate) struct QueryArgs {
    /// Games of this player, either colour (twice: games between the two).
    /// Substring, case- and accent-insensitive unless --exact.
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Vec<String>,
    /// Games where this player has black.
    #[arg(long, value_name = "NAME")]
    pub(crate) black: Option<String>,
    /// Games where this player has white.
    #[arg(long, value_name = "NAME")]
    pub(crate) white: Option<String>,
    /// Names must match whole (still case- and accent-insensitive).
    #[arg(long)]
    pub(crate) exact: bool,
    /// Games where a program plays (a name with its author in parentheses).
    #[arg(long, conflicts_with = "human")]
    pub(crate) program: bool,
    /// Games between humans.
    #[arg(long)]
    pub(crate) human: bool,
    /// Games of tournaments whose name contains this.
    #[arg(long, value_name = "NAME")]
    pub(crate) tournament: Option<String>,
    /// Years: 2001, 1990..1999, 2000.. or ..1985.
    #[arg(long, value_name = "A..B", value_parser = parse_years)]
    pub(crate) year: Option<(Option<u16>, Option<u16>)>,
    /// The result for black: win, loss or draw (also black, white).
    #[arg(long, value_name = "RESULT", value_parser = parse_result)]
    pub(crate) result: Option<Outcome>,
    /// Games starting with these moves (`f5d6c3`), in any of the 8
    /// orientations unless --as-played.
    #[arg(long, value_name = "MOVES")]
    pub(crate) opening: Option<String>,
    /// Match --opening as played, not under symmetry.
    #[arg(long, requires = "opening")]
    pub(crate) as_played: bool,
    /// Games that reach this position (OBF: 64 or 100 squares, side to move).
    #[arg(long, value_name = "OBF", conflicts_with = "position_after")]
    pub(crate) position: Option<String>,
    /// Games that reach the position after these moves.
    #[arg(long, value_name = "MOVES")]
    pub(crate) position_after: Option<String>,
    /// Order: year, black, white, tournament or score.
    #[arg(long, value_name = "KEY")]
    pub(crate) sort: Option<SortKey>,
    /// At most this many games.
    #[arg(long, value_name = "N")]
    pub(crate) limit: Option<usize>,
}

fn parse_years(text: &str) -> Result<(Option<u16>, Option<u16>), String> {
    let year = |s: &str| -> Result<Option<u16>, String> {
        if s.is_empty() {
            return Ok(None);
        }
        s.parse()
            .map(Some)
            .map_err(|_| format!("{s:?} is not a year"))
    };
    match text.split_once("..") {
        Some((a, b)) => Ok((year(a)?, year(b)?)),
        None => {
            let y = year(text)?;
            Ok((y, y))
        }
    }
}

fn parse_result(text: &str) -> Result<Outcome, String> {
    match text.to_ascii_lowercase().as_str() {
        "win" | "black" | "1-0" => Ok(Outcome::BlackWin),
        "loss" | "white" | "0-1" => Ok(Outcome::WhiteWin),
        "draw" => Ok(Outcome::Draw),
        _ => Err(format!("{text:?}: expected win, loss or draw")),
    }
}

/// A transcript read on 8x8 first, on 10x10 when it names 10x10 squares.
fn on_either<T, E>(text: &str, read: impl Fn(&str, Size) -> Result<T, E>) -> Result<T, E> {
    read(text, Size::Eight).or_else(|e| read(text, Size::Ten).map_err(|_| e))
}

impl QueryArgs {
    /// The query these filters describe.
    pub(crate) fn query(&self) -> anyhow::Result<Query> {
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
        if let Some((a, b)) = self.year {
            q = q.years(a, b);
        }
        if let Some(r) = self.result {
            q = q.result(r);
        }
        if let Some(o) = &self.opening {
            let opening = on_either(o, Opening::parse).context("--opening")?;
            q = q.opening(opening).as_played(self.as_played);
        }
        if let Some(p) = &self.position {
            q = q.position(Position::from_obf(p).context("--position")?);
        }
        if let Some(p) = &self.position_after {
            let pos = on_either(p, Position::after_transcript).context("--position-after")?;
            q = q.position(pos);
        }
        if let Some(s) = self.sort {
            q = q.sort(s);
        }
        if let Some(n) = self.limit {
            q = q.limit(n);
        }
        Ok(q)
    }
}
