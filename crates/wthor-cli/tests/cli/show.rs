//! `wthor show`: the text output on the fixture database (snapshots), the
//! SVG (valid XML, what it draws) and the PNG (decodes, its size).

use std::path::Path;

use wthor_format::{Header, Name, NameKind, WINDOWS_1252, write_names_file};

use crate::info::{stderr, stdout};
use crate::{check, workspace_root, wthor};

#[test]
fn show_text_8x8_with_legal_moves() {
    insta::assert_snapshot!(check(
        &[
            "show",
            "testdata/WTH_2001.wtb",
            "3",
            "--move",
            "20",
            "--legal"
        ],
        0
    ));
}

#[test]
fn show_text_final_position_10x10() {
    insta::assert_snapshot!(check(&["show", "testdata/WTH_2001.wtd", "3"], 0));
}

#[test]
fn show_text_by_empties_and_the_start() {
    // Game #22 of WTH_2001.wtb holds a pass.
    let by_empties = check(
        &["show", "testdata/WTH_2001.wtb", "22", "--empties", "30"],
        0,
    );
    let by_move = check(&["show", "testdata/WTH_2001.wtb", "22", "--move", "30"], 0);
    assert_eq!(by_empties, by_move);
    insta::assert_snapshot!(check(
        &[
            "show",
            "testdata/WTH_2002.wtd",
            "0",
            "--move",
            "0",
            "--legal"
        ],
        0
    ));
}

#[test]
fn show_out_of_range_is_a_usage_error() {
    for args in [
        &["show", "testdata/WTH_2001.wtb", "3", "--move", "61"][..],
        &["show", "testdata/WTH_2001.wtb", "3", "--empties", "61"],
        &["show", "testdata/WTH_2001.wtb", "99"],
        &["show", "testdata/WTHOR.JOU", "0"],
    ] {
        let out = wthor(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).starts_with("wthor: "), "{}", stderr(&out));
    }
    let out = wthor(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--move",
        "1",
        "--empties",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn an_illegal_game_shows_up_to_the_move_and_exits_1() {
    let out = wthor(&["show", "testdata/malformed/illegal_move.wtb", "0"]);
    assert_eq!(out.status.code(), Some(1));
    let t = stdout(&out);
    assert!(t.contains("position: after move 1 (black e6)"), "{t}");
    assert!(t.contains("illegal move 2 (a1): "), "{t}");
}

/// Runs show with `--svg` into a temporary directory and returns the SVG.
fn svg_of(args: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("p.svg");
    let mut all = args.to_vec();
    all.extend(["--svg", path.to_str().unwrap()]);
    let out = wthor(&all);
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(&path).unwrap()
}

/// The `<text>` contents and the number of `<circle>`s of a drawing, after
/// checking that it is XML with an `svg` root of the expected size.
fn parse_svg(svg: &str, side: u32) -> (Vec<String>, usize) {
    let doc = roxmltree::Document::parse(svg).expect("the SVG is XML");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(root.attribute("width"), Some(side.to_string().as_str()));
    let texts = root
        .descendants()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or_default().to_owned())
        .collect();
    let circles = root
        .descendants()
        .filter(|n| n.has_tag_name("circle"))
        .count();
    (texts, circles)
}

#[test]
fn svg_draws_discs_coordinates_numbers_and_legal_moves() {
    let plain = svg_of(&["show", "testdata/WTH_2001.wtb", "3", "--move", "20"]);
    let (texts, circles) = parse_svg(&plain, 440);
    let coords: Vec<&str> = texts.iter().map(String::as_str).collect();
    assert_eq!(
        coords,
        [
            "a", "1", "b", "2", "c", "3", "d", "4", "e", "5", "f", "6", "g", "7", "h", "8"
        ]
    );
    // 4 dots of the 8x8 board, 24 discs, the last-move dot.
    assert_eq!(circles, 4 + 24 + 1);

    let full = svg_of(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--move",
        "20",
        "--numbers",
        "--legal",
    ]);
    let (texts, circles) = parse_svg(&full, 440);
    let mut numbers: Vec<u32> = texts[16..].iter().map(|t| t.parse().unwrap()).collect();
    numbers.sort_unstable();
    assert_eq!(numbers, (1..=20).collect::<Vec<_>>());
    // The last move's ring instead of its dot, and the legal moves (the
    // `*` of the text board).
    let text = check(
        &[
            "show",
            "testdata/WTH_2001.wtb",
            "3",
            "--move",
            "20",
            "--legal",
        ],
        0,
    );
    let legal = text
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()));
    let legal: usize = legal.map(|l| l.matches('*').count()).sum();
    assert!(legal > 0);
    assert_eq!(circles, 4 + 24 + 1 + legal);
    insta::assert_snapshot!(full);

    let ten = svg_of(&["show", "testdata/WTH_2001.wtd", "3", "--numbers"]);
    let (texts, circles) = parse_svg(&ten, 536);
    assert_eq!(texts.len(), 20 + 96);
    assert_eq!(circles, 100 + 1);
}

