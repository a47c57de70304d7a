//! The board of either size and the forced-pass rule: against the rule as
//! the five copies wrote it by hand, on the mailbox boards, and against
//! replay, on seeded random games.

use othello_core::mailbox::{Mailbox8, Mailbox10};
use othello_core::notation::write_transcript;
use othello_core::position::{AnyBoard, AnyBoardError, forced_pass};
use othello_core::random;
use othello_core::{Bitboard, Board, Board8, Board10, IllegalReason, Move, Size, Square};

/// The rule as the copies wrote it: no move, and the other side has one.
fn old_forced_pass<B: Board>(b: &B) -> Option<B> {
    if b.legal_moves().is_empty() {
        let passed = b.pass();
        if !passed.legal_moves().is_empty() {
            return Some(passed);
        }
    }
    None
}

/// The server's old `after`: pass when the side to move has no move.
fn old_after<B: Board>(b: &B, sq: Square) -> B {
    let b = if b.legal_moves().is_empty() {
        b.pass()
    } else {
        *b
    };
    b.play_unchecked(sq)
}

/// Every board of a random game (before each ply, and the last).
fn boards<B: Board>(seed: u64) -> Vec<B> {
    let mut b = B::start();
    let mut out = vec![b];
    for (_, mv) in random::game::<B>(seed, 200) {
        b = b.play(mv).unwrap();
        out.push(b);
    }
    out
}

fn forced_pass_as_written<B: Board, M: Board>(seeds: std::ops::Range<u64>) -> usize {
    let mut forced = 0;
    for seed in seeds {
        for b in boards::<B>(seed) {
            assert_eq!(forced_pass(&b), old_forced_pass(&b), "{}", b.to_obf());
            let m = M::from_obf(&b.to_obf()).unwrap();
            let on_mailbox = forced_pass(&m).map(|p| p.to_obf());
            assert_eq!(forced_pass(&b).map(|p| p.to_obf()), on_mailbox);
            forced += usize::from(forced_pass(&b).is_some());
        }
    }
    forced
}

#[test]
fn forced_pass_is_the_rule_as_written_and_agrees_with_the_mailbox() {
    let eight = forced_pass_as_written::<Board8, Mailbox8>(1..400);
    let ten = forced_pass_as_written::<Board10, Mailbox10>(1..100);
    // The games have passes to check.
    assert!(eight > 0 && ten > 0, "{eight} {ten}");
}

fn play_as_after<B: Board>(seeds: std::ops::Range<u64>)
where
    AnyBoard: From<B>,
{
    for seed in seeds {
        let game = random::game::<B>(seed, 200);
        let mut any = AnyBoard::start(B::SIZE);
        let mut b = B::start();
        for (_, mv) in &game {
            let Move::Play(sq) = *mv else { continue };
            // Passes are left out: `play` passes where forced.
            let before = b;
            b = old_after(&before, sq);
            any = any.play(sq).unwrap();
            assert_eq!(any, AnyBoard::from(b));
            // An occupied square is illegal for the side that plays next.
            assert!(matches!(
                any.play(sq),
                Err(IllegalReason::Occupied | IllegalReason::GameOver)
            ));
        }
        let moves: Vec<Move> = game.iter().map(|&(_, m)| m).collect();
        let text = write_transcript(&moves, B::SIZE);
        assert_eq!(AnyBoard::after_transcript(&text, B::SIZE), Ok(any));
        assert_eq!(AnyBoard::from_obf(&any.to_obf()), Ok(any));
        assert_eq!(any.size(), B::SIZE);
    }
}

#[test]
fn play_passes_where_forced_as_the_server_did_and_as_replay_does() {
    play_as_after::<Board8>(1..300);
    play_as_after::<Board10>(1..60);
}

#[test]
fn then_play_continues_a_transcript() {
    let whole = AnyBoard::after_transcript("f5d6c3d3c4", Size::Eight).unwrap();
    let part = AnyBoard::after_transcript("f5d6", Size::Eight).unwrap();
    assert_eq!(part.then_play("c3d3c4"), Ok(whole));
    assert_eq!(whole.as_eight().map(Board8::to_obf), Some(whole.to_obf()));
    assert_eq!(AnyBoard::start(Size::Ten).as_eight(), None);
}

#[test]
fn errors_name_the_move_and_why() {
    let e = AnyBoard::after_transcript("f5d6c3c3", Size::Eight).unwrap_err();
    assert_eq!(
        e,
        AnyBoardError::Illegal {
            number: 4,
            mv: "c3".to_owned(),
            reason: IllegalReason::Occupied,
        }
    );
    assert_eq!(
        e.to_string(),
        "move 4 (c3) of the transcript is illegal: square occupied"
    );
    assert!(matches!(
        AnyBoard::after_transcript("f5z9", Size::Eight),
        Err(AnyBoardError::Transcript(_))
    ));
    assert!(matches!(
        AnyBoard::from_obf("XXO? X"),
        Err(AnyBoardError::Obf(_))
    ));
}
