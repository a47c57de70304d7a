//! Every kind of query on the real database (`$WTHOR_DATA/wthor`, top
//! level) checked against a plain scan written here: its own reading of
//! the files (the format crate, not the database), its own name matching,
//! its own replay on the mailbox board and its own symmetries.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use othello_core::mailbox::Mailbox8;
use othello_core::{Bitboard, Board, Board8, Color, Size, Square};
use wthor_db::index::IndexChoice;
use wthor_db::query::{OpeningMoves, Outcome, PlayerKind, Position, SortKey};
use wthor_db::{Database, DatabaseBuilder, Query};
use wthor_format::{NameKind, ReadOptions};

/// One game as the plain scan sees it.
struct Plain {
    file: String,
    index: usize,
    year: u16,
    black: u16,
    white: u16,
    tournament: u16,
    score: u8,
    theoretical: u8,
    moves: Vec<u8>,
}

struct PlainDb {
    games: Vec<Plain>,
    players: Vec<String>,
    tournaments: Vec<String>,
}

fn names(path: &Path, kind: NameKind) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap();
    let file = wthor_format::parse_names_file(&bytes, kind, &ReadOptions::default()).unwrap();
    file.names()
        .map(|n| n.decode(file.encoding()).trim_end().to_owned())
        .collect()
}

/// The 8x8 game files of the top level, and the 2026 names files (the
/// newest of the two releases there: `WTH.JOU` of 2026-02-16 beats
/// `WTHOR.JOU` of 2022-06-26).
fn plain(dir: &Path) -> PlainDb {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    paths.sort();
    let mut games = Vec::new();
    for path in paths {
        let bytes = std::fs::read(&path).unwrap();
        let file = wthor_format::parse_game_file(&bytes, &ReadOptions::default()).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        for (index, g) in file.games().enumerate() {
            games.push(Plain {
                file: name.clone(),
                index,
                year: file.header().year,
                black: g.black(),
                white: g.white(),
                tournament: g.tournament(),
                score: g.real_score(),
                theoretical: g.theoretical_score(),
                moves: g.moves_raw()[..g.move_count()].to_vec(),
            });
        }
    }
    PlainDb {
        games,
        players: names(&dir.join("WTH.JOU"), NameKind::Players),
        tournaments: names(&dir.join("WTH.TRN"), NameKind::Tournaments),
    }
}

/// Lower case, Latin accents dropped (a table of its own).
fn simple_fold(s: &str) -> String {
    s.trim()
        .chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            c => c,
        })
        .collect()
}

fn name_matches(names: &[String], n: u16, pattern: &str, exact: bool) -> bool {
    names.get(usize::from(n)).is_some_and(|name| {
        let (name, pattern) = (simple_fold(name), simple_fold(pattern));
        if exact {
            name == pattern
        } else {
            name.contains(&pattern)
        }
    })
}

fn program(names: &[String], n: u16) -> bool {
    names
        .get(usize::from(n))
        .is_some_and(|name| name.contains(" (") && !name.starts_with(" ("))
}

/// The squares (bit index) of black and white after `ply` discs, replayed
/// on the mailbox board move by move (a pass when the mover has no move),
/// with the side to move; `None` when the game is shorter or illegal.
fn mailbox_after(moves: &[u8], ply: usize) -> Option<Vec<(u64, u64, Color)>> {
    let mut b = Mailbox8::start();
    for &byte in moves.get(..ply)? {
        let (col, row) = (byte % 10 - 1, byte / 10 - 1);
        let sq = Square::from_coords(col, row, Size::Eight)?;
        if (b.player() | b.opponent()).has(sq) {
            return None;
        }
        if b.flips(sq).is_empty() {
            b = b.pass();
        }
        let flips = b.flips(sq);
        if flips.is_empty() {
            return None;
        }
        b = b.play_with_flips_unchecked(sq, flips);
    }
    let bits = |b: &Mailbox8, c: Color| -> u64 {
        (0..64u8)
            .filter(|&i| b.discs(c).has(Square::new_unchecked(i)))
            .fold(0, |acc, i| acc | 1 << i)
    };
    let mut out = vec![(
        bits(&b, Color::Black),
        bits(&b, Color::White),
        b.side_to_move(),
    )];
    if b.legal_moves().is_empty() && !b.pass().legal_moves().is_empty() {
        out.push((out[0].0, out[0].1, b.side_to_move().other()));
    }
    Some(out)
}

