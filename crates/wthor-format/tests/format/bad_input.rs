//! Bad input at the library level: a clear one-line error (or, when the data
//! can still be read, a warning that strict mode turns into that error), and
//! never a panic. Directories and unreadable files are a matter of the CLI
//! (the library reads bytes): see the `wthor` tests.

use wthor_format::{
    BoardSize, ErrorKind, FileKind, Game, Header, HeaderField, Name, NameKind, ReadOptions,
    WarningKind, WthorFile, parse_any, parse_game_file, parse_names_file, parse_solitaire_file,
    write_game_file, write_names_file,
};

fn lenient() -> ReadOptions {
    ReadOptions::default()
}

/// A small 8x8 game file with `n` games.
fn games_file(n: u16) -> Vec<u8> {
    let games: Vec<Game> = (0..n)
        .map(|i| {
            Game::from_squares(0, i, i + 1, 40, 38, &["f5", "d6", "c3"], BoardSize::Eight).unwrap()
        })
        .collect();
    let mut bytes = Vec::new();
    let header = Header {
        year: 2025,
        p1: 8,
        p3: 24,
        ..Header::default()
    };
    write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    bytes
}

#[track_caller]
fn one_line(err: &wthor_format::Error) -> String {
    let text = err.to_string();
    assert!(!text.contains('\n'), "{text}");
    text
}

#[test]
fn empty_input_is_an_error() {
    for hint in [None, Some(FileKind::Games8), Some(FileKind::Players)] {
        let err = parse_any(&[], hint, &lenient()).unwrap_err();
        assert!(matches!(err.kind(), ErrorKind::Empty));
        assert_eq!(
            one_line(&err),
            "byte 0: empty file, expected at least a 16-byte header"
        );
    }
}

#[test]
fn a_truncated_header_is_an_error() {
    let err = parse_any(&[20, 7, 5, 22, 1], Some(FileKind::Games8), &lenient()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 0: truncated header: expected 16 bytes, found 5"
    );
    let err = err.with_file("WTH_1977.wtb");
    assert_eq!(
        err.to_string(),
        "WTH_1977.wtb: byte 0: truncated header: expected 16 bytes, found 5"
    );
    assert_eq!(err.file(), Some(std::path::Path::new("WTH_1977.wtb")));
}

#[test]
fn a_file_cut_inside_a_record_is_an_error_even_when_lenient() {
    let bytes = games_file(3);
    let cut = &bytes[..16 + 68 + 30];
    let err = parse_any(cut, Some(FileKind::Games8), &lenient()).unwrap_err();
    assert_eq!((err.offset(), err.record()), (16 + 68, Some(1)));
    assert_eq!(
        one_line(&err),
        "byte 84 (record 1): truncated record: expected 68 bytes, found 30"
    );
}

#[test]
fn a_file_cut_on_a_record_boundary_is_a_count_warning() {
    let bytes = games_file(3);
    let cut = &bytes[..16 + 68];
    let file = parse_game_file(cut, &lenient()).unwrap();
    assert_eq!(file.len(), 1);
    assert_eq!(file.warnings().len(), 1);
    assert_eq!(
        file.warnings()[0].to_string(),
        "byte 4: header N1 says 3 records, the file holds 1 whole record"
    );
    let err = parse_game_file(cut, &ReadOptions::strict()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 4: header N1 says 3 records, the file holds 1 whole record (strict mode)"
    );
}

