//! The evaluation's weight files: the embedded weights read back from
//! `eval.bin`, damaged and foreign files refused with a message naming
//! them, and the evaluation the same under the eight symmetries.

use std::path::PathBuf;
use std::sync::Arc;

use othello_core::bitboard::Bitboard;
use othello_core::eval::{self, Weights, WeightsError};
use othello_core::midgame::{Engine, EngineOptions, Limits};
use othello_core::symmetry::Symmetry;
use othello_core::{Board, Board8, Move};

fn weight_file() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("src/eval.bin")
}

/// Seeded positions of random games, a few at every stage.
fn positions() -> Vec<(u64, u64)> {
    (0..240u64)
        .map(|i| {
            let plies = 1 + (i % 59) as usize;
            let game = othello_core::random::game::<Board8>(i, plies);
            let mut b = Board8::start();
            for (_, mv) in game {
                b = match mv {
                    Move::Play(sq) => b.play_unchecked(sq),
                    Move::Pass => b.pass(),
                };
            }
            (b.player(), b.opponent())
        })
        .collect()
}

#[test]
fn the_weight_file_read_back_is_the_embedded_weights() {
    let w = Weights::read(weight_file()).unwrap();
    assert_eq!(w.checksum(), Weights::embedded().checksum());
    for (p, o) in positions() {
        assert_eq!(w.evaluate(p, o), eval::evaluate(p, o));
    }
    // An engine on the file's weights searches as one on the embedded.
    let (p, o) = positions()[100];
    let mut a = Engine::new(EngineOptions::default()).unwrap();
    let mut b = Engine::new(EngineOptions::default())
        .unwrap()
        .with_weights(Arc::new(w));
    let x = a.analyze(p, o, Limits::depth(6)).unwrap();
    let y = b.analyze(p, o, Limits::depth(6)).unwrap();
    assert_eq!((x.value, x.best_move), (y.value, y.best_move));
}

#[test]
fn damaged_and_foreign_files_are_refused_naming_them() {
    let good = std::fs::read(weight_file()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let refused = |name: &str, bytes: &[u8], says: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        let err = Weights::read(&path).unwrap_err();
        assert!(
            matches!(err, WeightsError::Invalid { .. }),
            "{name}: {err:?}"
        );
        let text = err.to_string();
        assert!(text.starts_with(&path.display().to_string()), "{text}");
        assert!(text.contains(says), "{name}: {text}");
    };
    // A weight changed: the checksum no longer holds.
    let mut damaged = good.clone();
    let at = good.len() / 2;
    damaged[at] ^= 0x04;
    refused("damaged.bin", &damaged, "damaged");
    refused(
        "short.bin",
        &good[..good.len() - 2],
        "bytes, a weight file has",
    );
    refused("empty.bin", b"", "not a weight file");
    refused(
        "picture.png",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
        "not a weight file",
    );
    let mut version = good.clone();
    version[8] = 99;
    refused("version.bin", &version, "version 99");
    let mut layout = good.clone();
    layout[12] = 7;
    refused("layout.bin", &layout, "7 stages");
    // A file that is not there: the I/O error names it too.
    let missing = dir.path().join("missing.bin");
    let err = Weights::read(&missing).unwrap_err();
    assert!(matches!(err, WeightsError::Io { .. }));
    assert!(err.to_string().contains("missing.bin"), "{err}");
}

#[test]
fn the_evaluation_is_the_same_under_the_eight_symmetries() {
    let file = Weights::read(weight_file()).unwrap();
    for (p, o) in positions() {
        let e = eval::evaluate(p, o);
        for sym in Symmetry::ALL {
            let (sp, so) = (p.symmetric(sym), o.symmetric(sym));
            assert_eq!(eval::evaluate(sp, so), e, "{p:#x} {o:#x} {sym:?}");
            assert_eq!(file.evaluate(sp, so), e, "{p:#x} {o:#x} {sym:?}");
        }
    }
}
