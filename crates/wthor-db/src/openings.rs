//! Named Othello openings, matched by position.
//!
//! The table is data, `data/openings.txt` (embedded with `include_str!`;
//! its format and sources are in its header and in `docs/openings.md`):
//! each line gives the moves of an opening from the start, its name, its
//! aliases (other English names, Japanese ones) and the lists that carry
//! it. [`table`] parses it once, replays each line and keys the position
//! it reaches by [`PositionKey`], canonical under the 8 symmetries: a game
//! that reaches a named position in another order (a transposition) or in
//! another orientation gets the same name.
//!
//! A game's opening is the **deepest named position it passes through**
//! ([`OpeningTable::opening_of_game`]): `f5d6c3d3c4` is the Tiger, and
//! the Tiger followed by `f4e3` the Brightwell.
//!
//! ```
//! use othello_core::{Size, notation::parse_transcript};
//! use wthor_db::openings;
//!
//! let table = openings::table();
//! let game = parse_transcript("f5d6c3d3c4f4e3f3e6", Size::Eight).unwrap();
//! assert_eq!(table.opening_of_game(&game).unwrap().name(), "Brightwell");
//! // The same position by another order of moves (a transposition).
//! let other = parse_transcript("f5d6c4d3c3", Size::Eight).unwrap();
//! assert_eq!(table.opening_of_game(&other).unwrap().name(), "Tiger");
//! // Names are found case- and accent-insensitively, aliases too.
//! assert_eq!(table.by_name("tora").unwrap().name(), "Tiger");
//! assert_eq!(table.by_name("KŌMORI").unwrap().name(), "Cow Bat");
//! ```
//!
//! A line that does not parse or replay is skipped and listed in
//! [`OpeningTable::problems`] (never a panic); the unit tests require the
//! embedded table to have none.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::sync::OnceLock;

use othello_core::position::forced_pass;
use othello_core::replay::{Token, wthor_tokens};
use othello_core::symmetry::{PositionKey, Symmetry};
use othello_core::{Bitboard, Board, Board8, Move, Size, Square, notation};

use wthor_format::{BoardSize, GameView};

use crate::Database;
use crate::names::fold;
use crate::stats::Results;

/// The embedded table's text.
pub const TABLE_TEXT: &str = include_str!("../data/openings.txt");

/// The embedded table, parsed on first use.
#[must_use]
pub fn table() -> &'static OpeningTable {
    static TABLE: OnceLock<OpeningTable> = OnceLock::new();
    TABLE.get_or_init(|| OpeningTable::parse(TABLE_TEXT))
}

/// One named opening: a line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    name: String,
    aliases: Vec<String>,
    moves: Vec<Move>,
    sources: Vec<String>,
    key: PositionKey,
    board: Board8,
    line: usize,
}

impl Opening {
    /// The name shown.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The other names of the same position, in table order.
    #[must_use]
    pub fn aliases(&self) -> &[String] {
        &self.aliases
    }

    /// The moves from the start position, as the table writes them.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// The moves as a transcript (`f5d6c3d3c4`).
    #[must_use]
    pub fn transcript(&self) -> String {
        notation::write_transcript(&self.moves, Size::Eight)
    }

    /// The tags of the lists that carry the name (`gatliff`, `nboard`,
    /// `egaroucid`, `ja`; see the table's header).
    #[must_use]
    pub fn sources(&self) -> &[String] {
        &self.sources
    }

    /// The named position's key (canonical under the 8 symmetries).
    #[must_use]
    pub fn key(&self) -> PositionKey {
        self.key
    }

    /// The named position, in the orientation of [`Opening::moves`].
    #[must_use]
    pub fn board(&self) -> Board8 {
        self.board
    }

    /// The line of the table (from 1).
    #[must_use]
    pub fn line(&self) -> usize {
        self.line
    }
}

/// What is wrong with a line of a table (the line is skipped).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProblemKind {
    /// Not three fields separated by ` ; `, or an empty name.
    Syntax,
    /// The moves are not a transcript.
    BadMoves,
    /// A move is illegal; its index from 0.
    Illegal(usize),
    /// The position is already named by the line given.
    SamePosition(usize),
    /// A name or alias (folded) already names the line given.
    SameName(usize),
}

/// A skipped line of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub kind: ProblemKind,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            ProblemKind::Syntax => f.write_str("not `MOVES ; NAME [| ALIAS]... ; SOURCES`"),
            ProblemKind::BadMoves => f.write_str("the moves are not a transcript"),
            ProblemKind::Illegal(i) => write!(f, "move {} is illegal", i + 1),
            ProblemKind::SamePosition(l) => write!(f, "the position is named on line {l}"),
            ProblemKind::SameName(l) => write!(f, "a name is already used on line {l}"),
        }
    }
}