/// The 8 images of a set of squares, by coordinates.
fn images(x: u64) -> [u64; 8] {
    let mut out = [0; 8];
    for (k, img) in out.iter_mut().enumerate() {
        for i in 0..64 {
            if x >> i & 1 == 1 {
                let (mut c, mut r) = (i % 8, i / 8);
                if k & 4 != 0 {
                    std::mem::swap(&mut c, &mut r);
                }
                if k & 1 != 0 {
                    c = 7 - c;
                }
                if k & 2 != 0 {
                    r = 7 - r;
                }
                *img |= 1 << (r * 8 + c);
            }
        }
    }
    out
}

fn outcome(score: u8) -> Outcome {
    match score {
        33.. => Outcome::BlackWin,
        32 => Outcome::Draw,
        _ => Outcome::WhiteWin,
    }
}

fn ids(db: &Database, found: &[wthor_db::GameId]) -> Vec<(String, usize)> {
    found
        .iter()
        .map(|&id| (db.files()[id.file()].file_name(), id.index()))
        .collect()
}

#[track_caller]
fn check(db: &Database, plain: &PlainDb, query: &Query, expect: impl Fn(&Plain) -> bool) {
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    let want: Vec<(String, usize)> = plain
        .games
        .iter()
        .filter(|g| expect(g))
        .map(|g| (g.file.clone(), g.index))
        .collect();
    assert!(
        !want.is_empty(),
        "a query that finds nothing proves little: {query:?}"
    );
    let got = scan.search(query).unwrap().value;
    assert_eq!(ids(db, &got), want, "{query:?}");
    assert_eq!(got, seq.search(query).unwrap().value, "{query:?}");
    assert_eq!(scan.count(query).unwrap().value, want.len(), "{query:?}");
}

