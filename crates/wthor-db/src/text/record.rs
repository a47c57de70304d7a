//! [`GameRecord`]: one game as data, with the one schema of a game in
//! every text a front end writes: the columns of the CSV export (the
//! seed's converter's names), the keys of the JSON Lines export, of
//! `wthor search --format csv|jsonl`, and of the server's JSON. The
//! writers of [`super::csv`] and [`super::jsonl`] are hand-written for
//! speed; a test holds them equal to this type's serialisation.

use serde::{Deserialize, Serialize};

use othello_core::notation::push_transcript;
use othello_core::{Move, Square};

use crate::{Database, GameId};

/// One game: identity, year, board size, names with their numbers,
/// scores, the moves (as a transcript and as a list), its opening, and both
/// players' ratings of its year.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GameRecord {
    /// The game's identity (`2001:5`, `FILE:INDEX`).
    pub game: String,
    /// The year of its file.
    pub year: u16,
    /// 8 or 10.
    pub board_size: u8,
    /// The tournament's number in the tournaments file.
    pub tournament_id: u16,
    /// Its name (`None` when the number is beyond the file).
    pub tournament_name: Option<String>,
    /// Black's number in the players file.
    pub black_player_id: u16,
    /// Black's name.
    pub black_player_name: Option<String>,
    /// White's number.
    pub white_player_id: u16,
    /// White's name.
    pub white_player_name: Option<String>,
    /// Black's discs at the end, as stored.
    pub black_score: u8,
    /// Black's discs after perfect play from `depth` empties, as stored.
    pub black_theoretical_score: u8,
    /// The empties of the theoretical score (the file's P3).
    pub depth: u8,
    /// The moves as a transcript (`f5d6c3…`), up to the first byte that is
    /// no square.
    pub transcript: String,
    /// The same moves, one square name each.
    pub moves: Vec<String>,
    /// The game's named opening: the deepest named position it passes
    /// through ([`crate::openings`]); `None` when it passes through none,
    /// and on 10x10. Absent in records written before it (read as `None`).
    #[serde(default)]
    pub opening: Option<String>,
    /// Black's rating of the game's year by the whole-history fit
    /// ([`Row::ratings`](super::Row::ratings)): `None` when unrated (`???`,
    /// 10x10). Absent in records written before it (read as `None`).
    #[serde(default)]
    pub black_rating: Option<f64>,
    /// White's rating, as [`black_rating`](Self::black_rating).
    #[serde(default)]
    pub white_rating: Option<f64>,
}

impl GameRecord {
    /// The record of game `id`, `None` when `db` has no such game.
    #[must_use]
    pub fn new(db: &Database, id: GameId) -> Option<GameRecord> {
        let row = super::row(db, id)?;
        let size = crate::rules_size(row.size);
        let moves: Vec<String> = row
            .game
            .moves_raw()
            .iter()
            .take_while(|&&b| b != 0)
            .map_while(|&b| Square::from_wthor(b, size))
            .map(|sq| {
                let mut name = Vec::with_capacity(3);
                push_transcript(&mut name, [Move::Play(sq)], size);
                String::from_utf8_lossy(&name).into_owned()
            })
            .collect();
        let (black_rating, white_rating) = row.ratings(db);
        Some(GameRecord {
            game: db.game_name(id).to_string(),
            year: row.year,
            board_size: row.size.side(),
            tournament_id: row.tournament.number,
            tournament_name: row.tournament.name.map(str::to_owned),
            black_player_id: row.black.number,
            black_player_name: row.black.name.map(str::to_owned),
            white_player_id: row.white.number,
            white_player_name: row.white.name.map(str::to_owned),
            black_score: row.game.real_score(),
            black_theoretical_score: row.game.theoretical_score(),
            depth: row.depth,
            transcript: moves.concat(),
            moves,
            opening: row.opening().map(|o| o.name().to_owned()),
            black_rating,
            white_rating,
        })
    }
}
