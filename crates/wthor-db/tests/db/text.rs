//! The text formats (`wthor_db::text`): what one writer writes, the one
//! reader reads back (moves, names, year, score); the GGF reader reads or
//! refuses any text, never a panic, and reads back the games written with
//! their colours.

use othello_core::replay::{Token, replay_with, wthor_tokens};
use othello_core::{Board8, Color, Move, Size};
use proptest::prelude::*;
use wthor_db::text::ggf::{parse_ggf, parse_ggf_growing};
use wthor_db::text::read::{NamesFiles, read_input};
use wthor_db::text::{ExportOptions, Format, export};
use wthor_db::{Database, GameId};

fn testdata_8x8() -> (Database, Vec<GameId>) {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(dir).unwrap();
    let ids: Vec<GameId> = db
        .search(&wthor_db::Query::new())
        .unwrap()
        .into_iter()
        .filter(|&id| db.file_of(id).unwrap().board_size() == Some(wthor_format::BoardSize::Eight))
        .collect();
    (db, ids)
}

/// The moves of a WTHOR game, passes left out (as in a transcript).
fn wthor_moves(db: &Database, id: GameId) -> Vec<Move> {
    wthor_tokens::<Board8>(db.game(id).unwrap().moves_raw())
        .map_while(|t| match t {
            Token::Move(m) => Some(m),
            Token::OffBoard(_) => None,
        })
        .collect()
}

#[test]
fn exported_games_read_back_in_every_readable_format() {
    let (db, ids) = testdata_8x8();
    assert!(ids.len() > 10);
    let dir = tempfile::tempdir().unwrap();
    for (format, ext) in [
        (Format::Csv, "csv"),
        (Format::Jsonl, "jsonl"),
        (Format::Ggf, "ggf"),
    ] {
        let path = dir.path().join(format!("games.{ext}"));
        let mut bytes = Vec::new();
        let options = ExportOptions {
            format,
            empties: None,
        };
        let counts = export(&db, &ids, &options, &mut bytes).unwrap();
        assert_eq!(counts.written, ids.len());
        std::fs::write(&path, &bytes).unwrap();
        let read = read_input(&path, &NamesFiles::default(), None).unwrap();
        assert!(read.unreadable.is_empty(), "{ext}: {:?}", read.unreadable);
        assert_eq!(read.games.len(), ids.len(), "{ext}");
        for (game, &id) in read.games.iter().zip(&ids) {
            // GGF writes the passes; the others leave them to replay.
            let moves: Vec<Move> = game
                .moves
                .iter()
                .copied()
                .filter(|&m| m != Move::Pass)
                .collect();
            assert_eq!(moves, wthor_moves(&db, id), "{ext} {}", db.game_name(id));
            let name = |n: wthor_db::NameRef<'_>| n.name.unwrap_or("?").trim().to_owned();
            assert_eq!(game.black, name(db.black(id)), "{ext}");
            assert_eq!(game.white, name(db.white(id)), "{ext}");
            assert_eq!(game.year, Some(db.file_of(id).unwrap().year()), "{ext}");
            assert_eq!(game.score, Some(db.game(id).unwrap().real_score()), "{ext}");
        }
    }
}

/// A random legal game from a seed: moves and the colour of each.
fn game(seed: u64, len: usize) -> Vec<(Color, Move)> {
    othello_core::random::game::<Board8>(seed, len)
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,200}", cut in 0usize..200) {
        let _ = parse_ggf(&text);
        let _ = parse_ggf_growing(&text);
        // Half a real game, cut anywhere (at a character).
        let real = "(;GM[Othello]PB[Zoë]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3//1.0];)";
        let end = real.char_indices().map(|(i, _)| i).rfind(|&i| i <= cut).unwrap_or(0);
        let _ = parse_ggf(&real[..end]);
        // What is written so far of a real game is read, never refused.
        let growing = parse_ggf_growing(&real[..end.max(2)]);
        prop_assert!(growing.is_ok() || !real[..end].contains("(;"));
        let _ = parse_ggf(&format!("(;BO[8 {text} *];)"));
    }

    #[test]
    fn written_games_read_back(seed in any::<u64>(), len in 0usize..70) {
        let moves = game(seed, len);
        let mut ggf = String::from("(;GM[Othello]TY[8]");
        for (color, mv) in &moves {
            let name = mv.name(Size::Eight).to_string();
            match mv {
                Move::Pass => ggf.push_str(if *color == Color::Black { "B[PA]" } else { "W[pass]" }),
                Move::Play(_) => {
                    let tag = if *color == Color::Black { 'B' } else { 'W' };
                    ggf.push_str(&format!("{tag}[{}//1.5]", name.to_uppercase()));
                }
            }
        }
        ggf.push_str(";)");
        let all: Vec<Move> = moves.iter().map(|&(_, m)| m).collect();
        let read = parse_ggf(&ggf).unwrap();
        prop_assert_eq!(&read.moves, &all);
        prop_assert_eq!(parse_ggf_growing(&ggf).unwrap(), read);
        let r = replay_with::<Board8, _, _>(all.iter().map(|&m| Token::Move(m)), |_| {});
        prop_assert!(r.is_legal());
    }
}
