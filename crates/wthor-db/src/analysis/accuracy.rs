//! Endgame accuracy per player, from analysed games ([`GameAnalysis`],
//! the lines of `wthor analyze --results`): moves judged, mean loss per
//! move, share of perfect moves and the worst blunders, per player or per
//! player and year.

use std::collections::{BTreeMap, HashSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::record::{GameAnalysis, Side};
use crate::NamePattern;
use crate::verify::{LogKind, RecordKey};

/// One blunder: a move of a game and the discs it lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Blunder {
    /// The game (`2001:3`).
    pub game: String,
    /// The move's number, from 1.
    pub number: usize,
    /// Its square.
    pub square: String,
    /// The discs it lost.
    pub loss: i32,
}

/// The accuracy of one player (of one year, with
/// [`AccuracyOptions::by_year`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerAccuracy {
    /// The player's name.
    pub player: String,
    /// The year, when by year.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub year: Option<u16>,
    /// Games with at least one of their moves judged.
    pub games: usize,
    /// Moves judged.
    pub moves: usize,
    /// The sum of their losses, in discs.
    pub total_loss: i64,
    /// Moves that lost nothing.
    pub perfect: usize,
    /// The mean loss per move (`total_loss / moves`).
    pub mean_loss: f64,
    /// The share of perfect moves, from 0 to 1.
    pub perfect_share: f64,
    /// The largest losses, largest first (then in game order).
    pub worst: Vec<Blunder>,
}

/// How the accuracy table is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccuracyOptions {
    /// Only the rows of players matching one of these (all when empty):
    /// the `--player` names of the filters, as the player records do.
    pub players: Vec<NamePattern>,
    /// A row per player and year.
    pub by_year: bool,
    /// Rows with fewer moves judged are left out.
    pub min_moves: usize,
    /// Blunders kept per row.
    pub worst: usize,
}

impl Default for AccuracyOptions {
    fn default() -> Self {
        AccuracyOptions {
            players: Vec::new(),
            by_year: false,
            min_moves: 1,
            worst: 3,
        }
    }
}

/// The costliest moves of the player named exactly `player` in `games`:
/// with `side` only that colour's, with `since` only games of that year
/// and later; the `n` largest losses (largest first, then in the order of
/// `games`), each game counted once (the first seen). A preparation
/// report's worst endgame mistakes.
#[must_use]
pub fn worst_moves<'a>(
    games: impl IntoIterator<Item = &'a GameAnalysis>,
    player: &str,
    side: Option<Side>,
    since: Option<u16>,
    n: usize,
) -> Vec<Blunder> {
    let mut seen = HashSet::new();
    let mut worst = Vec::new();
    for g in games {
        if since.is_some_and(|y| g.year < y) || !seen.insert(g.game.as_str()) {
            continue;
        }
        for m in &g.moves {
            if m.loss > 0 && side.is_none_or(|s| s == m.side) && g.player(m.side) == player {
                worst.push(Blunder {
                    game: g.game.clone(),
                    number: m.number,
                    square: m.square.clone(),
                    loss: m.loss,
                });
            }
        }
    }
    worst.sort_by_key(|b| std::cmp::Reverse(b.loss));
    worst.truncate(n);
    worst
}