#[test]
#[ignore = "needs WTHOR_DATA"]
fn real_queries_equal_a_plain_scan() {
    let data = crate::wthor_data();
    let dir = data.join("wthor");
    let db = DatabaseBuilder::new().source(&dir).open().unwrap();
    let scan = db.searcher(IndexChoice::Never);
    let seq = db.searcher(IndexChoice::Never).sequential();
    let p = plain(&dir);
    assert_eq!(db.game_count(), p.games.len());
    // Every game file is joined with the 2026 release's names.
    for (f, file) in db.files().iter().enumerate() {
        if file.board_size().is_some() {
            let join = db.join(f);
            assert_eq!(db.files()[join.players.unwrap()].file_name(), "WTH.JOU");
            assert_eq!(db.files()[join.tournaments.unwrap()].file_name(), "WTH.TRN");
        }
    }
    let (pl, tr) = (&p.players, &p.tournaments);

    check(&db, &p, &Query::new().player("tastet"), |g| {
        name_matches(pl, g.black, "tastet", false) || name_matches(pl, g.white, "tastet", false)
    });
    check(
        &db,
        &p,
        &Query::new().player("Kashiwabara").player("scorpion"),
        |g| {
            let (b, w) = (g.black, g.white);
            name_matches(pl, b, "kashiwabara", false) && name_matches(pl, w, "scorpion", false)
                || name_matches(pl, w, "kashiwabara", false)
                    && name_matches(pl, b, "scorpion", false)
        },
    );
    check(
        &db,
        &p,
        &Query::new().black("MURAKAMI").white("(buro)"),
        |g| {
            name_matches(pl, g.black, "murakami", false)
                && name_matches(pl, g.white, "(buro)", false)
        },
    );
    check(
        &db,
        &p,
        &Query::new().player("Tastet Marc").exact(true),
        |g| {
            name_matches(pl, g.black, "tastet marc", true)
                || name_matches(pl, g.white, "tastet marc", true)
        },
    );
    check(
        &db,
        &p,
        &Query::new()
            .kind(PlayerKind::Program)
            .years(Some(1995), Some(1996)),
        |g| (1995..=1996).contains(&g.year) && (program(pl, g.black) || program(pl, g.white)),
    );
    check(
        &db,
        &p,
        &Query::new().kind(PlayerKind::Human).years(Some(2024), None),
        |g| g.year >= 2024 && !program(pl, g.black) && !program(pl, g.white),
    );
    check(
        &db,
        &p,
        &Query::new().tournament("championnat de france"),
        |g| name_matches(tr, g.tournament, "championnat de france", false),
    );
    check(
        &db,
        &p,
        &Query::new().years(None, Some(1985)).result(Outcome::Draw),
        |g| g.year <= 1985 && outcome(g.score) == Outcome::Draw,
    );
    check(
        &db,
        &p,
        &Query::new().result(Outcome::WhiteWin).black_discs(10, 20),
        |g| outcome(g.score) == Outcome::WhiteWin && (10..=20).contains(&g.score),
    );
    check(
        &db,
        &p,
        &Query::new()
            .theoretical(60, 64)
            .years(Some(2010), Some(2012)),
        |g| (2010..=2012).contains(&g.year) && (60..=64).contains(&g.theoretical),
    );

    // Openings: the 8 images of the squares, by coordinates.
    let transcript = "f5d6c3d3c4";
    let squares: Vec<u64> = (0..5)
        .map(|i| {
            let t = &transcript[2 * i..2 * i + 2];
            let (c, r) = (t.as_bytes()[0] - b'a', t.as_bytes()[1] - b'1');
            1u64 << (r * 8 + c)
        })
        .collect();
    let byte = |bit: u64| {
        let i = bit.trailing_zeros() as u8;
        (i / 8 + 1) * 10 + i % 8 + 1
    };
    let seqs: BTreeSet<Vec<u8>> = (0..8)
        .map(|k| squares.iter().map(|&s| byte(images(s)[k])).collect())
        .collect();
    let opening = OpeningMoves::parse(transcript, Size::Eight).unwrap();
    check(&db, &p, &Query::new().opening(opening.clone()), |g| {
        seqs.iter().any(|s| g.moves.starts_with(s))
    });
    let played: Vec<u8> = squares.iter().map(|&s| byte(s)).collect();
    check(
        &db,
        &p,
        &Query::new().opening(opening).as_played(true),
        |g| g.moves.starts_with(&played),
    );

    // Positions after 10, 20 and 40 moves of a real game, each in a
    // rotated orientation.
    let source = p.games.iter().find(|g| g.year == 2020).unwrap();
    for (ply, sym) in [(10, 0), (20, 5), (40, 6)] {
        let target = mailbox_after(&source.moves, ply).unwrap()[0];
        let (tb, tw) = (images(target.0), images(target.1));
        let board = Board8::from_colors(tb[sym], tw[sym], target.2).unwrap();
        let q = Query::new().position(Position::Eight(board));
        check(&db, &p, &q, |g| {
            mailbox_after(&g.moves, ply).is_some_and(|reached| {
                reached.iter().any(|&(b, w, side)| {
                    let (ib, iw) = (images(b), images(w));
                    side == target.2 && (0..8).any(|k| ib[k] == tb[sym] && iw[k] == tw[sym])
                })
            })
        });
    }

    // Sort and limit: by score, ties in database order, the first 50.
    let q = Query::new()
        .player("nicolet")
        .sort(SortKey::Score)
        .limit(50);
    let mut want: Vec<&Plain> = p
        .games
        .iter()
        .filter(|g| {
            name_matches(pl, g.black, "nicolet", false)
                || name_matches(pl, g.white, "nicolet", false)
        })
        .collect();
    want.sort_by_key(|g| g.score);
    want.truncate(50);
    let want: Vec<(String, usize)> = want.iter().map(|g| (g.file.clone(), g.index)).collect();
    let got = scan.search(&q).unwrap().value;
    assert_eq!(ids(&db, &got), want);
    assert_eq!(got, seq.search(&q).unwrap().value);
}
