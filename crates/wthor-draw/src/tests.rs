use othello_core::notation::parse_transcript;
use othello_core::{Board, Board8, Board10, Color, Move, Size, Square};

use super::svg::xml_escape;
use super::*;

/// What a drawing holds, read back from its XML.
#[derive(Debug, Default)]
struct Drawn {
    width: String,
    view_box: String,
    title: Option<String>,
    black: usize,
    white: usize,
    /// The red dots and rings of the last move.
    last: usize,
    /// The translucent dots of the legal moves.
    legal: usize,
    texts: Vec<String>,
}

fn read(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), root.attribute("height"));
    let mut d = Drawn {
        width: root.attribute("width").unwrap().to_owned(),
        view_box: root.attribute("viewBox").unwrap().to_owned(),
        title: doc
            .descendants()
            .find(|n| n.has_tag_name("title"))
            .map(|n| n.text().unwrap_or_default().to_owned()),
        ..Drawn::default()
    };
    for n in root.descendants() {
        if n.has_tag_name("text") {
            d.texts.push(n.text().unwrap_or_default().to_owned());
        }
        if !n.has_tag_name("circle") {
            continue;
        }
        match (n.attribute("stroke"), n.attribute("fill")) {
            (Some("#000000"), _) => d.black += 1,
            (Some("#222222"), _) => d.white += 1,
            (Some("#e53935"), _) | (_, Some("#e53935")) => d.last += 1,
            _ if n.attribute("fill-opacity").is_some() => d.legal += 1,
            _ => {}
        }
    }
    d
}

fn after<B: Board>(transcript: &str) -> (B, Option<Square>) {
    let mut board = B::start();
    let mut last = None;
    for mv in parse_transcript(transcript, B::SIZE).unwrap() {
        board = board.play(mv).unwrap();
        if let Move::Play(sq) = mv {
            last = Some(sq);
        }
    }
    (board, last)
}