/// The accuracy rows of `games`: the most accurate first (lowest mean
/// loss, then more moves, then by name and year). Games analysed twice (the
/// same identity in several logs) count once: the first seen.
#[must_use]
pub fn accuracy<'a>(
    games: impl IntoIterator<Item = &'a GameAnalysis>,
    options: &AccuracyOptions,
) -> Vec<PlayerAccuracy> {
    #[derive(Default)]
    struct Acc {
        games: usize,
        moves: usize,
        loss: i64,
        perfect: usize,
        worst: Vec<Blunder>,
    }
    let mut seen = std::collections::HashSet::new();
    let mut rows: BTreeMap<(String, Option<u16>), Acc> = BTreeMap::new();
    for g in games {
        if !seen.insert(g.game.as_str()) {
            continue;
        }
        for side in [Side::Black, Side::White] {
            let mut moves = g.moves.iter().filter(|m| m.side == side).peekable();
            if moves.peek().is_none() {
                continue;
            }
            let year = options.by_year.then_some(g.year);
            let acc = rows.entry((g.player(side).to_owned(), year)).or_default();
            acc.games += 1;
            for m in moves {
                acc.moves += 1;
                acc.loss += i64::from(m.loss);
                acc.perfect += usize::from(m.loss == 0);
                if m.loss > 0 {
                    acc.worst.push(Blunder {
                        game: g.game.clone(),
                        number: m.number,
                        square: m.square.clone(),
                        loss: m.loss,
                    });
                }
            }
        }
    }
    let mut out: Vec<PlayerAccuracy> = rows
        .into_iter()
        .filter(|((player, _), a)| {
            a.moves >= options.min_moves.max(1)
                && (options.players.is_empty() || options.players.iter().any(|p| p.matches(player)))
        })
        .map(|((player, year), mut a)| {
            // Stable: equal losses stay in the order met (game order).
            a.worst.sort_by_key(|b| std::cmp::Reverse(b.loss));
            a.worst.truncate(options.worst);
            PlayerAccuracy {
                player,
                year,
                games: a.games,
                moves: a.moves,
                total_loss: a.loss,
                perfect: a.perfect,
                mean_loss: a.loss as f64 / a.moves as f64,
                perfect_share: a.perfect as f64 / a.moves as f64,
                worst: a.worst,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        a.mean_loss
            .total_cmp(&b.mean_loss)
            .then(b.moves.cmp(&a.moves))
            .then_with(|| a.player.cmp(&b.player))
            .then(a.year.cmp(&b.year))
    });
    out
}

/// One line of a results log of `wthor analyze`: the game's key and its
/// analysis.
#[derive(serde::Deserialize)]
struct Line {
    #[serde(flatten)]
    key: RecordKey,
    #[serde(flatten)]
    game: GameAnalysis,
}

/// The analysed games of a results log, each with the key that names its
/// record, and the warnings about the lines left out.
#[derive(Debug, Default)]
pub struct AnalysisLog {
    /// The games, in the order of the log.
    pub games: Vec<(RecordKey, GameAnalysis)>,
    /// One message per line that is not an analysed game.
    pub warnings: Vec<String>,
}

/// Reads the analysed games of a results log (each with its key, which
/// names the record) without changing it. A line
/// that is not an analysed game (a damaged line) is left out with a
/// warning naming its line; the rest is kept. A last line without its
/// newline (an interrupted run) too. A line of another command's log
/// (`validate --solve`, `puzzles --verify`: [`LogKind`]) refuses the
/// whole file: it is the wrong log, not a damaged one.
///
/// # Errors
/// [`LogReadError::Io`] when the file cannot be read,
/// [`LogReadError::OtherKind`] at the first line of another command's log.
pub fn read_analyses(path: &Path) -> Result<AnalysisLog, LogReadError> {
    let io = |source| LogReadError::Io {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader = BufReader::new(file);
    let (mut games, mut warnings) = (Vec::new(), Vec::new());
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(io)? == 0 {
            break;
        }
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Line>(&text) {
            Ok(line) => games.push((line.key, line.game)),
            Err(e) => {
                let kind = serde_json::from_str::<serde_json::Value>(&text)
                    .ok()
                    .and_then(|v| LogKind::of(&v));
                if let Some(kind) = kind.filter(|k| *k != LogKind::Analysis) {
                    return Err(LogReadError::OtherKind {
                        path: path.to_owned(),
                        line: number,
                        kind,
                    });
                }
                warnings.push(format!(
                    "{}: line {number}: not an analysed game ({e}): left out",
                    path.display()
                ));
            }
        }
    }
    Ok(AnalysisLog { games, warnings })
}

/// A results log that cannot be read as analysed games.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LogReadError {
    /// The file could not be read.
    #[error("{}: cannot read the results file", path.display())]
    Io {
        /// The log.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A line of another command's results log.
    #[error(
        "{}:{line}: a result of wthor {}: the accuracy tables read the results of wthor analyze",
        path.display(),
        kind.command()
    )]
    OtherKind {
        /// The log.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The command whose result it is.
        kind: LogKind,
    },
}

/// Reads the logs `paths` in turn ([`read_analyses`]), keeping the games
/// whose keys `selected` holds (every game when `None`: the keys of the
/// games a query selects, [`RecordKey::of_game`]).
///
/// # Errors
/// The first log that cannot be read, or that holds a line of another
/// command's results ([`read_analyses`]).
pub fn read_selected(
    paths: &[PathBuf],
    selected: Option<&HashSet<RecordKey>>,
) -> Result<AnalysisLog, LogReadError> {
    let mut all = AnalysisLog::default();
    for path in paths {
        let log = read_analyses(path)?;
        all.warnings.extend(log.warnings);
        all.games.extend(
            log.games
                .into_iter()
                .filter(|(key, _)| selected.is_none_or(|s| s.contains(key))),
        );
    }
    Ok(all)
}

/// The analysed games of the logs `paths` that are games of `db` (matched
/// by record key: file, creation date, index, moves), each renamed as `db`
/// names it, in the order of the logs; with the warnings: the lines that
/// are no analysed game, and per log the games of another database, left
/// out.
///
/// # Errors
/// The first log that cannot be read, or that holds a line of another
/// command's results ([`read_analyses`]).
pub fn read_matched(db: &crate::Database, paths: &[PathBuf]) -> Result<MatchedLogs, LogReadError> {
    let keys: std::collections::HashMap<RecordKey, crate::GameId> = db
        .games()
        .map(|(f, i, _)| crate::GameId::new(f, i))
        .filter_map(|id| RecordKey::of_game(db, id).map(|k| (k, id)))
        .collect();
    let (mut games, mut warnings) = (Vec::new(), Vec::new());
    for path in paths {
        let log = read_analyses(path)?;
        warnings.extend(log.warnings);
        let total = log.games.len();
        let mut unmatched = 0;
        for (key, mut game) in log.games {
            match keys.get(&key) {
                Some(&id) => {
                    game.game = db.game_name(id).to_string();
                    games.push((id, game));
                }
                None => unmatched += 1,
            }
        }
        if unmatched > 0 {
            warnings.push(format!(
                "{}: {unmatched} of its {total} analysed games are not games of this database \
                 (matched by record key: file, creation date, index, moves); they are left out",
                path.display()
            ));
        }
    }
    Ok(MatchedLogs { games, warnings })
}

/// The analysed games of logs that are games of a database
/// ([`read_matched`]).
#[derive(Debug, Default)]
pub struct MatchedLogs {
    /// Each game, named as the database names it, in the order of the logs.
    pub games: Vec<(crate::GameId, GameAnalysis)>,
    /// The lines that are no analysed game, and per log the games of
    /// another database (left out).
    pub warnings: Vec<String>,
}
