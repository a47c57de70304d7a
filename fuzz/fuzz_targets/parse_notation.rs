//! Arbitrary text → transcript and OBF parsers (both sizes) never panic;
//! a parsed transcript written again parses to the same moves, and replaying
//! it never panics; a parsed OBF position written again reads back equal.
//!
//! Run with `cargo +nightly fuzz run parse_notation` from the repository root
//! (or `cargo xtask fuzz`).

#![no_main]

use libfuzzer_sys::fuzz_target;
use othello_core::notation::{parse_transcript, write_transcript};
use othello_core::replay::replay_moves;
use othello_core::{Board, Board8, Board10, Size};

fn check<B: Board>(text: &str, size: Size) {
    if let Ok(moves) = parse_transcript(text, size) {
        let written = write_transcript(&moves, size);
        let again = parse_transcript(&written, size).expect("a written transcript parses");
        assert_eq!(again, moves);
        let _ = replay_moves::<B>(&moves);
    }
    if let Ok(board) = B::from_obf(text) {
        let again = B::from_obf(&board.to_obf()).expect("a written OBF parses");
        assert_eq!(again, board);
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    check::<Board8>(text, Size::Eight);
    check::<Board10>(text, Size::Ten);
});
