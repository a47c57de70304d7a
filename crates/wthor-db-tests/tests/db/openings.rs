//! The table of named openings: every line legal and unique, names found
//! folded and by edit distance, games named in every orientation.

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::symmetry::stabilizer;
use othello_core::symmetry::{PositionKey, Symmetry};
use othello_core::{Bitboard, Board, Board8, Move, Size, Square, notation};
use std::collections::HashMap;
use wthor_db::Database;
use wthor_db::index::IndexChoice;
use wthor_db::names::fold;
use wthor_db::openings::*;
use wthor_db::stats::Results;
use wthor_format::BoardSize;

fn moves(t: &str) -> Vec<Move> {
    notation::parse_transcript(t, Size::Eight).unwrap()
}

fn name_of(t: &str) -> Option<&'static str> {
    table().opening_of_game(&moves(t)).map(Opening::name)
}

fn turned(game: &[Move], s: Symmetry) -> Vec<Move> {
    game.iter()
        .map(|&m| match m {
            Move::Play(sq) => Move::Play(s.square(sq, Size::Eight)),
            Move::Pass => Move::Pass,
        })
        .collect()
}

#[test]
fn every_line_replays_legally_and_is_unique() {
    let t = table();
    let problems: Vec<String> = t.problems().iter().map(ToString::to_string).collect();
    assert!(problems.is_empty(), "{problems:#?}");
    for o in t.iter() {
        assert_eq!(
            othello_core::replay::replay_moves::<Board8>(o.moves()).illegal,
            None
        );
    }
}

#[test]
fn at_least_70_names_with_sources() {
    let t = table();
    assert!(t.len() >= 70, "{}", t.len());
    let known = ["gatliff", "nboard", "egaroucid", "ja"];
    for o in t.iter() {
        assert!(!o.sources().is_empty(), "{}", o.name());
        for s in o.sources() {
            assert!(known.contains(&s.as_str()), "{}: {s}", o.name());
        }
    }
}

#[test]
fn no_two_lines_share_a_position_or_a_name() {
    // Aliases are declared on one line, so two lines may share neither
    // a position nor a (folded) name; checked here without the parser's
    // maps.
    let t = table();
    let mut keys = HashMap::new();
    let mut names = HashMap::new();
    for o in t.iter() {
        let end = othello_core::replay::replay_moves::<Board8>(o.moves()).board;
        if let Some(other) = keys.insert(PositionKey::of(&end), o.name()) {
            panic!("{} and {other} share a position", o.name());
        }
        for n in std::iter::once(o.name()).chain(o.aliases().iter().map(String::as_str)) {
            if let Some(other) = names.insert(fold(n), o.name()) {
                panic!("{n} names both {} and {other}", o.name());
            }
        }
    }
}

#[test]
fn a_skipped_line_is_reported_not_fatal() {
    let t = OpeningTable::parse(
        "# comment\n\
         f5d6 ; Perpendicular ; x\n\
         f5f5 ; Bad ; x\n\
         f5d6c3d3c4 ; Tiger | Tora ; x\n\
         c4e3 ; Again ; x\n\
         f5f6 ; TORA ; x\n\
         f5 ; only two fields\n\
         z9 ; Nope ; x\n",
    );
    assert_eq!(t.len(), 2);
    let kinds: Vec<_> = t
        .problems()
        .iter()
        .map(|p| (p.line, p.kind.clone()))
        .collect();
    assert_eq!(
        kinds,
        [
            (3, ProblemKind::Illegal(1)),
            (5, ProblemKind::SamePosition(2)),
            (6, ProblemKind::SameName(4)),
            (7, ProblemKind::Syntax),
            (8, ProblemKind::BadMoves),
        ]
    );
    assert_eq!(t.by_name("tora").unwrap().name(), "Tiger");
}

#[test]
fn transpositions_get_the_name() {
    // Written by hand: the Tiger's moves in another order, through the
    // Cat's f5d6c4 rather than c3.
    assert_eq!(name_of("f5d6c4d3c3"), Some("Tiger"));
    assert_eq!(name_of("f5d6c4d3"), Some("Perpendicular Opening"));
    // The Cow reached from the Parallel opening.
    assert_eq!(name_of("f5f4e3f6e6"), Some("Cow"));
    assert_eq!(name_of("f5f4e3f6"), Some("Parallel Opening"));
    // The Stephenson without passing through the Tiger.
    assert_eq!(name_of("f5d6c3f4f6d3c4"), Some("Stephenson"));
    // NBoard writes the diagonal lines in the other orientation.
    assert_eq!(name_of("f5f6e6d6c3"), Some("Buffalo"));
}

