//! Property tests: value → write → parse gives the value back, for every
//! structure; arbitrary bytes never make a parser panic; bytes → parse →
//! write → parse is stable.

use proptest::prelude::*;
use wthor_format::{
    BoardSize, Cell, CreationDate, FileKind, Game, GameView, Header, Name, NameKind, Puzzle,
    ReadOptions, count_empty, decode_position, encode_position, expected_presence_table,
    header::header_bytes, parse_any, parse_game, parse_game_file_as, parse_header, parse_kind,
    parse_name, parse_names_file, parse_presence_table, parse_puzzle, parse_solitaire_file,
    write_game, write_game_file, write_name, write_names_file, write_presence_table, write_puzzle,
    write_solitaire_file,
};

fn header() -> impl Strategy<Value = Header> {
    (
        any::<[u8; 4]>(),
        any::<u32>(),
        any::<u16>(),
        any::<u16>(),
        any::<[u8; 4]>(),
    )
        .prop_map(|(date, n1, n2, year, p)| Header {
            created: CreationDate {
                century: date[0],
                year: date[1],
                month: date[2],
                day: date[3],
            },
            n1,
            n2,
            year,
            p1: p[0],
            p2: p[1],
            p3: p[2],
            reserved: p[3],
        })
}

fn size() -> impl Strategy<Value = BoardSize> {
    prop_oneof![Just(BoardSize::Eight), Just(BoardSize::Ten)]
}

fn game(size: BoardSize) -> impl Strategy<Value = Game> {
    (
        any::<[u16; 3]>(),
        any::<[u8; 2]>(),
        proptest::collection::vec(any::<u8>(), size.moves_len()),
    )
        .prop_map(|(ids, scores, moves)| Game {
            tournament: ids[0],
            black: ids[1],
            white: ids[2],
            real_score: scores[0],
            theoretical_score: scores[1],
            moves,
        })
}

fn sized_games() -> impl Strategy<Value = (BoardSize, Vec<Game>)> {
    size().prop_flat_map(|size| (Just(size), proptest::collection::vec(game(size), 0..20)))
}

fn name_kind() -> impl Strategy<Value = NameKind> {
    prop_oneof![Just(NameKind::Players), Just(NameKind::Tournaments)]
}

fn names() -> impl Strategy<Value = (NameKind, Vec<Name>)> {
    name_kind().prop_flat_map(|kind| {
        (
            Just(kind),
            proptest::collection::vec(
                proptest::collection::vec(any::<u8>(), kind.width()).prop_map(|raw| Name { raw }),
                0..20,
            ),
        )
    })
}

fn puzzle() -> impl Strategy<Value = Puzzle> {
    (
        any::<(u16, u16, u32, u32)>(),
        any::<[u8; 16]>(),
        any::<(u8, u8, i8, u8, u8, u8)>(),
        any::<[u8; 2]>(),
    )
        .prop_map(
            |((year, tournament, black, white), position, s, reserved)| Puzzle {
                year,
                tournament,
                black,
                white,
                position,
                empties: s.0,
                side_to_move: s.1,
                score: s.2,
                first_move: s.3,
                real_score: s.4,
                move25: s.5,
                reserved,
            },
        )
}

fn cell() -> impl Strategy<Value = Cell> {
    prop_oneof![
        Just(Cell::Empty),
        Just(Cell::Black),
        Just(Cell::White),
        Just(Cell::Unused)
    ]
}

/// Bytes that look like a WTHOR file often enough to reach the record code:
/// a random header with small counts, then random records.
fn wthor_like_bytes() -> impl Strategy<Value = Vec<u8>> {
    (
        header(),
        0u32..8,
        0u16..70,
        proptest::collection::vec(any::<u8>(), 0..1200),
        0u8..4,
    )
        .prop_map(|(mut h, n1, n2, body, shape)| {
            h.n1 = n1;
            h.n2 = n2;
            match shape {
                0 => h.p1 = 8,
                1 => h.p1 = 10,
                2 => h.p2 = 1,
                _ => {}
            }
            let mut bytes = header_bytes(&h).to_vec();
            bytes.extend_from_slice(&body);
            bytes
        })
}

