//! Colour-signed transcripts (Logistello's): any text is read or refused,
//! never a panic; a game written with the colours (passes shown by them)
//! reads back to its moves. (The GGF reader's twin test is wthor-db's
//! `tests/db/text.rs`.)

use othello_core::notation::parse_signed_transcript;
use othello_core::replay::replay_with;
use othello_core::{Board8, Color, Move, Size};
use proptest::prelude::*;

/// A random legal game from a seed: moves and the colour of each.
fn game(seed: u64, len: usize) -> Vec<(Color, Move)> {
    othello_core::random::game::<Board8>(seed, len)
}

proptest! {
    #[test]
    fn any_text_is_read_or_refused(text in "\\PC{0,200}", cut in 0usize..200) {
        let _ = parse_signed_transcript(&text, Size::Eight);
        let end = text.char_indices().map(|(i, _)| i).rfind(|&i| i <= cut).unwrap_or(0);
        let _ = parse_signed_transcript(&text[..end], Size::Ten);
    }

    #[test]
    fn written_games_read_back(seed in any::<u64>(), len in 0usize..70) {
        let moves = game(seed, len);
        let mut signed = String::new();
        for (color, mv) in &moves {
            let name = mv.name(Size::Eight).to_string();
            // The signed transcript only shows a pass by the colour of the
            // next move.
            if let Move::Play(_) = mv {
                signed.push(if *color == Color::Black { '+' } else { '-' });
                signed.push_str(&name);
            }
        }
        let all: Vec<Move> = moves.iter().map(|&(_, m)| m).collect();
        let read = parse_signed_transcript(&signed, Size::Eight).unwrap();
        // A pass at the very end is not shown by any colour.
        let shown: Vec<Move> = match all.iter().rposition(|m| *m != Move::Pass) {
            Some(last) => all[..=last].to_vec(),
            None => Vec::new(),
        };
        prop_assert_eq!(&read, &shown);
        let r = replay_with::<Board8, _, _>(read.iter().map(|&m| othello_core::replay::Token::Move(m)), |_| {});
        prop_assert!(r.is_legal());
    }
}
