//! Bitboards against the mailbox reference on seeded random games: at every
//! position the same legal moves, the same flips on every empty square, the
//! same result; symmetries commute with move generation; replay and the
//! notations agree with the game played.

use othello_core::mailbox::{Mailbox8, Mailbox10};
use othello_core::notation::{parse_transcript, write_transcript};
use othello_core::replay::{GameStatus, replay_moves};
use othello_core::symmetry::Symmetry;
use othello_core::{Bitboard, Board, Board8, Board10, Move};

/// SplitMix64: a tiny deterministic generator for the random games.
pub(crate) struct SplitMix(pub(crate) u64);

impl SplitMix {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform-enough index below `n` (n > 0).
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Plays one random game on both boards, checking them against each other
/// at every position; returns the moves.
fn random_game<F: Board, S: Board<Bits = F::Bits>>(rng: &mut SplitMix) -> Vec<Move> {
    let mut fast = F::start();
    let mut slow = S::start();
    let mut moves = Vec::new();
    loop {
        assert_eq!(fast.to_obf(), slow.to_obf());
        assert_eq!(F::from_obf(&fast.to_obf()), Ok(fast));
        let legal = fast.legal_moves();
        assert_eq!(legal, slow.legal_moves(), "{}", fast.to_obf());
        for sq in fast.empties().squares() {
            assert_eq!(fast.flips(sq), slow.flips(sq), "{} {sq:?}", fast.to_obf());
            assert_eq!(legal.has(sq), !fast.flips(sq).is_empty());
        }
        for sym in Symmetry::ALL {
            let image = sym.board(&fast);
            assert_eq!(image.legal_moves(), legal.symmetric(sym));
            if let Some(sq) = legal.first() {
                assert_eq!(
                    image.flips(sym.square(sq, F::SIZE)),
                    fast.flips(sq).symmetric(sym)
                );
            }
        }
        assert_eq!(fast.is_game_over(), slow.is_game_over());
        assert_eq!(fast.wthor_score(), slow.wthor_score());
        let options: Vec<Move> = fast.moves().collect();
        assert_eq!(options, slow.moves().collect::<Vec<_>>());
        if options.is_empty() {
            assert!(fast.is_game_over());
            return moves;
        }
        let mv = options[rng.below(options.len())];
        moves.push(mv);
        fast = fast.play(mv).expect("a listed move is legal");
        slow = slow.play(mv).expect("a listed move is legal");
    }
}

fn check_games<F: Board, S: Board<Bits = F::Bits>>(seed: u64, games: usize) {
    let mut rng = SplitMix(seed);
    for _ in 0..games {
        let moves = random_game::<F, S>(&mut rng);
        // The transcript round-trips, and replay (with or without the
        // passes written) finishes the game legally on both boards.
        let text = write_transcript(&moves, F::SIZE);
        assert_eq!(parse_transcript(&text, F::SIZE).as_deref(), Ok(&moves[..]));
        let squares: Vec<Move> = moves.iter().copied().filter(|m| *m != Move::Pass).collect();
        for list in [&moves, &squares] {
            let r = replay_moves::<F>(list);
            let s = replay_moves::<S>(list);
            assert!(r.is_legal(), "{text}");
            assert_eq!(r.status, GameStatus::Finished);
            assert_eq!(r.moves, squares.len());
            assert_eq!(r.passes, moves.len() - squares.len());
            assert_eq!(r.score(), s.score());
            assert_eq!(r.board.to_obf(), s.board.to_obf());
            // The colours of the squares agree and build the board back.
            assert_eq!(r.board.cells(), s.board.cells());
            let side = r.board.side_to_move();
            assert_eq!(F::from_cells(&r.board.cells(), side).ok(), Some(r.board));
            let (b, w) = r.score();
            assert_eq!(b + w, F::SIZE.squares() as u32);
        }
    }
}

#[test]
fn board8_agrees_with_mailbox8_on_random_games() {
    check_games::<Board8, Mailbox8>(0x5eed_0008, 600);
}

#[test]
fn board10_agrees_with_mailbox10_on_random_games() {
    check_games::<Board10, Mailbox10>(0x5eed_0010, 300);
}