/// With `read_cut_records` (what a database reads with), a file cut inside
/// a record gives its whole records and one warning saying what was left;
/// strict mode and the default still refuse it.
#[test]
fn a_file_cut_inside_a_record_is_read_to_its_last_whole_record_on_request() {
    let bytes = games_file(3);
    let cut = &bytes[..16 + 68 + 20];
    let mut options = lenient();
    options.read_cut_records = true;
    let file = parse_game_file(cut, &options).unwrap();
    assert_eq!(file.len(), 1);
    let warnings: Vec<String> = file.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        warnings,
        [
            "byte 84 (record 1): the file ends inside this record (20 of its 68 bytes; \
          header N1 says 3 records): 1 whole record read, 20 bytes ignored"
        ]
    );
    let mut back = Vec::new();
    file.write_to(&mut back).unwrap();
    assert_eq!(back.len(), 16 + 68);
    assert_eq!(&back[4..8], &1u32.to_le_bytes());
    for options in [lenient(), {
        let mut strict = ReadOptions::strict();
        strict.read_cut_records = true;
        strict
    }] {
        let err = parse_game_file(cut, &options).unwrap_err();
        assert_eq!(
            one_line(&err),
            "byte 84 (record 1): truncated record: expected 68 bytes, found 20"
        );
    }
    // Every kind: whole records read, the rest ignored.
    for kind in FileKind::ALL {
        let mut header = vec![0u8; 16];
        header[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        header[8..10].copy_from_slice(&u16::MAX.to_le_bytes());
        if kind == FileKind::Solitaires {
            header[13] = 1;
            header.extend_from_slice(&[0; 256]);
        }
        header.extend_from_slice(&[1; 7]);
        let file = wthor_format::parse_kind(&header, kind, &options).unwrap();
        assert_eq!(file.len(), 0, "{kind}");
        assert!(
            file.warnings().iter().any(|w| matches!(
                w.kind,
                WarningKind::CutRecord {
                    len: 7,
                    whole: 0,
                    ..
                }
            )),
            "{kind}: {:?}",
            file.warnings()
        );
    }
}

#[test]
fn a_header_claiming_u32_max_records_allocates_nothing_and_is_reported() {
    let mut bytes = games_file(2);
    bytes[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
    // Whole records present: lenient reads them and warns.
    let file = parse_game_file(&bytes, &lenient()).unwrap();
    assert_eq!(file.len(), 2);
    assert!(matches!(
        file.warnings()[0].kind,
        WarningKind::CountMismatch {
            field: HeaderField::N1,
            header: u32::MAX,
            actual: 2
        }
    ));
    // Strict refuses.
    let err = parse_game_file(&bytes, &ReadOptions::strict()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 4: header N1 says 4294967295 records, the file holds 2 whole records (strict mode)"
    );
    // Writing back stores the records actually present.
    let back = file.write_to_vec();
    assert_eq!(&back[4..8], &2u32.to_le_bytes());
    // With a partial record after them, the file is cut: an error.
    bytes.extend_from_slice(&[56; 10]);
    let err = parse_game_file(&bytes, &lenient()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 152 (record 2): truncated record: expected 68 bytes, found 10"
    );
    // The same for every kind.
    for kind in FileKind::ALL {
        let mut header = vec![0u8; 16];
        header[4..8].copy_from_slice(&u32::MAX.to_le_bytes());
        header[8..10].copy_from_slice(&u16::MAX.to_le_bytes());
        header.extend_from_slice(&[1; 7]);
        if kind == FileKind::Solitaires {
            header[13] = 1;
            header.extend_from_slice(&[0; 256]);
        }
        let err = wthor_format::parse_kind(&header, kind, &lenient()).unwrap_err();
        assert!(
            matches!(err.kind(), ErrorKind::Truncated { what: "record", .. }),
            "{kind}: {err}"
        );
    }
}

trait WriteToVec {
    fn write_to_vec(&self) -> Vec<u8>;
}

impl WriteToVec for wthor_format::GameFile<'_> {
    fn write_to_vec(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.write_to(&mut out).unwrap();
        out
    }
}

/// A deterministic pseudo-random byte generator (xorshift).
fn random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
    (0..len)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 24) as u8
        })
        .collect()
}