#[test]
fn svg_escapes_names() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        workspace_root().join("testdata/WTH_2001.wtb"),
        dir.path().join("WTH_2001.wtb"),
    )
    .unwrap();
    let name = "<A&B> \"q\" 'x'";
    let names = vec![Name::from_text(name, NameKind::Players, WINDOWS_1252).unwrap(); 12];
    let mut bytes = Vec::new();
    write_names_file(&Header::default(), NameKind::Players, &names, &mut bytes).unwrap();
    std::fs::write(dir.path().join("WTHOR.JOU"), bytes).unwrap();
    let game = dir.path().join("WTH_2001.wtb");
    let svg = svg_of(&["show", game.to_str().unwrap(), "3"]);
    let doc = roxmltree::Document::parse(&svg).expect("the SVG is XML");
    let title = doc
        .descendants()
        .find(|n| n.has_tag_name("title"))
        .and_then(|n| n.text())
        .unwrap();
    assert!(
        title.starts_with(&format!(
            "{name} - {name}, <tournament 1> 2001, after move "
        )),
        "{title}"
    );
    assert!(svg.contains("&lt;A&amp;B&gt;"));
}

fn png_size(path: &Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let mut reader = decoder.read_info().expect("a PNG header");
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).expect("the PNG decodes");
    // Not a blank picture: the frame, the board and the discs differ.
    let distinct: std::collections::HashSet<&[u8]> = buf[..info.buffer_size()]
        .chunks(info.line_size / info.width as usize)
        .collect();
    assert!(distinct.len() > 10, "{} colours", distinct.len());
    (info.width, info.height)
}

#[test]
fn png_decodes_at_the_drawing_size() {
    let dir = tempfile::tempdir().unwrap();
    let p8 = dir.path().join("p8.png");
    let p10 = dir.path().join("p10.png");
    let p2 = dir.path().join("p2.png");
    for (file, png, scale) in [
        ("testdata/WTH_2001.wtb", &p8, "1"),
        ("testdata/WTH_2001.wtd", &p10, "1"),
        ("testdata/WTH_2001.wtb", &p2, "2"),
    ] {
        let out = wthor(&[
            "show",
            file,
            "3",
            "--numbers",
            "--legal",
            "--png",
            png.to_str().unwrap(),
            "--scale",
            scale,
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(png_size(&p8), (440, 440));
    assert_eq!(png_size(&p10), (536, 536));
    assert_eq!(png_size(&p2), (880, 880));
}

/// A picture into a folder that does not exist is refused before the
/// position is printed (the board came first, then exit 2).
#[test]
fn a_picture_path_is_checked_before_anything_is_printed() {
    let dir = tempfile::tempdir().unwrap();
    let nowhere = dir.path().join("no/x.png");
    let out = wthor(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--png",
        nowhere.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        format!(
            "wthor: {}: cannot write: folder {} does not exist\n",
            nowhere.display(),
            dir.path().join("no").display()
        )
    );
    let out = wthor(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--svg",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(out.stdout, b"");
}

#[test]
fn pictures_replace_a_file_whole_or_not_at_all() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("p.png");
    std::fs::write(&target, "old").unwrap();
    let out = wthor(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--png",
        target.to_str().unwrap(),
    ]);
    assert!(out.status.success());
    png_size(&target);
    // A missing directory: an error, and nothing written.
    let missing = dir.path().join("no/such/dir/p.svg");
    let out = wthor(&[
        "show",
        "testdata/WTH_2001.wtb",
        "3",
        "--svg",
        missing.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!missing.exists());
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["p.png"]);
}

/// `--numbers` in text mode draws the move numbers too (issue 29, item 8):
/// a second board where each disc played shows the number of its move and
/// the four start discs their colour.
#[test]
fn show_text_numbers_draws_a_board_of_move_numbers() {
    let text = check(
        &[
            "show",
            "testdata/WTH_2001.wtb",
            "3",
            "--move",
            "20",
            "--numbers",
        ],
        0,
    );
    let plain = check(&["show", "testdata/WTH_2001.wtb", "3", "--move", "20"], 0);
    assert!(text.starts_with(&plain), "{text}");
    insta::assert_snapshot!(&text[plain.len()..]);
    let ten = check(&["show", "testdata/WTH_2001.wtd", "3", "--numbers"], 0);
    // 96 moves: every number up to 96 shows once.
    for k in 1..=96 {
        let cells = ten
            .lines()
            .skip_while(|l| *l != "moves:")
            .flat_map(str::split_whitespace)
            .filter(|c| *c == k.to_string())
            .count();
        assert!(cells >= 1, "{k}: {ten}");
    }
}

/// A game file named without a folder (`WTH_2001.wtb`, run from its
/// folder) is joined with the names files beside it, as `./WTH_2001.wtb`.
#[test]
fn a_bare_file_name_is_joined_with_the_names_beside_it() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["WTH_2001.wtb", "WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(
            workspace_root().join("testdata").join(name),
            dir.path().join(name),
        )
        .unwrap();
    }
    let bare = crate::info::wthor_in(dir.path(), &["show", "WTH_2001.wtb", "3"]);
    let dotted = crate::info::wthor_in(dir.path(), &["show", "./WTH_2001.wtb", "3"]);
    assert!(bare.status.success(), "{}", stderr(&bare));
    assert!(
        stdout(&bare).contains("black: Logistello (buro) (#5)"),
        "{}",
        stdout(&bare)
    );
    assert_eq!(stdout(&bare), stdout(&dotted));
}
