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
/// scores, and the moves (as a transcript and as a list).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{ExportOptions, Format, export};

    /// The fast writers agree with the type on every fixture game.
    #[test]
    fn the_export_writers_write_the_record() {
        let testdata = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata");
        let db = Database::open(testdata).unwrap();
        let ids: Vec<GameId> = db.search(&crate::Query::new()).unwrap();
        assert!(ids.len() > 3000);
        let records: Vec<GameRecord> = ids
            .iter()
            .map(|&id| GameRecord::new(&db, id).unwrap())
            .collect();
        let run = |format| {
            let mut out = Vec::new();
            export(
                &db,
                &ids,
                &ExportOptions {
                    format,
                    empties: None,
                },
                &mut out,
            )
            .unwrap();
            String::from_utf8(out).unwrap()
        };
        let jsonl = run(Format::Jsonl);
        let mut expected = String::new();
        for r in &records {
            expected.push_str(&serde_json::to_string(r).unwrap());
            expected.push('\n');
        }
        assert_eq!(jsonl, expected);
        // Read back as the type.
        for (line, r) in jsonl.lines().zip(&records) {
            assert_eq!(&serde_json::from_str::<GameRecord>(line).unwrap(), r);
        }
        // The CSV: the same fields but `moves`, a name beyond its file empty.
        let csv = run(Format::Csv);
        let mut reader = ::csv::Reader::from_reader(csv.as_bytes());
        assert_eq!(
            reader.headers().unwrap().iter().collect::<Vec<_>>(),
            super::super::csv::COLUMNS
        );
        let mut n = 0;
        for (row, r) in reader.records().zip(&records) {
            let row = row.unwrap();
            let name = |n: &Option<String>| n.clone().unwrap_or_default();
            let want = [
                r.game.clone(),
                r.year.to_string(),
                r.board_size.to_string(),
                r.tournament_id.to_string(),
                name(&r.tournament_name),
                r.black_player_id.to_string(),
                name(&r.black_player_name),
                r.white_player_id.to_string(),
                name(&r.white_player_name),
                r.black_score.to_string(),
                r.black_theoretical_score.to_string(),
                r.depth.to_string(),
                r.transcript.clone(),
                name(&r.opening),
            ];
            assert_eq!(row.iter().collect::<Vec<_>>(), want);
            n += 1;
        }
        assert_eq!(n, records.len());
        // Named openings, and none on 10x10.
        let named = records.iter().filter(|r| r.opening.is_some()).count();
        assert!(named > records.len() / 2, "{named} of {}", records.len());
        assert!(
            records
                .iter()
                .filter(|r| r.board_size == 10)
                .all(|r| r.opening.is_none())
        );
        let tiger = records
            .iter()
            .find(|r| r.transcript.starts_with("f5d6c3d3c4"));
        if let Some(r) = tiger {
            let o = crate::openings::table().opening_of_game(
                &othello_core::notation::parse_transcript(&r.transcript, othello_core::Size::Eight)
                    .unwrap(),
            );
            assert_eq!(r.opening.as_deref(), o.map(|o| o.name()));
        }
        // GGF: `GN`, read back as a property.
        let ggf = run(Format::Ggf);
        for (line, r) in ggf.lines().zip(&records) {
            let g = crate::text::ggf::parse_ggf(line).unwrap();
            assert_eq!(g.get("GN"), r.opening.as_deref(), "{line}");
        }
        // A record written before the field reads back without it.
        let mut old = serde_json::to_value(&records[0]).unwrap();
        old.as_object_mut().unwrap().remove("opening");
        let back: GameRecord = serde_json::from_value(old).unwrap();
        assert_eq!(back.opening, None);
    }
}