proptest! {
    #[test]
    fn header_round_trips(h in header()) {
        let bytes = header_bytes(&h);
        let (rest, back) = parse_header(&bytes).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(back, h);
    }

    #[test]
    fn game_record_round_trips((size, games) in sized_games()) {
        for g in &games {
            let mut bytes = Vec::new();
            write_game(g, size, &mut bytes).unwrap();
            prop_assert_eq!(bytes.len(), size.record_len());
            let (rest, view) = parse_game(size)(&bytes).unwrap();
            prop_assert!(rest.is_empty());
            prop_assert_eq!(&view.to_game(), g);
            prop_assert_eq!(GameView::new(&bytes, size).unwrap(), view);
        }
    }

    #[test]
    fn game_file_round_trips(h in header(), (size, games) in sized_games()) {
        let mut bytes = Vec::new();
        write_game_file(&h, size, &games, &mut bytes).unwrap();
        let file = parse_game_file_as(&bytes, size, &ReadOptions::default()).unwrap();
        let expected = Header { n1: games.len() as u32, ..h };
        prop_assert_eq!(file.header(), &expected);
        let back: Vec<Game> = file.games().map(|g| g.to_game()).collect();
        prop_assert_eq!(back, games);
        let mut again = Vec::new();
        file.write_to(&mut again).unwrap();
        prop_assert_eq!(again, bytes);
    }

    #[test]
    fn name_record_and_file_round_trip(h in header(), (kind, names) in names()) {
        for n in &names {
            let mut bytes = Vec::new();
            write_name(n, kind, &mut bytes).unwrap();
            let (rest, view) = parse_name(kind)(&bytes).unwrap();
            prop_assert!(rest.is_empty());
            prop_assert_eq!(&view.to_name(), n);
        }
        let mut bytes = Vec::new();
        write_names_file(&h, kind, &names, &mut bytes).unwrap();
        let file = parse_names_file(&bytes, kind, &ReadOptions::default()).unwrap();
        prop_assert_eq!(file.header(), &Header { n2: names.len() as u16, ..h });
        let back: Vec<Name> = file.names().map(|n| n.to_name()).collect();
        prop_assert_eq!(back, names);
    }

    #[test]
    fn names_from_text_decode_back(text in "[ -~\u{e0}-\u{ff}]{0,19}", kind in name_kind()) {
        let enc = wthor_format::WINDOWS_1252;
        let name = Name::from_text(&text, kind, enc).unwrap();
        prop_assert_eq!(name.raw.len(), kind.width());
        prop_assert_eq!(name.view().decode(enc), text.as_str());
    }

    #[test]
    fn puzzle_record_round_trips(p in puzzle()) {
        let mut bytes = Vec::new();
        write_puzzle(&p, &mut bytes).unwrap();
        let (rest, view) = parse_puzzle(&bytes).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(view.to_puzzle(), p);
    }

    #[test]
    fn presence_table_round_trips(table in any::<[u32; 64]>()) {
        let mut bytes = Vec::new();
        write_presence_table(&table, &mut bytes).unwrap();
        let (rest, back) = parse_presence_table(&bytes).unwrap();
        prop_assert!(rest.is_empty());
        prop_assert_eq!(back, table);
    }

    #[test]
    fn solitaire_file_round_trips(
        h in header(),
        n2 in 1u16..=64,
        puzzles in proptest::collection::vec(puzzle(), 0..20),
    ) {
        let h = Header { n2, ..h };
        let table = expected_presence_table(12345, n2);
        let mut bytes = Vec::new();
        write_solitaire_file(&h, &table, &puzzles, &mut bytes).unwrap();
        let file = parse_solitaire_file(&bytes, &ReadOptions::default()).unwrap();
        let count = puzzles.len() as u32;
        prop_assert_eq!(file.header(), &Header { n1: count, ..h });
        prop_assert_eq!(file.presence_table(), expected_presence_table(count, n2));
        let back: Vec<Puzzle> = file.puzzles().map(|p| p.to_puzzle()).collect();
        prop_assert_eq!(back, puzzles);
    }

    #[test]
    fn position_round_trips(cells in proptest::collection::vec(cell(), 64)) {
        let cells: [Cell; 64] = cells.try_into().unwrap();
        let packed = encode_position(&cells);
        prop_assert_eq!(decode_position(&packed), cells);
        let empty = cells.iter().filter(|&&c| c == Cell::Empty).count();
        prop_assert_eq!(usize::from(count_empty(&packed)), empty);
    }

    #[test]
    fn arbitrary_bytes_never_panic_and_reparse_stably(
        bytes in prop_oneof![proptest::collection::vec(any::<u8>(), 0..400), wthor_like_bytes()],
        hint in proptest::option::of(proptest::sample::select(FileKind::ALL.to_vec())),
        strict in any::<bool>(),
    ) {
        let mut options = ReadOptions::default();
        options.strict = strict;
        if let Ok(file) = parse_any(&bytes, hint, &options) {
            let written = file.to_bytes().unwrap();
            // The written file is of the same kind, with a count that agrees.
            let again = parse_kind(&written, file.kind(), &ReadOptions::default()).unwrap();
            prop_assert_eq!(again.kind(), file.kind());
            prop_assert_eq!(again.len(), file.len());
            prop_assert_eq!(again.to_bytes().unwrap(), written);
        }
    }
}
