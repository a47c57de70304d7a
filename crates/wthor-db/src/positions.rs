//! The positions of games as columns: one replay of each game, in
//! parallel over the games, into plain vectors (Python's
//! `Database.positions()` hands them over as NumPy arrays without a copy;
//! `text::parquet` writes them as the positions table, under the same
//! column names).
//!
//! One row per position *from which a move or a pass is made*: the start
//! position, every position after a move, and the positions where a side
//! passes (WTHOR stores no passes; the replay inserts them). The final
//! position of a game (no move made from it) is not a row. A game with an
//! illegal move gives the rows before it.
//!
//! | column | dtype | meaning |
//! |---|---|---|
//! | `player` | `uint64` | the discs of the side to move (bit `8 × row + column`, a1 = bit 0, h8 = bit 63) |
//! | `opponent` | `uint64` | the discs of the other side |
//! | `side` | `uint8` | the side to move: 0 black, 1 white |
//! | `ply` | `uint8` | moves and passes made before this position (0 at the start) |
//! | `move` | `uint8` | the move made from it: its square (`8 × row + column`), or [`PASS`] (64) |
//! | `final` | `int8` | the game's final disc difference from the side to move's view, from the record's real score (`2 × black discs − 64`, negated when white moves) |
//! | `theoretical` | `int8` | the record's theoretical score (perfect play from the position with the file's depth of empties), as a disc difference from the side to move's view, on positions with at most that many empties; [`NO_SCORE`] (−128) on earlier ones |
//! | `game` | `uint32` | the database-wide number of the game (its row in Python's `games_table()`, [`Database::game_numbers`](crate::Database::game_numbers)) |
//! | `symmetry` | `uint8` | with `augment=True` only: the symmetry applied (0–7, see [`augment`]) |
//!
//! On positions after the depth the `theoretical` column still holds the
//! game's theoretical score: the exact value of such a position differs
//! when a player erred after the depth.

use crate::scan::GameRef;
use crate::{Database, GameId};
use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Color, Move, Size, Square};
use rayon::prelude::*;
use wthor_format::{BoardSize, GameView};

/// The `move` of a pass.
pub const PASS: u8 = 64;

/// The `theoretical` of a position earlier than the file's depth.
pub const NO_SCORE: i8 = i8::MIN;

/// The columns of a set of positions (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Columns {
    /// Discs of the side to move.
    pub player: Vec<u64>,
    /// Discs of the other side.
    pub opponent: Vec<u64>,
    /// 0 black, 1 white.
    pub side: Vec<u8>,
    /// Moves and passes before the position.
    pub ply: Vec<u8>,
    /// The square played from the position, or [`PASS`].
    pub moves: Vec<u8>,
    /// Final disc difference for the side to move.
    pub final_diff: Vec<i8>,
    /// Theoretical disc difference for the side to move, or [`NO_SCORE`].
    pub theoretical: Vec<i8>,
    /// Database-wide game index.
    pub game: Vec<u32>,
    /// The symmetry applied (augmented columns only).
    pub symmetry: Option<Vec<u8>>,
}

/// One 8x8 game to turn into rows.
#[derive(Clone, Copy, Debug)]
pub struct GameRows<'a> {
    /// The record.
    pub view: GameView<'a>,
    /// The depth of the file's theoretical scores (empties).
    pub depth: u8,
    /// The database-wide game index.
    pub game: u32,
}

/// A disc count of black (0–64 on 8x8) as black's disc difference,
/// clamped to `i8` for damaged records.
fn black_diff(discs: u8) -> i8 {
    let d = 2 * i16::from(discs) - 64;
    d.clamp(-127, 127) as i8
}

impl Columns {
    /// The number of rows.
    #[must_use]
    pub fn len(&self) -> usize {
        self.player.len()
    }