#[test]
fn all_orientations_get_the_same_name() {
    let game = moves("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1");
    assert_eq!(
        name_of("f5d6c3d3c4f4c5b3c2e6c6b4b5d2e3a6c1b1"),
        Some("Tamenori")
    );
    // The games from the standard start: the 4 symmetries keeping it.
    let keep = stabilizer(&Board8::start());
    assert_eq!(keep.len(), 4);
    for s in keep {
        let g = turned(&game, s);
        assert_eq!(
            table().opening_of_game(&g).map(Opening::name),
            Some("Tamenori")
        );
    }
    // The positions: all 8 images (the other 4 come from the mirrored
    // start, so they are positions, not games from the start).
    let end = othello_core::replay::replay_moves::<Board8>(&game[..10]).board;
    for s in Symmetry::ALL {
        let named = table().name_of_position(&s.board(&end));
        assert_eq!(named.map(Opening::name), Some("Tamenori"), "{s:?}");
    }
}

#[test]
fn the_deepest_named_position_wins() {
    assert_eq!(name_of(""), None);
    assert_eq!(name_of("f5"), None);
    assert_eq!(name_of("f5d6c3d3c4"), Some("Tiger"));
    assert_eq!(name_of("f5d6c3d3c4f4"), Some("Tiger"));
    assert_eq!(name_of("f5d6c3d3c4f4e3"), Some("Brightwell"));
    assert_eq!(name_of("f5d6c5f4e3c6d3f6e6d7"), Some("Rose"));
    assert_eq!(name_of("f5d6c5f4e3c6d3f6e6d7a1"), Some("Rose")); // illegal a1: stops
    assert_eq!(name_of("f5d6c5f4e3c6d3f6e6d7g3c4"), Some("Rose-Birth"));
    assert_eq!(name_of("f5d6c5f4e3c6d3f6e6d7g3c4b4"), Some("Rose-Birdie"));
    assert_eq!(
        name_of("f5d6c5f4e3c6d3f6e6d7g3c4b4c3"),
        Some("Rose-Tamenori-Kling")
    );
    // WTHOR bytes give the same answer.
    let bytes: Vec<u8> = moves("f5d6c5f4e3c6d3f6e6d7g3c4")
        .iter()
        .map(|m| match m {
            Move::Play(sq) => 10 * (sq.row(Size::Eight) + 1) + sq.col(Size::Eight) + 1,
            Move::Pass => 0,
        })
        .collect();
    assert_eq!(
        table().opening_of_wthor(&bytes).map(Opening::name),
        Some("Rose-Birth")
    );
}

#[test]
fn every_first_move_is_the_same_opening() {
    // The four first moves f5, e6, d3 and c4 are one position up to
    // symmetry (d6 and e3 are not legal); each, answered
    // perpendicularly, diagonally or in parallel, gets the same name.
    let start = Board8::start();
    let legal: Vec<String> = start
        .legal_moves()
        .squares()
        .map(|s| s.name(Size::Eight).to_string())
        .collect();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    let first = ["f5", "e6", "d3", "c4"];
    let keys: Vec<_> = first
        .iter()
        .map(|m| PositionKey::of(&othello_core::replay::replay_moves::<Board8>(&moves(m)).board))
        .collect();
    assert!(keys.windows(2).all(|w| w[0] == w[1]));
    for m in first {
        assert_eq!(name_of(m), None);
        let start = othello_core::replay::replay_moves::<Board8>(&moves(m)).board;
        let mut names: Vec<&str> = start
            .legal_moves()
            .squares()
            .filter_map(|r| table().name_of_position(&start.play_unchecked(r)))
            .map(Opening::name)
            .collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "Diagonal Opening",
                "Parallel Opening",
                "Perpendicular Opening"
            ],
            "{m}"
        );
    }
    // Tiger from each first move, turned by the symmetry taking f5 there.
    let tiger = moves("f5d6c3d3c4");
    let f5 = Square::parse("f5", Size::Eight).unwrap();
    for m in first {
        let to = Square::parse(m, Size::Eight).unwrap();
        let s = stabilizer(&Board8::start())
            .into_iter()
            .find(|s| s.square(f5, Size::Eight) == to)
            .unwrap();
        let g = turned(&tiger, s);
        assert_eq!(
            table().opening_of_game(&g).map(Opening::name),
            Some("Tiger"),
            "{m}"
        );
    }
}