#[test]
fn the_discs_drawn_are_the_boards() {
    for transcript in ["", "f5", "f5d6c3d3c4f4f6f3e6e7", "f5f6e6f4e3c5c4e7c6"] {
        let (board, last) = after::<Board8>(transcript);
        let p = Position::from_board(&board).with_last_move(last).unwrap();
        let d = read(&svg(&p, &Options::default()));
        assert_eq!(d.black as u32, board.count(Color::Black), "{transcript}");
        assert_eq!(d.white as u32, board.count(Color::White), "{transcript}");
        assert_eq!(d.last, usize::from(last.is_some()));
        assert_eq!(
            (d.width.as_str(), d.view_box.as_str()),
            ("440", "0 0 440 440")
        );
    }
    let (board, last) = after::<Board10>("g6e7");
    let p = Position::from_board(&board).with_last_move(last).unwrap();
    let d = read(&svg(&p, &Options::default()));
    assert_eq!((d.black, d.white), (3, 3));
    assert_eq!(d.black as u32, board.count(Color::Black));
    assert_eq!(d.width, "536");
    let letters: Vec<&str> = d.texts.iter().step_by(2).map(String::as_str).collect();
    assert_eq!(letters, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
    assert_eq!(d.texts.last().unwrap(), "10");
}

#[test]
fn options_change_what_is_drawn() {
    let (board, last) = after::<Board8>("f5d6c3d3c4");
    let mut numbers = vec![None; 64];
    for (k, mv) in parse_transcript("f5d6c3d3c4", Size::Eight)
        .unwrap()
        .iter()
        .enumerate()
    {
        numbers[mv.square().unwrap().index()] = Some(k as u32 + 1);
    }
    let p = Position::from_board(&board)
        .with_last_move(last)
        .unwrap()
        .with_numbers(numbers)
        .unwrap();
    let plain = read(&svg(&p, &Options::default()));
    assert_eq!(plain.texts.len(), 16);
    assert_eq!((plain.last, plain.legal, plain.title), (1, 0, None));

    let bare = Options {
        coordinates: false,
        last_move: false,
        ..Options::default()
    };
    let d = read(&svg(&p, &bare));
    assert!(d.texts.is_empty());
    assert_eq!(d.last, 0);
    assert_eq!(
        (d.width.as_str(), d.view_box.as_str()),
        ("392", "0 0 392 392")
    );
    assert_eq!(picture_side(Size::Ten, &bare), 488);

    let full = Options {
        size: Some(300),
        numbers: true,
        legal: true,
        title: Some("a <b> & 'c'".into()),
        ..Options::default()
    };
    let d = read(&svg(&p, &full));
    assert_eq!(
        (d.width.as_str(), d.view_box.as_str()),
        ("300", "0 0 440 440")
    );
    let mut drawn: Vec<u32> = d.texts[16..].iter().map(|t| t.parse().unwrap()).collect();
    drawn.sort_unstable();
    assert_eq!(drawn, [1, 2, 3, 4, 5]);
    assert_eq!(d.legal, board.legal_moves().count() as usize);
    assert_eq!(d.last, 1); // the ring
    assert_eq!(d.title.as_deref(), Some("a <b> & 'c'"));
    assert_eq!((d.black, d.white), (plain.black, plain.white));
}

#[test]
fn legal_moves_are_those_of_the_side_that_plays_next() {
    // Black to move has no move; white has one, on a1.
    let obf = format!("-XO{} X", "O".repeat(61));
    let board = Board8::from_obf(&obf).unwrap();
    let p = Position::from_board(&board);
    assert_eq!(p.to_move(), Some(Color::White));
    assert_eq!(p.legal_moves(), [Square::new_unchecked(0)]);
    let d = read(&svg(
        &p,
        &Options {
            legal: true,
            ..Options::default()
        },
    ));
    assert_eq!((d.black, d.white, d.legal), (1, 62, 1));
    // A full board: the game is over, nothing to mark.
    let full = Board8::from_obf(&format!("{} O", "X".repeat(64))).unwrap();
    let p = Position::from_board(&full);
    assert_eq!(p.to_move(), None);
    assert!(p.legal_moves().is_empty());
    // Given squares and side: the same moves as the board's.
    let (board, _) = after::<Board10>("g6");
    let p = Position::from_board(&board);
    let q = Position::new(Size::Ten, p.squares().to_vec(), Some(Color::White)).unwrap();
    assert_eq!(p, q);
    assert_eq!(
        q.legal_moves(),
        board.legal_moves().squares().collect::<Vec<_>>()
    );
}

#[test]
fn positions_that_do_not_fit_their_board_are_errors() {
    let e = Position::new(Size::Eight, vec![None; 100], None).unwrap_err();
    assert_eq!(e.to_string(), "a 8x8 board has 64 squares, not 100");
    let p = Position::from_board(&Board8::start());
    let e = p
        .clone()
        .with_last_move(Some(Square::new_unchecked(64)))
        .unwrap_err();
    assert!(matches!(e, Error::OffBoard { index: 64, .. }), "{e}");
    assert!(matches!(
        p.with_numbers(vec![None; 60]),
        Err(Error::Squares { found: 60, .. })
    ));
}

#[test]
fn escapes_markup_and_forbidden_characters() {
    assert_eq!(
        xml_escape("a<b>&\"c'\u{1}\té"),
        "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}\té"
    );
}

#[cfg(feature = "png")]
#[test]
fn png_has_the_size_of_the_drawing_times_the_scale() {
    fn width_height(png: &[u8]) -> (u32, u32) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
        (be(16), be(20))
    }
    let p = Position::from_board(&Board10::start());
    let natural = svg(&p, &Options::default());
    assert_eq!(width_height(&png(&natural, 1.0).unwrap()), (536, 536));
    assert_eq!(width_height(&png(&natural, 2.0).unwrap()), (1072, 1072));
    let small = svg(
        &p,
        &Options {
            size: Some(100),
            ..Options::default()
        },
    );
    assert_eq!(width_height(&png(&small, 1.0).unwrap()), (100, 100));
    assert!(matches!(png(&natural, 0.0), Err(Error::EmptyPicture(_))));
    assert!(matches!(png("<svg", 1.0), Err(Error::Parse(_))));
}

