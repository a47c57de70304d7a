//! Replay of every real game under `$WTHOR_DATA/wthor` (top level,
//! `variants/`, `other/`), read here byte by byte so that the rules are
//! checked apart from `wthor-format`.

use std::path::Path;

use othello_core::Board8;
use othello_core::replay::{GameStatus, replay_wthor};

#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    games: usize,
    legal: usize,
    finished: usize,
    unfinished: usize,
    mismatches: usize,
}

fn replay_dir(dir: &Path, recursive: bool, counts: &mut Counts) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("readable data directory")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            if recursive {
                replay_dir(&path, recursive, counts);
            }
            continue;
        }
        let is_wtb = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("wtb"));
        if !is_wtb {
            continue;
        }
        let bytes = std::fs::read(&path).expect("readable game file");
        for record in bytes[16..].chunks_exact(68) {
            let r = replay_wthor::<Board8>(&record[8..]);
            counts.games += 1;
            if r.is_legal() {
                counts.legal += 1;
            }
            match r.status {
                GameStatus::Finished => {
                    counts.finished += 1;
                    if u32::from(record[6]) != r.score().0 {
                        counts.mismatches += 1;
                    }
                }
                GameStatus::Unfinished => counts.unfinished += 1,
            }
        }
    }
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn every_real_game_replays_legally() {
    let data = crate::wthor_data();
    let root = data.join("wthor");
    let mut top = Counts::default();
    replay_dir(&root, false, &mut top);
    let mut variants = Counts::default();
    replay_dir(&root.join("variants"), true, &mut variants);
    let mut other = Counts::default();
    replay_dir(&root.join("other"), true, &mut other);
    eprintln!("top level: {top:?}\nvariants: {variants:?}\nother: {other:?}");
    assert_eq!(top.games, 137_548);
    assert_eq!(top.legal, top.games);
    assert_eq!(top.unfinished, 413);
    assert_eq!(top.mismatches, 0);
    assert_eq!(variants.mismatches, 0);
    // Third-party files: PlayOK stores 0 for unfinished games (not counted
    // here), a few Logistello games split the empties instead.
    assert_eq!(other.games, 92_075);
    assert_eq!(other.mismatches, 16);
    assert_eq!(variants.legal, variants.games);
    assert_eq!(other.legal, other.games);
}
