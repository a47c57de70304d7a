//! Arbitrary bytes → parse (every kind, with and without a hint, lenient and
//! strict) never panics; bytes → parse → write → parse is stable.
//!
//! Run with `cargo +nightly fuzz run parse_any` from the repository root.

#![no_main]

use libfuzzer_sys::fuzz_target;
use wthor_format::{FileKind, ReadOptions, parse_any, parse_kind};

fuzz_target!(|data: &[u8]| {
    // The first byte picks the hint, the rest is the file.
    let Some((&selector, bytes)) = data.split_first() else {
        return;
    };
    let hint = FileKind::ALL.get(usize::from(selector % 8)).copied();
    let mut options = ReadOptions::default();
    options.strict = selector & 0x80 != 0;
    let Ok(file) = parse_any(bytes, hint, &options) else {
        return;
    };
    let written = file.to_bytes().expect("a parsed file can be written");
    let again =
        parse_kind(&written, file.kind(), &ReadOptions::default()).expect("a written file parses");
    assert_eq!(again.kind(), file.kind());
    assert_eq!(again.len(), file.len());
    assert_eq!(again.to_bytes().expect("written again"), written);
    // Every record view can be read without panicking.
    match &again {
        wthor_format::WthorFile::Games(g) => {
            for game in g.games() {
                let _ = game.moves().count();
                let _ = game.to_game();
            }
        }
        wthor_format::WthorFile::Names(n) => {
            for name in n.names() {
                let _ = name.decode(n.encoding());
            }
        }
        wthor_format::WthorFile::Solitaires(s) => {
            for p in s.puzzles() {
                let _ = p.position();
                let _ = p.first_move();
            }
        }
        _ => {}
    }
});
