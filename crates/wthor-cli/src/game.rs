//! The game a command argument names, and what is known about it (names,
//! year, scores), for `wthor show` and `wthor stream`.
//!
//! TEMPORARY: a game is named `FILE INDEX` (as `wthor replay` takes it) and
//! the names are read from `WTHOR.JOU` / `WTHOR.TRN` beside FILE, all in
//! [`resolve_game`]. When `wthor-db` has its `GameId` (`YEAR:INDEX`) and
//! joins the names, only [`GameArg`] and [`resolve_game`] change.

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use othello_core::replay::{Token, wthor_tokens};
use othello_core::{Board8, Board10, Size};
use wthor_db::position_line::{GamePositions, game_positions};
use wthor_db::{DbFile, OpenOptions};
use wthor_format::{BoardSize, NameKind, ReadOptions, parse_header, parse_names_file};

/// The arguments that name a game.
#[derive(Debug, clap::Args)]
pub(crate) struct GameArg {
    /// A WTHOR game file (`.wtb` or `.wtd`).
    pub(crate) file: PathBuf,
    /// The 0-based record index of the game in FILE.
    pub(crate) index: usize,
}

/// A game with everything the commands print about it.
#[derive(Debug)]
pub(crate) struct ResolvedGame {
    /// Its identity, as printed (`WTH_2001.wtb:3`).
    pub(crate) id: String,
    /// The board size.
    pub(crate) size: Size,
    /// The recorded moves.
    pub(crate) tokens: Vec<Token>,
    /// Black's number and name (empty when the names file is missing or
    /// does not hold the number).
    pub(crate) black: (u16, String),
    /// White's number and name.
    pub(crate) white: (u16, String),
    /// The tournament's number and name.
    pub(crate) tournament: (u16, String),
    /// The year of the file's header.
    pub(crate) year: u16,
    /// Black's discs as recorded.
    pub(crate) real_score: u8,
    /// Black's discs after perfect play from `depth` empties, as recorded.
    pub(crate) theoretical_score: u8,
    /// The number of empties of the theoretical score.
    pub(crate) depth: u8,
}

/// TEMPORARY (until `wthor-db`'s `GameId`): the game at `arg.index` of
/// `arg.file`, with the names from the names files beside it.
pub(crate) fn resolve_game(arg: &GameArg) -> anyhow::Result<ResolvedGame> {
    let (path, index) = (&arg.file, arg.index);
    let options = OpenOptions::default();
    let file = DbFile::open(path, &options)?;
    let board = file
        .board_size()
        .with_context(|| format!("{}: not a game file ({})", path.display(), file.kind()))?;
    let game = file.game(index).with_context(|| {
        format!(
            "{}: no record {index} (the file holds {} games, indices from 0)",
            path.display(),
            file.len()
        )
    })?;
    let header = parse_header(file.bytes())
        .map(|(_, h)| h)
        .map_err(|_| anyhow::anyhow!("{}: no header", path.display()))?;
    let size = match board {
        BoardSize::Eight => Size::Eight,
        BoardSize::Ten => Size::Ten,
    };
    let tokens = match size {
        Size::Eight => wthor_tokens::<Board8>(game.moves_raw()).collect(),
        Size::Ten => wthor_tokens::<Board10>(game.moves_raw()).collect(),
    };
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let players = read_names(dir, "JOU", NameKind::Players, &options.read)?;
    let tournaments = read_names(dir, "TRN", NameKind::Tournaments, &options.read)?;
    let name = |names: &[String], n: u16| names.get(usize::from(n)).cloned().unwrap_or_default();
    let file_name = path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    Ok(ResolvedGame {
        id: format!("{file_name}:{index}"),
        size,
        tokens,
        black: (game.black(), name(&players, game.black())),
        white: (game.white(), name(&players, game.white())),
        tournament: (game.tournament(), name(&tournaments, game.tournament())),
        year: header.year,
        real_score: game.real_score(),
        theoretical_score: game.theoretical_score(),
        depth: header.depth(),
    })
}

/// TEMPORARY: the names of `WTHOR.<ext>` in `dir` (any case of the name),
/// empty when there is none.
fn read_names(
    dir: &Path,
    ext: &str,
    kind: NameKind,
    options: &ReadOptions,
) -> anyhow::Result<Vec<String>> {
    let wanted = format!("WTHOR.{ext}");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(Vec::new());
    };
    let mut found: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| n.to_string_lossy().eq_ignore_ascii_case(&wanted))
        })
        .collect();
    found.sort();
    let Some(path) = found.first() else {
        return Ok(Vec::new());
    };
    let bytes = std::fs::read(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let names = parse_names_file(&bytes, kind, options).map_err(|e| e.with_file(path))?;
    Ok(names
        .names()
        .map(|n| n.decode(names.encoding()).into_owned())
        .collect())
}

/// Every position of `game` (see [`game_positions`]), with its names, year
/// and identity on each line.
pub(crate) fn positions(game: &ResolvedGame) -> GamePositions {
    let mut played = game_positions(game.size, &game.tokens);
    for line in &mut played.lines {
        line.black.clone_from(&game.black.1);
        line.white.clone_from(&game.white.1);
        line.tournament.clone_from(&game.tournament.1);
        line.year = Some(game.year);
        line.game.clone_from(&game.id);
    }
    played
}