    /// Whether there is no row.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.player.is_empty()
    }

    pub(crate) fn with_capacity(n: usize) -> Columns {
        Columns {
            player: Vec::with_capacity(n),
            opponent: Vec::with_capacity(n),
            side: Vec::with_capacity(n),
            ply: Vec::with_capacity(n),
            moves: Vec::with_capacity(n),
            final_diff: Vec::with_capacity(n),
            theoretical: Vec::with_capacity(n),
            game: Vec::with_capacity(n),
            symmetry: None,
        }
    }

    /// Appends the rows of one 8x8 game (nothing for a 10x10 record);
    /// false when a move that is no square or illegal stopped the replay
    /// (the rows before it are appended).
    pub fn push_game(&mut self, g: &GameRows<'_>) -> bool {
        if g.view.board_size() != BoardSize::Eight {
            return true;
        }
        let final_black = black_diff(g.view.real_score());
        let theo_black = black_diff(g.view.theoretical_score());
        let depth = u32::from(g.depth);
        let mut before = Board8::start();
        let mut ply: u8 = 0;
        let replay =
            replay_with::<Board8, _, _>(wthor_tokens::<Board8>(g.view.moves_raw()), |step| {
                let white = before.side_to_move() == Color::White;
                let view = |d: i8| if white { -d } else { d };
                self.player.push(before.player());
                self.opponent.push(before.opponent());
                self.side.push(u8::from(white));
                self.ply.push(ply);
                self.moves.push(match step.mv {
                    Move::Play(sq) => sq.index() as u8,
                    Move::Pass => PASS,
                });
                self.final_diff.push(view(final_black));
                self.theoretical.push(if before.empty_count() <= depth {
                    view(theo_black)
                } else {
                    NO_SCORE
                });
                self.game.push(g.game);
                ply = ply.saturating_add(1);
                before = step.board;
            });
        replay.is_legal()
    }

    /// The rows `i` where `keep[i]`, in order (`keep` as long as the
    /// columns).
    #[must_use]
    pub fn filter(&self, keep: &[bool]) -> Columns {
        fn pick<T: Copy>(v: &[T], keep: &[bool]) -> Vec<T> {
            v.iter()
                .zip(keep)
                .filter(|(_, k)| **k)
                .map(|(x, _)| *x)
                .collect()
        }
        Columns {
            player: pick(&self.player, keep),
            opponent: pick(&self.opponent, keep),
            side: pick(&self.side, keep),
            ply: pick(&self.ply, keep),
            moves: pick(&self.moves, keep),
            final_diff: pick(&self.final_diff, keep),
            theoretical: pick(&self.theoretical, keep),
            game: pick(&self.game, keep),
            symmetry: self.symmetry.as_deref().map(|s| pick(s, keep)),
        }
    }

    /// Concatenates `parts` in order, the columns copied in parallel.
    pub(crate) fn concat(parts: &[Columns]) -> Columns {
        /// One column of every part, end to end.
        fn cat<T: Copy + Send + Sync>(parts: &[Columns], get: fn(&Columns) -> &[T]) -> Vec<T> {
            let mut out = Vec::with_capacity(parts.iter().map(|p| get(p).len()).sum());
            for p in parts {
                out.extend_from_slice(get(p));
            }
            out
        }
        let mut c = Columns::default();
        let augmented = parts.iter().any(|p| p.symmetry.is_some());
        rayon::scope(|s| {
            s.spawn(|_| c.player = cat(parts, |p| &p.player));
            s.spawn(|_| c.opponent = cat(parts, |p| &p.opponent));
            s.spawn(|_| c.game = cat(parts, |p| &p.game));
            s.spawn(|_| {
                c.side = cat(parts, |p| &p.side);
                c.ply = cat(parts, |p| &p.ply);
                c.moves = cat(parts, |p| &p.moves);
                c.final_diff = cat(parts, |p| &p.final_diff);
                c.theoretical = cat(parts, |p| &p.theoretical);
                if augmented {
                    c.symmetry = Some(cat(parts, |p| p.symmetry.as_deref().unwrap_or(&[])));
                }
            });
        });
        c
    }
}

/// The rows of the games `ids`, in the order given, built in parallel on
/// the database's walk over a list of games
/// ([`Database::par_chunks_ids`]; the result does not depend on the number
/// of threads), `rows` giving what each game needs; 10x10 games give no
/// rows.
#[must_use]
pub fn collect<'a>(
    db: &'a Database,
    ids: &[GameId],
    rows: impl Fn(GameRef<'a>) -> GameRows<'a> + Sync + Send,
) -> Columns {
    collect_counted(db, ids, rows).0
}

/// [`collect`], and the number of games whose replay stopped at a move
/// that is no square or illegal (their rows before it are kept).
#[must_use]
pub fn collect_counted<'a>(
    db: &'a Database,
    ids: &[GameId],
    rows: impl Fn(GameRef<'a>) -> GameRows<'a> + Sync + Send,
) -> (Columns, usize) {
    // About 61 positions a game, in chunks of at most 256 games.
    let capacity = 61 * ids.len().min(256);
    let parts = db.par_chunks_ids(
        ids,
        || (Columns::with_capacity(capacity), 0),
        |(c, stopped), g| {
            if !c.push_game(&rows(g)) {
                *stopped += 1;
            }
        },
    );
    let stopped = parts.iter().map(|p| p.1).sum();
    let parts: Vec<Columns> = parts.into_iter().map(|p| p.0).collect();
    (Columns::concat(&parts), stopped)
}

/// The rows of one game.
#[must_use]
pub fn of_game(game: &GameRows<'_>) -> Columns {
    let mut c = Columns::default();
    c.push_game(game);
    c
}

/// The 8 symmetric images of every row: 8 blocks of `columns.len()` rows,
/// block `k` the image under symmetry `k` (block 0, the identity, equals
/// the input). Symmetry `k` transposes the board (swaps columns and rows)
/// when `k & 4`, then reverses the columns (a ↔ h) when `k & 1`, then the
/// rows (1 ↔ 8) when `k & 2` (`othello_core::symmetry::Symmetry::ALL[k]`).
/// Discs and the move are mapped; the other columns are copied.
#[must_use]
pub fn augment(columns: &Columns) -> Columns {
    let blocks: Vec<Columns> = Symmetry::ALL
        .par_iter()
        .enumerate()
        .map(|(k, &sym)| {
            let mut c = columns.clone();
            for x in c.player.iter_mut().chain(c.opponent.iter_mut()) {
                *x = sym.bits8(*x);
            }
            for m in &mut c.moves {
                if *m != PASS {
                    *m = sym.square(Square::new_unchecked(*m), Size::Eight).index() as u8;
                }
            }
            c.symmetry = Some(vec![k as u8; c.len()]);
            c
        })
        .collect();
    Columns::concat(&blocks)
}