#[test]
fn continuations_for_an_explorer() {
    let t = table();
    let tiger = t.by_name("Tiger").unwrap();
    let names: Vec<&str> = t
        .continuations(&tiger.board())
        .iter()
        .map(|o| o.name())
        .collect();
    for n in [
        "Aubrey",
        "Brightwell",
        "Leader's Tiger",
        "Stephenson",
        "Rose-Bill",
    ] {
        assert!(names.contains(&n), "{n} not in {names:?}");
    }
    // Not beyond the nearest: the Kung is after the Stephenson, the
    // Ishii after the Grand Central.
    assert!(!names.contains(&"Kung") && !names.contains(&"Ishii"));
    assert!(names.contains(&"Grand Central"));
    // Next moves, in the orientation asked about (here the Tiger
    // turned to start with c4).
    let s = Symmetry::TRANSPOSE_ANTI;
    let board = s.board(&tiger.board());
    assert_eq!(t.name_of_position(&board).map(Opening::name), Some("Tiger"));
    let next = t.next_moves(&board);
    let b3 = Square::parse("b3", Size::Eight).unwrap();
    let aubrey = next
        .iter()
        .find(|n| n.square == s.square(b3, Size::Eight))
        .unwrap();
    assert_eq!(aubrey.named.map(Opening::name), Some("Aubrey"));
    assert_eq!(
        aubrey.leads_to.iter().map(|o| o.name()).collect::<Vec<_>>(),
        ["Aubrey (Feldborg Continuation)"]
    );
    let f4 = Square::parse("f4", Size::Eight).unwrap();
    let f4 = next
        .iter()
        .find(|n| n.square == s.square(f4, Size::Eight))
        .unwrap();
    assert_eq!(f4.named, None);
    assert!(f4.leads_to.iter().any(|o| o.name() == "Brightwell"));
    // The start leads to the three second moves.
    let first: Vec<&str> = t
        .continuations(&Board8::start())
        .iter()
        .map(|o| o.name())
        .collect();
    assert_eq!(first.len(), 3, "{first:?}");
}

/// `r` with one more 8x8 game where black has `black_discs` and the
/// theoretical score `theoretical`, counted by hand.
fn add(r: &mut Results, black_discs: u8, theoretical: u8) {
    r.games += 1;
    match black_discs.cmp(&32) {
        std::cmp::Ordering::Greater => r.black_wins += 1,
        std::cmp::Ordering::Equal => r.draws += 1,
        std::cmp::Ordering::Less => r.black_losses += 1,
    }
    r.black_discs_sum += u64::from(black_discs);
    r.black_theoretical_sum += u64::from(theoretical);
}

#[test]
fn tally_counts_the_games_through_each_position() {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(&testdata).unwrap();
    let t = table();
    let tally = t.tally(&db);
    assert_eq!(tally.len(), t.len());
    // Against a plain sequential walk: every named position passed.
    let mut want = vec![Results::default(); t.len()];
    let _ = db.scan(|g| {
        if g.file.board_size() == Some(BoardSize::Eight) {
            let mut board = Board8::start();
            let mut seen = Vec::new();
            let _ = othello_core::replay::replay_with(
                wthor_tokens::<Board8>(g.game.moves_raw()),
                |step| {
                    board = step.board;
                    if let Some(o) = t.name_of_position(&board) {
                        seen.push(t.iter().position(|x| x == o).unwrap());
                    }
                },
            );
            for i in seen {
                add(
                    &mut want[i],
                    g.game.real_score(),
                    g.game.theoretical_score(),
                );
            }
        }
        std::ops::ControlFlow::<()>::Continue(())
    });
    assert_eq!(tally, want);
    let diagonal = t
        .iter()
        .position(|o| o.name() == "Diagonal Opening")
        .unwrap();
    let perpendicular = t
        .iter()
        .position(|o| o.name() == "Perpendicular Opening")
        .unwrap();
    let parallel = t
        .iter()
        .position(|o| o.name() == "Parallel Opening")
        .unwrap();
    let second: u64 = [diagonal, perpendicular, parallel]
        .iter()
        .map(|&i| tally[i].games)
        .sum();
    assert!(second > 0);
}

#[test]
fn edit_distance_against_known_values() {
    let d = |a: &str, b: &str| {
        edit_distance(
            &a.chars().collect::<Vec<_>>(),
            &b.chars().collect::<Vec<_>>(),
        )
    };
    assert_eq!(d("", ""), 0);
    assert_eq!(d("kitten", "sitting"), 3);
    assert_eq!(d("tiger", ""), 5);
    assert_eq!(d("", "cow"), 3);
    assert_eq!(d("flaw", "lawn"), 2);
    assert_eq!(d("rose", "rose"), 0);
    assert_eq!(d("tigre", "tiger"), 2);
}