#[test]
fn random_bytes_are_no_wthor_file() {
    let bytes = random_bytes(1001, 0x9E37_79B9_7F4A_7C15);
    let err = parse_any(&bytes, None, &lenient()).unwrap_err();
    assert!(matches!(err.kind(), ErrorKind::UnknownKind { .. }), "{err}");
    let text = one_line(&err);
    assert!(
        text.starts_with(
            "byte 0: not a WTHOR file: no kind fits a 1001-byte file with header N1 = "
        ),
        "{text}"
    );
    assert!(text.contains("; expected the header of games ("), "{text}");
    let err = parse_any(&bytes, Some(FileKind::Games10), &lenient()).unwrap_err();
    assert!(
        one_line(&err).ends_with(
            "; expected for 10x10 games (.wtd): P1 = 10, P2 = 0, N2 = 0, then 104-byte records from byte 16"
        ),
        "{err}"
    );
    // Never a panic, whatever the hint or the length.
    for len in 0..600 {
        let bytes = random_bytes(len, len as u64 + 1);
        for hint in FileKind::ALL.map(Some).into_iter().chain([None]) {
            let _ = parse_any(&bytes, hint, &lenient());
            let _ = parse_any(&bytes, hint, &ReadOptions::strict());
        }
    }
}

#[test]
fn p1_124_in_a_names_file_is_a_warning() {
    let mut bytes = Vec::new();
    let header = Header {
        p1: 124,
        ..Header::default()
    };
    let names = [Name::from_text(
        "Edax (delorme)",
        NameKind::Players,
        wthor_format::WINDOWS_1252,
    )
    .unwrap()];
    write_names_file(&header, NameKind::Players, &names, &mut bytes).unwrap();
    let file = parse_any(&bytes, Some(FileKind::Players), &lenient()).unwrap();
    assert_eq!(file.kind(), FileKind::Players);
    assert_eq!(file.warnings().len(), 1);
    assert_eq!(
        file.warnings()[0].to_string(),
        "byte 12: header P1 is 124, expected 0 in name files"
    );
    assert_eq!(
        file.to_bytes().unwrap(),
        bytes,
        "P1 is written back as read"
    );
    let err = parse_names_file(&bytes, NameKind::Players, &ReadOptions::strict()).unwrap_err();
    assert_eq!(err.offset(), 12);
}

#[test]
fn garbage_after_a_nul_is_a_warning_that_never_prints_the_bytes() {
    let mut raw = b"Anna\0SECRETGARBAGE\0\0".to_vec();
    assert_eq!(raw.len(), 20);
    let mut bytes = Vec::new();
    let names = [
        Name { raw: raw.clone() },
        Name {
            raw: vec![b'x'; 20],
        },
    ];
    write_names_file(&Header::default(), NameKind::Players, &names, &mut bytes).unwrap();
    let file = parse_names_file(&bytes, NameKind::Players, &lenient()).unwrap();
    assert_eq!(file.name(0).as_deref(), Some("Anna"));
    let messages: Vec<String> = file.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "byte 20 (record 0): 13 non-zero bytes after the NUL that ends the name, expected zeros",
            "byte 36 (record 1): name fills all 20 bytes, expected a terminating NUL",
        ]
    );
    for m in &messages {
        assert!(!m.contains("SECRET") && !m.contains("xxx"));
    }
    // Write-back of the parsed records keeps the garbage (byte identity)...
    let mut back = Vec::new();
    file.write_to(&mut back).unwrap();
    assert_eq!(back, bytes);
    // ...a name built from its text has none.
    let rebuilt = Name::from_text("Anna", NameKind::Players, file.encoding()).unwrap();
    raw[4..].fill(0);
    assert_eq!(rebuilt.raw, raw);
    let err = parse_names_file(&bytes, NameKind::Players, &ReadOptions::strict()).unwrap_err();
    assert!(!err.to_string().contains("SECRET"));
}

