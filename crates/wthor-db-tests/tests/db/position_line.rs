//! The one-line text form of a position: round trips, errors naming the
//! field, no panic on any input.

use othello_core::notation::parse_transcript;
use othello_core::replay::{GameStatus, Token};
use othello_core::{Color, Move, Size};
use proptest::prelude::*;
use wthor_db::position_line::*;

fn tokens(text: &str, size: Size) -> Vec<Token> {
    parse_transcript(text, size)
        .unwrap()
        .into_iter()
        .map(Token::Move)
        .collect()
}

#[test]
fn start_position_line() {
    let g = game_positions(Size::Eight, &[]);
    assert_eq!(
        g.lines[0].to_string(),
        "<pos> -------- -------- -------- ---OX--- ---XO--- -------- -------- -------- B 1 - - 2 2 - - - - -"
    );
    let g = game_positions(Size::Ten, &[]);
    assert_eq!(
        g.lines[0].to_string(),
        "<pos> ---------- ---------- ---------- ---------- ----OX---- ----XO---- ---------- ---------- ---------- ---------- B 1 - - 2 2 - - - - -"
    );
}

#[test]
fn a_pass_shows_as_the_side_to_move_and_the_end_as_dash() {
    // The 9-move wipe-out: white has no disc left at the end.
    let g = game_positions(Size::Eight, &tokens("d3c3b3d2e1d6d7e3f4", Size::Eight));
    assert_eq!(g.lines.len(), 10);
    let last = g.lines.last().unwrap();
    assert_eq!(last.to_move(), None);
    assert_eq!(
        (last.discs(Color::Black), last.discs(Color::White)),
        (13, 0)
    );
    assert_eq!(last.move_number(), 10);
    assert!(last.to_string().contains(" - 10 46 f4 13 0 "), "{last}");
    assert_eq!(g.status, GameStatus::Finished);
}

#[test]
fn legal_moves_of_the_start() {
    let g = game_positions(Size::Eight, &[]);
    let names: Vec<String> = g.lines[0]
        .legal_moves()
        .iter()
        .map(|s| s.name(Size::Eight).to_string())
        .collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn errors_name_the_field() {
    let good = game_positions(Size::Eight, &[]).lines[0].to_string();
    let check = |text: &str, field: usize, kind: PositionLineErrorKind| {
        let e = PositionLine::parse(text).unwrap_err();
        assert_eq!((e.field(), e.kind()), (field, kind), "{text}: {e}");
    };
    check("", 1, PositionLineErrorKind::Missing);
    check(
        &good.replace("<pos>", "<12>"),
        1,
        PositionLineErrorKind::Tag,
    );
    check(
        &good.replacen("--------", "-------", 1),
        2,
        PositionLineErrorKind::Row,
    );
    check(
        &good.replacen("---OX---", "---OX---X", 1),
        5,
        PositionLineErrorKind::Row,
    );
    check(
        &good.replacen("---OX---", "---OY---", 1),
        5,
        PositionLineErrorKind::Row,
    );
    check(
        &good.replace(" B 1 ", " Z 1 "),
        10,
        PositionLineErrorKind::Side,
    );
    check(
        &good.replace(" B 1 ", " B 0 "),
        11,
        PositionLineErrorKind::Number,
    );
    check(
        &good.replace(" B 1 ", " B x "),
        11,
        PositionLineErrorKind::Number,
    );
    check(
        &good.replace(" B 1 - - ", " B 1 56 - "),
        13,
        PositionLineErrorKind::LastMoveMismatch,
    );
    check(
        &good.replace(" B 1 - - ", " B 1 99 - "),
        12,
        PositionLineErrorKind::Square,
    );
    check(
        &good.replace(" 2 2 ", " 3 2 "),
        14,
        PositionLineErrorKind::DiscCount,
    );
    check(
        &good.replace(" 2 2 - ", " 2 2 a%2 "),
        16,
        PositionLineErrorKind::Escape,
    );
    check(
        &good.replace(" 2 2 - ", " 2 2 %FF "),
        16,
        PositionLineErrorKind::Escape,
    );
    check(
        &good.replace(" 2 2 - ", " 2 2  - "),
        16,
        PositionLineErrorKind::Empty,
    );
    check(
        &good.replace(" 2 2 - ", " 2 2 a\tb "),
        16,
        PositionLineErrorKind::Unescaped,
    );
    check(&format!("{good} "), 21, PositionLineErrorKind::Empty);
    check(
        good.strip_suffix(" -").unwrap(),
        20,
        PositionLineErrorKind::Missing,
    );
    let e = PositionLine::parse(&good.replace(" 2 2 - ", " 2 2 ab%G1 ")).unwrap_err();
    assert_eq!(e.position(), good.find(" 2 2 - ").unwrap() + 5 + 2);
}

#[test]
fn later_fields_and_line_ends_are_ignored() {
    let good = game_positions(Size::Eight, &[]).lines[0].clone();
    let text = good.to_string();
    assert_eq!(
        PositionLine::parse(&format!("{text} 7 future\r\n")).unwrap(),
        good
    );
}

fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just("-".to_owned()),
        Just("%".to_owned()),
        "\\PC{0,12}",
        "[ a-zé%\t\n-]{0,10}",
        any::<String>(),
    ]
}

proptest! {
    #[test]
    fn line_parse_line_round_trips(
        ten in any::<bool>(),
        moves in proptest::collection::vec(any::<u8>(), 0..100),
        pick in any::<prop::sample::Index>(),
        black in name(), white in name(), tournament in name(), game in name(),
        year in proptest::option::of(any::<u16>()),
    ) {
        // A random legal game (each byte picks among the legal moves),
        // then one of its positions.
        let size = if ten { Size::Ten } else { Size::Eight };
        let mut played = Vec::new();
        let mut line = game_positions(size, &[]).lines[0].clone();
        for m in moves {
            let legal = line.legal_moves();
            if legal.is_empty() {
                break;
            }
            played.push(Token::Move(Move::Play(legal[usize::from(m) % legal.len()])));
            line = game_positions(size, &played).lines.pop().unwrap();
        }
        let lines = game_positions(size, &played).lines;
        let mut line = lines[pick.index(lines.len())].clone();
        line.black = black;
        line.white = white;
        line.tournament = tournament;
        line.game = game;
        line.year = year;
        let text = line.to_string();
        prop_assert!(!text.contains("  ") && !text.contains('\n') && !text.contains('\t'));
        let parsed = PositionLine::parse(&text).unwrap();
        prop_assert_eq!(&parsed, &line);
        prop_assert_eq!(parsed.to_string(), text);
    }

    #[test]
    fn escape_round_trips(text in any::<String>()) {
        let e = escape(&text);
        prop_assert!(!e.is_empty());
        prop_assert!(!e.chars().any(|c| c.is_whitespace() || c.is_control()));
        prop_assert_eq!(unescape(&e).unwrap(), text);
    }

    #[test]
    fn parse_never_panics(text in "\\PC{0,200}") {
        let _ = PositionLine::parse(&text);
    }
}