/// The points of SVG path data made of absolute commands (`M`, `L`, `Q`,
/// `C`, `Z`) and coordinate pairs.
#[cfg(feature = "png")]
fn path_points(d: &str) -> Vec<(f32, f32)> {
    let numbers: Vec<f32> = d
        .split(|c: char| c.is_ascii_alphabetic() || c == ' ')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    numbers.chunks(2).map(|p| (p[0], p[1])).collect()
}

#[cfg(feature = "png")]
#[test]
fn the_png_draws_each_text_as_the_glyphs_of_the_font() {
    // A board: every text becomes a path of its colour, nothing else changes.
    let p = Position::from_board(&Board8::start());
    let drawing = svg(&p, &Options::default());
    let outlined = png::text_as_paths(&drawing).unwrap();
    assert!(!outlined.contains("<text"), "{outlined}");
    let doc = roxmltree::Document::parse(&outlined).unwrap();
    let coordinates: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("path") && n.attribute("fill") == Some("#f0e6d2"))
        .collect();
    assert_eq!(coordinates.len(), read(&drawing).texts.len());
    assert_eq!(coordinates.len(), 16);
    assert_eq!(
        outlined.matches("<circle").count(),
        drawing.matches("<circle").count()
    );

    // Where the glyphs go: "10" at size 40 in DejaVu Sans Bold, on the
    // baseline y = 100, anchored at x = 50. The font's figures (em of 2048
    // units): both advance 1425 and are not kerned; "1" has its ink from
    // x = 231 to 1284, from the baseline to 1493; "0" from 98 to 1327, from
    // 29 below the baseline to 1520.
    let svg_with = |anchor: &str| {
        format!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><text x="50" y="100" font-size="40" fill="red"{anchor}>10</text></svg>"#
        )
    };
    let bounds = |svg: &str| {
        let outlined = png::text_as_paths(svg).unwrap();
        let doc = roxmltree::Document::parse(&outlined).unwrap();
        let path = doc.descendants().find(|n| n.has_tag_name("path")).unwrap();
        assert_eq!(path.attribute("fill"), Some("red"));
        let points = path_points(path.attribute("d").unwrap());
        let fold = |f: fn(f32, f32) -> f32, pick: fn(&(f32, f32)) -> f32, start: f32| {
            points.iter().map(pick).fold(start, f)
        };
        [
            fold(f32::min, |p| p.0, f32::MAX),
            fold(f32::max, |p| p.0, f32::MIN),
            fold(f32::min, |p| p.1, f32::MAX),
            fold(f32::max, |p| p.1, f32::MIN),
        ]
    };
    let unit = 40.0 / 2048.0;
    let width = 2.0 * 1425.0 * unit;
    for (anchor, left) in [
        ("", 50.0),
        (r#" text-anchor="start""#, 50.0),
        (r#" text-anchor="middle""#, 50.0 - width / 2.0),
        (r#" text-anchor="end""#, 50.0 - width),
    ] {
        let expected = [
            left + 231.0 * unit,
            left + (1425.0 + 1327.0) * unit,
            100.0 - 1520.0 * unit,
            100.0 + 29.0 * unit,
        ];
        let found = bounds(&svg_with(anchor));
        for (f, e) in found.iter().zip(expected) {
            assert!(
                (f - e).abs() < 0.02,
                "{anchor}: {found:?}, not {expected:?}"
            );
        }
    }

    // And the pixels: red ink in that box only.
    let png = png(&svg_with(r#" text-anchor="middle""#), 1.0).unwrap();
    let pixmap = resvg::tiny_skia::Pixmap::decode_png(&png).unwrap();
    let mut inked = 0;
    for (i, px) in pixmap.pixels().iter().enumerate() {
        if px.alpha() == 0 {
            continue;
        }
        let (x, y) = ((i % 120) as f32, (i / 120) as f32);
        assert!(px.red() > px.green() && px.red() > px.blue(), "{x},{y}");
        assert!((x - 50.0).abs() <= width / 2.0 + 1.0, "{x},{y}");
        assert!(y >= 100.0 - 1520.0 * unit - 1.0 && y <= 101.0, "{x},{y}");
        inked += 1;
    }
    assert!(inked > 300, "{inked}");
}
