//! The game a command argument names, and what is known about it (names,
//! year, scores), for `wthor replay`, `wthor show` and `wthor stream`.
//!
//! A game is named by its identity as `wthor search` prints it (`2001:5`,
//! `WTH_2001.wtd:5`, `FILE:INDEX`), looked up in the database of `--db` or
//! `WTHOR_DIR`; without a database, `PATH:INDEX` names a file directly, and
//! `FILE INDEX` (the 0-based record index, as `wthor validate` prints it)
//! still works. Names come from the database's join (the newest names
//! files of the game file's directory, or `--players`/`--tournaments`).

use std::path::Path;

use anyhow::Context as _;
use othello_core::replay::{Token, wthor_tokens};
use othello_core::{Board8, Board10, Size};
use wthor_db::position_line::{GamePositions, game_positions};
use wthor_db::{Database, GameId};

use crate::db_args::DbArgs;

/// The arguments that name a game.
#[derive(Debug, clap::Args)]
pub(crate) struct GameArg {
    /// A game (`2001:5`, `FILE:INDEX`), or a WTHOR game file (`.wtb` or
    /// `.wtd`) followed by INDEX.
    pub(crate) game: String,
    /// The 0-based record index of the game in FILE.
    pub(crate) index: Option<usize>,
    #[command(flatten)]
    pub(crate) db: DbArgs,
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
    /// Its named opening (the deepest named position it passes through)
    /// with the table's moves for it; `None` when none, and on 10x10.
    pub(crate) opening: Option<(&'static str, String)>,
}

/// The game `arg` names, with its names, year and scores.
pub(crate) fn resolve_game(arg: &GameArg) -> anyhow::Result<ResolvedGame> {
    let (db, id) = open_game(&arg.game, arg.index, &arg.db)?;
    let game = db.game(id).expect("a game of the database");
    let file = db.file_of(id).expect("its file");
    let size = wthor_db::rules_size(game.board_size());
    let tokens = match size {
        Size::Eight => wthor_tokens::<Board8>(game.moves_raw()).collect(),
        Size::Ten => wthor_tokens::<Board10>(game.moves_raw()).collect(),
    };
    let name = |n: wthor_db::NameRef<'_>| (n.number, n.name.unwrap_or_default().to_owned());
    Ok(ResolvedGame {
        id: db.game_name(id).to_string(),
        size,
        tokens,
        black: name(db.black(id)),
        white: name(db.white(id)),
        tournament: name(db.tournament(id)),
        year: file.year(),
        real_score: game.real_score(),
        theoretical_score: game.theoretical_score(),
        depth: file.header().depth(),
        opening: wthor_db::openings::table()
            .opening_of_view(&game)
            .map(|o| (o.name(), o.transcript())),
    })
}

/// The database and the game that `game` (and `index`, for `FILE INDEX`)
/// name: an identity looked up in the database of `db`, else `PATH:INDEX`
/// or `FILE INDEX` of a file, opened with the names files of its directory.
///
/// # Errors
/// An unknown game or file, a file of another kind, an index beyond the
/// file (all exit 2).
pub(crate) fn open_game(
    game: &str,
    index: Option<usize>,
    db: &DbArgs,
) -> anyhow::Result<(Database, GameId)> {
    match index {
        Some(index) => file_game(db, Path::new(game), index),
        None if !db.sources().is_empty() => {
            let database = db.open()?;
            let id = database.parse_game_id(game).map_err(anyhow::Error::new)?;
            Ok((database, id))
        }
        None => {
            let (path, index) = game
                .rsplit_once(':')
                .and_then(|(p, i)| Some((p, i.parse::<usize>().ok()?)))
                .filter(|(p, _)| Path::new(p).is_file())
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "{game:?}: no database to look the game up in (give --db DIR or set \
                         WTHOR_DIR), and not PATH:INDEX of a file"
                    )
                })?;
            file_game(db, Path::new(path), index)
        }
    }
}

/// Game `index` of the game file `path`, in a database of that file and
/// the names files of its directory.
fn file_game(db_args: &DbArgs, path: &Path, index: usize) -> anyhow::Result<(Database, GameId)> {
    let (db, f) = open_file_with_names_strict(
        path,
        db_args.players.as_deref(),
        db_args.tournaments.as_deref(),
        db_args.strict,
    )?;
    crate::db_args::report_damage(&db);
    let file = &db.files()[f];
    if file.board_size().is_none() {
        anyhow::bail!("{}: not a game file ({})", path.display(), file.kind());
    }
    if index >= file.game_count() {
        anyhow::bail!(
            "{}: no record {index} (the file holds {}, indices from 0)",
            path.display(),
            crate::textfmt::count(file.len(), "game", "games")
        );
    }
    Ok((db, GameId::new(f, index)))
}

/// A database of the file `path` and the names files of its directory,
/// joined as the database joins them (the newest of the file's own
/// release, or `players`/`tournaments` when given: the rule of
/// [`wthor_db::DatabaseBuilder::source`] for a file), and the file's
/// position in it. Names files that cannot be read are left out (see
/// [`Database::skipped`]), with `strict` reading the files strictly
/// (`--strict`: a format warning is an error).
///
/// # Errors
/// When `path` itself cannot be opened.
pub(crate) fn open_file_with_names_strict(
    path: &Path,
    players: Option<&Path>,
    tournaments: Option<&Path>,
    strict: bool,
) -> anyhow::Result<(Database, usize)> {
    let mut builder = wthor_db::DatabaseBuilder::new().source(path);
    if strict {
        let mut options = wthor_db::OpenOptions::default();
        options.read.strict = true;
        builder = builder.options(options);
    }
    if let Some(p) = players {
        builder = builder.players(p);
    }
    if let Some(t) = tournaments {
        builder = builder.tournaments(t);
    }
    let db = builder.skip_damaged(!strict).open()?;
    // The file itself must have opened.
    if let Some(e) = db.skipped().iter().find(|e| e.path() == path) {
        return Err(anyhow::anyhow!("{}", wthor_db::error_chain(e)));
    }
    let f = db
        .files()
        .iter()
        .position(|f| f.path() == path)
        .context("the game file")?;
    Ok((db, f))
}

/// What to say of a name of game file `file` that is not known: the
/// number is beyond its names file, or there is no names file of its kind
/// for the game file at all.
pub(crate) fn unknown_name(db: &Database, file: usize, name: wthor_db::NameRef<'_>) -> String {
    let join = db.join(file);
    let has_file = match name.kind {
        wthor_format::NameKind::Players => join.players.is_some(),
        wthor_format::NameKind::Tournaments => join.tournaments.is_some(),
    };
    if has_file {
        format!("{name} is beyond its names file")
    } else {
        format!("{name}: no names file for its game file")
    }
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