/// The named continuations of a next move ([`OpeningTable::next_moves`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextMove<'a> {
    /// The move, in the orientation of the position asked about.
    pub square: Square,
    /// The named position it reaches, if any.
    pub named: Option<&'a Opening>,
    /// The nearest named positions further along the table's lines through
    /// the position it reaches (when that one is named, those beyond it).
    pub leads_to: Vec<&'a Opening>,
}

/// A parsed table of openings.
#[derive(Clone, Debug, Default)]
pub struct OpeningTable {
    openings: Vec<Opening>,
    by_key: HashMap<PositionKey, usize>,
    by_name: HashMap<String, usize>,
    /// Per position on a line (the start included): the nearest named
    /// positions further along the lines through it.
    through: HashMap<PositionKey, Vec<usize>>,
    /// The most discs of a named position: a replay stops beyond.
    max_discs: u32,
    /// The occupied squares of every named position in each of its 8
    /// orientations: a game's position whose occupied squares are none of
    /// these is named by no line, and its key need not be made.
    occupied: HashSet<u64>,
    problems: Vec<Problem>,
}

impl OpeningTable {
    /// Parses a table in the format of `data/openings.txt`. Lines that do
    /// not parse or replay, or that name a position or use a name already
    /// named, are skipped and listed in [`OpeningTable::problems`].
    #[must_use]
    pub fn parse(text: &str) -> OpeningTable {
        let mut t = OpeningTable::default();
        let mut lines_of: Vec<Vec<PositionKey>> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let raw = raw.trim();
            if raw.is_empty() || raw.starts_with('#') {
                continue;
            }
            let problem = |kind| Problem { line, kind };
            let fields: Vec<&str> = raw.split(" ; ").map(str::trim).collect();
            let [moves, names, sources] = fields[..] else {
                t.problems.push(problem(ProblemKind::Syntax));
                continue;
            };
            let names: Vec<String> = names.split('|').map(|n| n.trim().to_string()).collect();
            if names.iter().any(String::is_empty) {
                t.problems.push(problem(ProblemKind::Syntax));
                continue;
            }
            let Ok(moves) = notation::parse_transcript(moves, Size::Eight) else {
                t.problems.push(problem(ProblemKind::BadMoves));
                continue;
            };
            let mut board = Board8::start();
            let mut keys = vec![PositionKey::of(&board)];
            let mut illegal = None;
            for (k, &mv) in moves.iter().enumerate() {
                match board.play(mv) {
                    Ok(next) => board = next,
                    Err(_) => {
                        illegal = Some(k);
                        break;
                    }
                }
                keys.push(PositionKey::of(&board));
            }
            if let Some(k) = illegal {
                t.problems.push(problem(ProblemKind::Illegal(k)));
                continue;
            }
            let key = PositionKey::of(&board);
            if let Some(&other) = t.by_key.get(&key) {
                let kind = ProblemKind::SamePosition(t.openings[other].line);
                t.problems.push(problem(kind));
                continue;
            }
            let folded: Vec<String> = names.iter().map(|n| fold(n)).collect();
            if let Some(other) = folded.iter().find_map(|n| t.by_name.get(n)) {
                let kind = ProblemKind::SameName(t.openings[*other].line);
                t.problems.push(problem(kind));
                continue;
            }
            let index = t.openings.len();
            t.by_key.insert(key, index);
            for n in folded {
                t.by_name.entry(n).or_insert(index);
            }
            t.max_discs = t.max_discs.max(64 - board.empty_count());
            for s in Symmetry::ALL {
                let image = s.board(&board);
                t.occupied.insert(image.player() | image.opponent());
            }
            let mut names = names.into_iter();
            t.openings.push(Opening {
                name: names.next().unwrap_or_default(),
                aliases: names.collect(),
                moves,
                sources: sources.split_whitespace().map(str::to_string).collect(),
                key,
                board,
                line,
            });
            lines_of.push(keys);
        }
        // The nearest named positions along each line, from every position
        // of it (the position named by an intermediate line counts).
        for keys in &lines_of {
            for (j, from) in keys.iter().enumerate() {
                let next = keys[j + 1..].iter().find_map(|k| t.by_key.get(k).copied());
                if let Some(n) = next {
                    let list = t.through.entry(*from).or_default();
                    if !list.contains(&n) {
                        list.push(n);
                    }
                }
            }
        }
        for list in t.through.values_mut() {
            list.sort_unstable();
        }
        t
    }

    /// The openings, in table order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = &Opening> {
        self.openings.iter()
    }

    /// The number of openings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Whether the table names nothing.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }

    /// The lines skipped (none in the embedded table: a test checks it).
    #[must_use]
    pub fn problems(&self) -> &[Problem] {
        &self.problems
    }

    /// The opening whose name or alias is `name`, compared
    /// [`fold`]ed (case- and accent-insensitive, outer spaces ignored).
    #[must_use]
    pub fn by_name(&self, name: &str) -> Option<&Opening> {
        self.by_name.get(&fold(name)).map(|&i| &self.openings[i])
    }

    /// The openings with a name or alias containing `text` (folded), in
    /// table order.
    #[must_use]
    pub fn matching(&self, text: &str) -> Vec<&Opening> {
        let text = fold(text);
        self.openings
            .iter()
            .filter(|o| {
                std::iter::once(&o.name)
                    .chain(&o.aliases)
                    .any(|n| fold(n).contains(&text))
            })
            .collect()
    }

    /// The openings whose names or aliases are close to `text` by edit
    /// distance (Levenshtein, on characters of the [`fold`]ed names; an
    /// opening counts by its nearest name): at most `n`, nearest first
    /// (ties in table order), only names within [`close_distance`] of
    /// the text that keep at least one of its characters (none for a text
    /// like no name): what a front end suggests when
    /// [`by_name`](Self::by_name) finds nothing.
    #[must_use]
    pub fn closest(&self, text: &str, n: usize) -> Vec<&Opening> {
        let text: Vec<char> = fold(text).chars().collect();
        let mut scored: Vec<(usize, usize)> = self
            .openings
            .iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let d = std::iter::once(&o.name)
                    .chain(&o.aliases)
                    .filter_map(|name| close_to(&text, &fold(name).chars().collect::<Vec<_>>()))
                    .min()?;
                Some((d, i))
            })
            .collect();
        scored.sort_unstable();
        scored
            .into_iter()
            .take(n)
            .map(|(_, i)| &self.openings[i])
            .collect()
    }

    /// `None` when `name` names an opening ([`by_name`](Self::by_name));
    /// else the sentence a front end shows: that no opening has that
    /// name, and the three [`closest`](Self::closest) names, or that none
    /// is close.
    #[must_use]
    pub fn unknown_name_note(&self, name: &str) -> Option<String> {
        if self.by_name(name).is_some() {
            return None;
        }
        let closest: Vec<&str> = self.closest(name, 3).iter().map(|o| o.name()).collect();
        Some(if closest.is_empty() {
            format!("no opening is named {name:?}, and no name is close to it")
        } else {
            format!(
                "no opening is named {name:?}; the closest names: {}",
                closest.join(", ")
            )
        })
    }

    /// The opening of a game record: [`opening_of_wthor`](Self::opening_of_wthor)
    /// on an 8x8 game, `None` on a 10x10 one (the table names 8x8
    /// positions only).
    #[must_use]
    pub fn opening_of_view(&self, game: &GameView<'_>) -> Option<&Opening> {
        if game.board_size() == BoardSize::Eight {
            self.opening_of_wthor(game.moves_raw())
        } else {
            None
        }
    }

    /// The opening named at `board` (in any orientation), if any.
    #[must_use]
    pub fn name_of_position(&self, board: &Board8) -> Option<&Opening> {
        self.by_key
            .get(&PositionKey::of(board))
            .map(|&i| &self.openings[i])
    }

    /// The opening of a game from the start: the deepest named position
    /// it passes through (by position, so that transpositions and the
    /// orientations of a game agree). Missing passes are inserted as in
    /// [`othello_core::replay`]; the game is read up to its first illegal
    /// move.
    #[must_use]
    pub fn opening_of_game(&self, moves: &[Move]) -> Option<&Opening> {
        self.deepest(moves.iter().copied())
    }

    /// [`opening_of_game`](Self::opening_of_game) of WTHOR move bytes
    /// (8x8).
    #[must_use]
    pub fn opening_of_wthor(&self, bytes: &[u8]) -> Option<&Opening> {
        self.deepest(wthor_moves(bytes))
    }

    fn deepest(&self, moves: impl IntoIterator<Item = Move>) -> Option<&Opening> {
        let mut found = None;
        self.walk(moves, |i| found = Some(i));
        found.map(|i| &self.openings[i])
    }

    /// Calls `named` with the index of each named position a game passes
    /// through, in order (after a move that leaves the other side without
    /// a move, the position after its pass); stops at the first illegal
    /// move or beyond the deepest named position.
    fn walk(&self, moves: impl IntoIterator<Item = Move>, mut named: impl FnMut(usize)) {
        let mut board = Board8::start();
        for mv in moves {
            if 64 - board.empty_count() >= self.max_discs {
                break;
            }
            board = match board.play(mv) {
                Ok(next) => next,
                Err(_) if mv != Move::Pass => match forced_pass(&board).map(|p| p.play(mv)) {
                    Some(Ok(next)) => next,
                    _ => break,
                },
                Err(_) => break,
            };
            if self.occupied.contains(&(board.player() | board.opponent())) {
                // A side that must pass passes: the position passed through
                // is the other side's (as the query's position filter and
                // a replay's steps see it).
                let found = self
                    .by_key
                    .get(&PositionKey::of(&board))
                    .or_else(|| self.by_key.get(&PositionKey::of(&forced_pass(&board)?)));
                if let Some(&i) = found {
                    named(i);
                }
            }
        }
    }

    /// For each opening (in table order), the 8x8 games of `db` that pass
    /// through its position, with black's results: one parallel scan
    /// ([`Database::par_fold`]). A game counts for every named position it
    /// passes through, the Tiger's games include the Brightwell's.
    #[must_use]
    pub fn tally(&self, db: &Database) -> Vec<Results> {
        let n = self.openings.len();
        db.par_fold(
            || vec![Results::default(); n],
            |acc, g| {
                if g.file.board_size() != Some(BoardSize::Eight) {
                    return;
                }
                self.walk(wthor_moves(g.game.moves_raw()), |i| {
                    acc[i].add_game(&g.game);
                });
            },
            |mut a, b| {
                for (x, y) in a.iter_mut().zip(&b) {
                    x.merge(y);
                }
                a
            },
        )
    }

    /// The nearest named positions further along the table's lines
    /// through `board` (for a named position: the names it leads to), in
    /// table order.
    #[must_use]
    pub fn continuations(&self, board: &Board8) -> Vec<&Opening> {
        self.through
            .get(&PositionKey::of(board))
            .map(|list| list.iter().map(|&i| &self.openings[i]).collect())
            .unwrap_or_default()
    }

    /// For an explorer: each legal move of `board` (in its orientation)
    /// that reaches a named position or a position on the table's lines,
    /// with the name it reaches and the names it leads to.
    #[must_use]
    pub fn next_moves(&self, board: &Board8) -> Vec<NextMove<'_>> {
        board
            .legal_moves()
            .squares()
            .filter_map(|square| {
                let next = board.play_unchecked(square);
                let named = self.name_of_position(&next);
                let leads_to = self.continuations(&next);
                (named.is_some() || !leads_to.is_empty()).then_some(NextMove {
                    square,
                    named,
                    leads_to,
                })
            })
            .collect()
    }
}