#[test]
fn unknown_names_get_the_closest_suggested() {
    let t = table();
    let names = |text: &str| -> Vec<&str> { t.closest(text, 3).iter().map(|o| o.name()).collect() };
    assert_eq!(names("Tigre")[0], "Tiger");
    assert_eq!(names("BUFALO")[0], "Buffalo");
    // Through an alias: the folded Japanese name.
    assert_eq!(names("tor")[0], "Tiger");
    assert_eq!(t.closest("Tigre", 0).len(), 0);
    // Only names within the cut-off (issue 36, item 19): a third of the
    // text, rounded up; nothing for a text like no name.
    assert_eq!(names("Tigre"), ["Tiger"]);
    assert_eq!(close_distance(5), 2);
    assert_eq!(
        (close_distance(1), close_distance(3), close_distance(13)),
        (1, 1, 5)
    );
    for text in ["xyzzy", "x", "Ox", "qqqqqqqqqqqqqqqqqqqqqqqq"] {
        assert_eq!(names(text), Vec::<&str>::new(), "{text}");
        assert_eq!(
            t.unknown_name_note(text).unwrap(),
            format!("no opening is named {text:?}, and no name is close to it")
        );
    }
    let chars = |s: &str| fold(s).chars().collect::<Vec<_>>();
    for text in ["perpendiculer", "rose v toth", "bufallo", "ca", "tor"] {
        let found = t.closest(text, 500);
        assert!(!found.is_empty(), "{text}");
        for o in found {
            let d = std::iter::once(o.name())
                .chain(o.aliases().iter().map(String::as_str))
                .map(|n| edit_distance(&chars(text), &chars(n)))
                .min()
                .unwrap();
            assert!(
                d <= close_distance(chars(text).len()),
                "{text}: {}",
                o.name()
            );
        }
    }
    assert_eq!(t.unknown_name_note("tiger"), None);
    assert_eq!(
        t.unknown_name_note("Tigre").unwrap(),
        format!(
            "no opening is named \"Tigre\"; the closest names: {}",
            names("Tigre").join(", ")
        )
    );
    assert_eq!(
        OpeningTable::parse("").unknown_name_note("Tigre").unwrap(),
        "no opening is named \"Tigre\", and no name is close to it"
    );
}

#[test]
fn the_name_filter_finds_the_games_the_tally_counts() {
    let testdata = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata");
    let db = Database::open(&testdata).unwrap();
    let scan = db.searcher(IndexChoice::Never);
    let t = table();
    let tally = t.tally(&db);
    let mut some = 0;
    for (o, results) in t.iter().zip(&tally) {
        // By its name and by an alias, folded.
        let by_name = wthor_db::Query::new().opening_name(&o.name().to_uppercase());
        let ids = scan.search(&by_name).unwrap().value;
        assert_eq!(ids.len() as u64, results.games, "{}", o.name());
        if let Some(alias) = o.aliases().first() {
            let q = wthor_db::Query::new().opening_name(alias);
            assert_eq!(
                scan.count(&q).unwrap().value as u64,
                results.games,
                "{alias}"
            );
        }
        // Each game found passes through the position: its opening is
        // this one or one further along.
        for &id in &ids {
            let game = db.game(id).unwrap();
            let mut through = false;
            let _ = replay_with(wthor_tokens::<Board8>(game.moves_raw()), |step| {
                through |= t
                    .name_of_position(&step.board)
                    .is_some_and(|x| std::ptr::eq(x, o));
            });
            assert!(through, "{}: {}", o.name(), db.game_name(id));
        }
        some += usize::from(results.games > 0);
    }
    assert!(some >= 10, "{some} names with games");
    let none = wthor_db::Query::new().opening_name("no such opening");
    assert_eq!(scan.count(&none).unwrap().value, 0);
}

#[test]
fn names_are_found_folded() {
    let t = table();
    assert_eq!(
        t.by_name("  LEADER'S TIGER ").unwrap().name(),
        "Leader's Tiger"
    );
    assert_eq!(t.by_name("Kōmori").unwrap().name(), "Cow Bat");
    assert_eq!(t.by_name("虎").unwrap().name(), "Tiger");
    assert_eq!(t.by_name("Heath").unwrap().name(), "Heath");
    assert!(t.by_name("Heat").is_none());
    let heath: Vec<&str> = t.matching("heath").iter().map(|o| o.name()).collect();
    assert_eq!(
        heath,
        ["Heath", "Heath-Chimney", "Heath-Bat", "Classic Heath"]
    );
}