#[test]
fn bad_move_bytes_are_warnings_with_offset_and_record() {
    let mut bytes = games_file(3);
    // Game 1, move 2: byte 19 is no square (column 9).
    bytes[16 + 68 + 8 + 1] = 19;
    // Game 2: move list ends after 3 moves, then a non-zero byte at move 10.
    bytes[16 + 2 * 68 + 8 + 9] = 44;
    let file = parse_game_file(&bytes, &lenient()).unwrap();
    let messages: Vec<String> = file.warnings().iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            "byte 93 (record 1): move 2 is byte 19, which is no square of the board",
            "byte 169 (record 2): non-zero byte at move 10 after the 0 that ends the move list, expected zeros",
        ]
    );
    let game = file.get(1).unwrap();
    let moves: Vec<_> = game.moves().collect();
    assert_eq!(moves.len(), 3);
    assert_eq!(
        moves[1].unwrap_err().to_string(),
        "move 2 is byte 19, which is no square of the board"
    );
    // Parsed files still write back identical bytes.
    let mut back = Vec::new();
    file.write_to(&mut back).unwrap();
    assert_eq!(back, bytes);
    let err = parse_game_file(&bytes, &ReadOptions::strict()).unwrap_err();
    assert_eq!((err.offset(), err.record()), (93, Some(1)));
}

#[test]
fn trailing_bytes_are_a_warning_and_are_not_written_back() {
    let mut bytes = games_file(1);
    let original = bytes.clone();
    bytes.extend_from_slice(&[0; 5]);
    let file = parse_game_file(&bytes, &lenient()).unwrap();
    assert_eq!(
        file.warnings()[0].to_string(),
        "byte 84: 5 trailing bytes after the last record (records are 68 bytes)"
    );
    let mut back = Vec::new();
    file.write_to(&mut back).unwrap();
    assert_eq!(back, original);
}

#[test]
fn a_truncated_presence_table_is_an_error() {
    let mut bytes = vec![0u8; 16 + 100];
    bytes[13] = 1;
    let err = parse_solitaire_file(&bytes, &lenient()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 16: truncated presence table: expected 256 bytes, found 100"
    );
}

#[test]
fn p1_that_is_no_board_size_is_an_unknown_kind() {
    let mut bytes = games_file(1);
    bytes[12] = 9;
    let err = parse_game_file(&bytes, &lenient()).unwrap_err();
    assert_eq!(
        one_line(&err),
        "byte 12: not a WTHOR file: P1 = 9 is no board size (0, 8 or 10)"
    );
}

#[test]
fn an_ambiguous_header_only_file_needs_its_extension() {
    let bytes = [0u8; 16];
    let err = parse_any(&bytes, None, &lenient()).unwrap_err();
    assert!(one_line(&err).contains("fit several kinds"));
    for kind in FileKind::ALL {
        if kind == FileKind::Solitaires {
            continue;
        }
        let hinted = parse_any(&bytes, Some(kind), &lenient());
        match kind {
            // P1 = 0 is no 10x10 header; the other kinds fit.
            FileKind::Games10 => assert!(hinted.is_err()),
            _ => assert_eq!(hinted.unwrap().kind(), kind),
        }
    }
}

#[test]
fn a_10x10_file_round_trips_and_decodes() {
    let game = Game::from_squares(3, 1, 2, 50, 50, &["g6", "j10", "a1"], BoardSize::Ten).unwrap();
    assert_eq!(&game.moves[..3], &[7 + 12 * 6, 130, 13]);
    let mut bytes = Vec::new();
    let header = Header {
        p1: 10,
        year: 2030,
        ..Header::default()
    };
    write_game_file(
        &header,
        BoardSize::Ten,
        std::slice::from_ref(&game),
        &mut bytes,
    )
    .unwrap();
    assert_eq!(bytes.len(), 16 + 104);
    let file = parse_any(&bytes, None, &lenient()).unwrap();
    assert_eq!(file.kind(), FileKind::Games10);
    let WthorFile::Games(games) = file else {
        panic!("not games")
    };
    let view = games.get(0).unwrap();
    assert_eq!(view.to_game(), game);
    let names: Vec<String> = view.moves().map(|m| m.unwrap().to_string()).collect();
    assert_eq!(names, ["g6", "j10", "a1"]);
    assert!(games.warnings().is_empty());
}