/// The largest edit distance at which a name is close to a text of `len`
/// characters (folded): a third of the text, rounded up (at least 1), so
/// that a typo in a third of the letters is forgiven, and one transposed
/// pair (2 edits: `tigre` for `tiger`) from 4 letters on.
/// [`OpeningTable::closest`] suggests only names within it: `bufalo` is 1
/// from `buffalo` (within 2), `xyzzy` 5 from `tiger` (not), and a short
/// text only names as short (`x` none of `cat`, 3 away).
///
/// ```
/// use wthor_db::openings::close_distance;
///
/// assert_eq!(close_distance(1), 1);
/// assert_eq!(close_distance(5), 2); // "tigre"
/// assert_eq!(close_distance(13), 5); // "perpendiculer"
/// ```
#[must_use]
pub const fn close_distance(len: usize) -> usize {
    if len < 3 { 1 } else { len.div_ceil(3) }
}

/// The edit distance from `text` to `name` (characters of [`fold`]ed
/// strings) when the name is close: within [`close_distance`] of the
/// text, and keeping at least one of its characters (every character
/// replaced is no likeness); `None` otherwise. The one rule of the
/// suggestions for an unknown name (openings, rated players).
#[must_use]
pub fn close_to(text: &[char], name: &[char]) -> Option<usize> {
    let d = edit_distance(text, name);
    (d <= close_distance(text.len()) && d < text.len().max(name.len())).then_some(d)
}

/// The edit distance (Levenshtein: the fewest insertions, deletions and
/// substitutions of one character) between two strings of characters:
/// what [`OpeningTable::closest`] ranks names by, on [`fold`]ed names, for
/// a front end that ranks other names (players, tournaments) the same way.
///
/// ```
/// use wthor_db::openings::edit_distance;
///
/// let chars = |s: &str| s.chars().collect::<Vec<_>>();
/// assert_eq!(edit_distance(&chars("tigre"), &chars("tiger")), 2);
/// assert_eq!(edit_distance(&chars("Rose"), &chars("rose")), 1);
/// ```
#[must_use]
pub fn edit_distance(a: &[char], b: &[char]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitute = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitute.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// The moves of WTHOR move bytes (8x8), up to the first byte naming no
/// square.
fn wthor_moves(bytes: &[u8]) -> impl Iterator<Item = Move> + '_ {
    wthor_tokens::<Board8>(bytes).map_while(|t| match t {
        Token::Move(m) => Some(m),
        Token::OffBoard(_) => None,
    })
}
