//! `cargo xtask fixtures`: the fixture database in `testdata/`.
//!
//! Everything is generated from [`SEED`] by [`build`], deterministically: a
//! tiny built-in PRNG, random legal games written once over the [`Board`]
//! trait of `othello-core` for both sizes, exact scores from its solvers,
//! bytes laid out as `shared/spec/WTHOR.md` says. `cargo xtask fixtures`
//! writes the result; `cargo xtask fixtures --check` (and the test below,
//! under `cargo test --workspace`) fails, naming the files, when `testdata/`
//! is not exactly what the generator makes now.

mod bulk;
mod encode;
mod game;
mod malformed;
pub(crate) mod rng;

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use crate::util;
use encode::{GameRecord, Header, PuzzleRecord};
use game::{Game, black_discs};
use othello_core::solver::{GenericSolver, Solver, SolverOptions};
use othello_core::{Bitboard, Board, Board8, Board10, Color, Size, Square};
use rng::Rng;

/// The seed of everything in `testdata/`.
pub(crate) const SEED: u64 = 0x5754_484f_5232_0001;

/// P3 of the 8x8 game files: the theoretical scores are perfect play from
/// the position with 16 empty squares (the real files use 22 or 24; 16
/// keeps generation within seconds).
const P3_8X8: u8 = 16;
/// P3 of the 10x10 game files (12 would triple the generation time).
const P3_10X10: u8 = 10;
/// The empty squares of the puzzles of each solitaire file: all puzzles of
/// a file have the same number. After 48 moves black is to move unless a
/// side passed, after 47 white: both sides get puzzles.
const PUZZLE_EMPTIES: [u8; 2] = [12, 13];
/// At most this many puzzles per file.
const PUZZLES: usize = 10;
/// How many random games may be drawn to find the special games a file
/// needs (a draw, a game ending with empty squares…) before giving up.
const MAX_DRAWS: usize = 100_000;

/// The players, in Windows-1252 (at most 19 bytes each): accents, programs
/// with their author in parentheses, a name of exactly 19 characters.
const PLAYERS: &[&str] = &[
    "Hélène Dupré",
    "José Núñez",
    "Edax (delorme)",
    "François Lemaître",
    "Zoë Brønsted",
    "Logistello (buro)",
    "Ingrid Åkesson",
    "Jürgen Weiß",
    "Cassio (nicolet)",
    "Maximilien Ferrière",
    "Anna Kowalska",
    "Søren Ærø",
];

/// The players of the small files, then those of the bulk file.
fn all_players() -> Vec<&'static str> {
    PLAYERS
        .iter()
        .copied()
        .chain(bulk::PLAYERS.iter().map(|p| p.0))
        .chain(bulk::NEWCOMERS.iter().map(|p| p.0))
        .collect()
}

/// The tournaments (at most 25 bytes each, the last one exactly 25).
const TOURNAMENTS: &[&str] = &[
    "Championnat de France",
    "Open de Suède",
    "Coupe de Genève",
    "Tournoi de Noël",
    "Parties d'entraînement",
    "Grand Prix de Montréal 01",
];

/// One generated file: its path under `testdata/`, its bytes, and what it is
/// (a line of `testdata/README.md`).
pub(crate) struct Fixture {
    pub(crate) path: String,
    pub(crate) bytes: Vec<u8>,
    pub(crate) about: String,
}

/// `testdata/` in this checkout.
fn testdata() -> PathBuf {
    util::project_root().join("testdata")
}

/// `cargo xtask fixtures`: writes the fixtures and removes any other file
/// under `testdata/`.
pub(crate) fn update() -> Result<()> {
    let start = std::time::Instant::now();
    let fixtures = build()?;
    eprintln!(
        "generated {} files in {:.1} s",
        fixtures.len(),
        start.elapsed().as_secs_f64()
    );
    let dir = testdata();
    let changes = compare(&fixtures, &dir)?;
    for (change, rel) in &changes {
        let path = dir.join(rel);
        if *change == Change::NotGenerated {
            std::fs::remove_file(&path).with_context(|| format!("removing {}", path.display()))?;
            eprintln!("removed testdata/{rel}");
        } else {
            let fixture = fixtures.iter().find(|f| f.path == *rel).expect("a fixture");
            std::fs::create_dir_all(path.parent().expect("a file has a folder"))?;
            std::fs::write(&path, &fixture.bytes)
                .with_context(|| format!("writing {}", path.display()))?;
            eprintln!("wrote   testdata/{rel}");
        }
    }
    if changes.is_empty() {
        eprintln!("testdata/ was already up to date");
    }
    Ok(())
}

/// `cargo xtask fixtures --check`: fails, naming the files, when
/// `testdata/` differs from what [`build`] makes.
pub(crate) fn check() -> Result<()> {
    let fixtures = build()?;
    let changes = compare(&fixtures, &testdata())?;
    if changes.is_empty() {
        eprintln!("testdata/: all {} fixtures are up to date", fixtures.len());
        return Ok(());
    }
    let mut msg = String::from("testdata/ is not what the generator makes now:");
    for (change, rel) in &changes {
        let what = match change {
            Change::Differs => "differs",
            Change::Missing => "missing",
            Change::NotGenerated => "not generated",
        };
        write!(msg, "\n  {what}: testdata/{rel}")?;
    }
    msg += "\nrun `cargo xtask fixtures` and commit testdata/";
    bail!(msg)
}

/// How a file under `testdata/` disagrees with the generator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Change {
    /// The file's bytes are not the fixture's.
    Differs,
    /// A fixture has no file.
    Missing,
    /// A file is no fixture.
    NotGenerated,
}

/// Every disagreement between `fixtures` and the files under `dir`, with the
/// path relative to `dir` (`/`-separated).
fn compare(fixtures: &[Fixture], dir: &Path) -> Result<Vec<(Change, String)>> {
    let mut changes = Vec::new();
    for f in fixtures {
        match std::fs::read(dir.join(&f.path)) {
            Ok(bytes) if bytes == f.bytes => {}
            Ok(_) => changes.push((Change::Differs, f.path.clone())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                changes.push((Change::Missing, f.path.clone()));
            }
            Err(e) => return Err(e).with_context(|| format!("reading testdata/{}", f.path)),
        }
    }
    let known: BTreeSet<&str> = fixtures.iter().map(|f| f.path.as_str()).collect();
    if dir.is_dir() {
        for path in util::files_under(dir, |_| false)? {
            let rel = path.strip_prefix(dir).expect("under dir");
            let rel: Vec<_> = rel.iter().map(|p| p.to_string_lossy()).collect();
            let rel = rel.join("/");
            if !known.contains(rel.as_str()) {
                changes.push((Change::NotGenerated, rel));
            }
        }
    }
    Ok(changes)
}

/// Every fixture file, `testdata/README.md` last.
pub(crate) fn build() -> Result<Vec<Fixture>> {
    let mut rng = Rng::new(SEED);
    let mut endgame = Endgame::new();
    let mut out = vec![
        Fixture {
            path: "WTHOR.JOU".into(),
            bytes: encode::names_file(&all_players(), 20),
            about: format!(
                "{} players, Windows-1252: accented names, programs with their author \
                 in parentheses (`Edax (delorme)`), one name of exactly 19 bytes; the \
                 first {} play the small files, the others the {} file and those after it \
                 (the last, a newcomer, from {}).",
                all_players().len(),
                PLAYERS.len(),
                bulk::YEAR,
                bulk::NEWCOMERS[0].3
            ),
        },
        Fixture {
            path: "WTHOR.TRN".into(),
            bytes: encode::names_file(TOURNAMENTS, 26),
            about: format!(
                "{} tournaments, Windows-1252 (`Open de Suède`), one name of exactly 25 bytes.",
                TOURNAMENTS.len()
            ),
        },
    ];
    let mut games8 = Vec::new();
    for (year, plain) in [(2001, 20), (2002, 16)] {
        let file = GameFile::<Board8>::generate(&mut rng, &mut endgame, year, P3_8X8, plain)?;
        out.push(file.fixture("wtb"));
        games8.push(file);
    }
    for (year, plain) in [(2001, 8), (2002, 6)] {
        let file = GameFile::<Board10>::generate(&mut rng, &mut endgame, year, P3_10X10, plain)?;
        out.push(file.fixture("wtd"));
    }
    for empties in PUZZLE_EMPTIES {
        out.push(puzzles(&games8, &mut endgame.solver, empties)?);
    }
    out.extend(malformed::fixtures(&out));
    out.push(bulk::fixture(&mut endgame, PLAYERS.len()));
    let later = bulk::later_years(&mut endgame, PLAYERS.len());
    let known_play = bulk::known_play(&later);
    out.extend(later);
    out.push(known_play);
    let readme = readme(&out);
    out.push(readme);
    Ok(out)
}

/// Exact endgame scores from `othello-core`: its 8x8 solver, and on 10x10
/// its solver written over the `Board` trait.
struct Endgame {
    solver: Solver,
    ten: GenericSolver<Board10>,
}

impl Endgame {
    fn new() -> Self {
        // One thread: scores never depend on it, but the best move among
        // equal ones could.
        Self {
            solver: Solver::new(SolverOptions {
                threads: 1,
                tt_bits: 18,
            }),
            ten: GenericSolver::new(),
        }
    }
}

/// A board size the fixtures are generated for: its exact endgame score.
trait Exact: Board {
    /// The exact score of `self` for its side to move (empties to the
    /// winner).
    fn exact_score(&self, endgame: &mut Endgame) -> i32;
}

impl Exact for Board8 {
    fn exact_score(&self, endgame: &mut Endgame) -> i32 {
        endgame.solver.solve(self.player(), self.opponent()).score
    }
}

impl Exact for Board10 {
    fn exact_score(&self, endgame: &mut Endgame) -> i32 {
        endgame.ten.solve(self).score
    }
}

/// A generated game file: its records and the games they came from.
struct GameFile<B> {
    year: u16,
    p3: u8,
    records: Vec<GameRecord>,
    games: Vec<Game<B>>,
    /// Special games: what they are and their 0-based index in the file.
    notes: Vec<(String, usize)>,
}

/// What a special game of a file must be.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Special {
    /// A side passes before the end.
    Pass,
    /// Neither side can move while squares are still empty.
    EmptySquares,
    /// 32-32 (50-50 on 10x10) under the WTHOR rule.
    Draw,
    /// Stopped while moves remain.
    Unfinished,
}

impl Special {
    const ALL: [Special; 4] = [
        Special::Pass,
        Special::EmptySquares,
        Special::Draw,
        Special::Unfinished,
    ];

    fn describe(self) -> &'static str {
        match self {
            Special::Pass => "a side passes during the game",
            Special::EmptySquares => "ends with empty squares (neither side can move)",
            Special::Draw => "a draw",
            Special::Unfinished => {
                "unfinished: stopped while moves remain; its real score is the \
                 perfect-play result from where it stops"
            }
        }
    }
}

impl<B: Exact> GameFile<B> {
    /// `plain` random games plus one game of each [`Special`] kind, grouped
    /// by tournament.
    fn generate(
        rng: &mut Rng,
        endgame: &mut Endgame,
        year: u16,
        p3: u8,
        plain: usize,
    ) -> Result<Self> {
        let squares = B::SIZE.squares();
        let mut games: Vec<(Option<Special>, Game<B>)> = Vec::new();
        let mut wanted: Vec<Special> = Special::ALL.to_vec();
        let mut plain_left = plain;
        let mut draws = 0;
        while plain_left > 0 || !wanted.is_empty() {
            draws += 1;
            if draws > MAX_DRAWS {
                let missing: Vec<_> = wanted.iter().map(|s| s.describe()).collect();
                bail!(
                    "{} {year}: no game found for: {} in {MAX_DRAWS} random games",
                    B::SIZE,
                    missing.join("; ")
                );
            }
            let mut game = Game::<B>::random(rng);
            let last = game.last();
            let empties = last.empty_count();
            let is_draw = last.count(Color::Black) == last.count(Color::White);
            let kind = wanted.iter().copied().find(|s| match s {
                Special::Pass => game.passes > 0,
                Special::EmptySquares => empties > 0,
                Special::Draw => is_draw,
                // Stopped half-way between P3 and the end, where the side
                // to move still has a move.
                Special::Unfinished => game.moves.len() > squares - 4 - usize::from(p3) / 2,
            });
            match kind {
                Some(s) => {
                    if s == Special::Unfinished {
                        game.truncate(squares - 4 - usize::from(p3) / 2);
                    }
                    wanted.retain(|w| *w != s);
                    games.push((Some(s), game));
                }
                None if plain_left > 0 => {
                    plain_left -= 1;
                    games.push((None, game));
                }
                None => {}
            }
        }

        // Tournaments and players drawn at random; games grouped by
        // tournament as in the real files (a stable sort keeps the order of
        // generation within a tournament).
        let mut entries: Vec<(u16, Option<Special>, Game<B>)> = games
            .into_iter()
            .map(|(s, game)| (rng.below(TOURNAMENTS.len()) as u16, s, game))
            .collect();
        entries.sort_by_key(|e| e.0);

        let mut file = GameFile {
            year,
            p3,
            records: Vec::new(),
            games: Vec::new(),
            notes: Vec::new(),
        };
        for (index, (tournament, special, game)) in entries.into_iter().enumerate() {
            let black = rng.below(PLAYERS.len());
            let white = (black + 1 + rng.below(PLAYERS.len() - 1)) % PLAYERS.len();
            let last = game.last();
            let real = if special == Some(Special::Unfinished) {
                black_discs(&last, last.exact_score(endgame))
            } else {
                last.wthor_score().0 as u8
            };
            let at_p3 = squares - 4 - usize::from(p3);
            let theoretical = match game.positions.get(at_p3) {
                Some(pos) => black_discs(pos, pos.exact_score(endgame)),
                // The game was over before P3 empties: the real files then
                // store the real score.
                None => real,
            };
            file.records.push(GameRecord {
                tournament,
                black: black as u16,
                white: white as u16,
                real,
                theoretical,
                moves: game.wthor_bytes(),
            });
            if let Some(s) = special {
                file.notes.push((s.describe().to_owned(), index));
            }
            file.games.push(game);
        }
        file.notes.sort_by_key(|n| n.1);
        Ok(file)
    }

    fn fixture(&self, ext: &str) -> Fixture {
        let header = Header {
            n1: self.records.len() as u32,
            n2: 0,
            year: self.year,
            p1: B::SIZE.side(),
            p2: 0,
            p3: self.p3,
        };
        let slots = B::SIZE.squares() - 4;
        let mut about = format!(
            "{} games, {}, year {}, P3 = {}. Special games (0-based index):",
            self.records.len(),
            B::SIZE,
            self.year,
            self.p3
        );
        for (what, index) in &self.notes {
            write!(about, " #{index} {what};").expect("writing to a String");
        }
        about.pop();
        about.push('.');
        Fixture {
            path: format!("WTH_{}.{ext}", self.year),
            bytes: encode::game_file(&header, &self.records, slots),
            about,
        }
    }
}

/// A solitaire file: positions with `empties` empty squares from
/// the finished 8x8 fixture games, kept when exactly one move of the side to
/// move wins or draws under perfect play.
fn puzzles(files: &[GameFile<Board8>], solver: &mut Solver, empties: u8) -> Result<Fixture> {
    let at = 60 - usize::from(empties);
    let mut puzzles = Vec::new();
    'files: for file in files {
        for (record, game) in file.records.iter().zip(&file.games) {
            if puzzles.len() == PUZZLES {
                break 'files;
            }
            let Some(pos) = game.positions.get(at) else {
                continue;
            };
            let (p, o) = (pos.player(), pos.opponent());
            if pos.legal_moves().count() < 2 {
                continue;
            }
            let [sq] = solver.moves_at_least(p, o, 0)[..] else {
                continue;
            };
            let solution = solver.solve(p, o);
            if solution.best_move != Some(sq) {
                bail!("the solver's best move is not its only winning or drawing move");
            }
            puzzles.push(PuzzleRecord {
                year: file.year,
                tournament: record.tournament,
                black: u32::from(record.black),
                white: u32::from(record.white),
                black_discs: pos.discs(Color::Black),
                white_discs: pos.discs(Color::White),
                empties,
                black_to_move: pos.side_to_move() == Color::Black,
                score: solution.score as i8,
                first_move: Square::new_unchecked(sq).to_wthor(Size::Eight),
                real: record.real,
                move25: record.moves.get(24).copied().unwrap_or(0),
            });
        }
    }
    if puzzles.len() < 3 {
        bail!(
            "only {} puzzle positions with {empties} empties in the 8x8 fixture games",
            puzzles.len()
        );
    }
    Ok(Fixture {
        path: format!("Solitaires_{empties}.pzz"),
        about: format!(
            "{} puzzles with {empties} empty squares, taken from the 8x8 fixture \
             games (year, tournament, players, real score and move 25 are those of the game): \
             the side to move has exactly one move that wins or draws; the stored score and \
             first move are the solver's.",
            puzzles.len()
        ),
        bytes: encode::puzzle_file(empties, &puzzles),
    })
}

/// `testdata/README.md`, made from the fixtures' own descriptions so that it
/// cannot go stale.
fn readme(fixtures: &[Fixture]) -> Fixture {
    let mut text = format!(
        "# testdata: the fixture WTHOR database\n\
         \n\
         Generated by `cargo xtask fixtures` (source: `xtask/src/fixtures.rs`) from the\n\
         seed `{SEED:#018x}`; do not edit by hand. `cargo xtask fixtures --check`, and\n\
         the test `fixtures::tests::fixtures_are_up_to_date` under `cargo test\n\
         --workspace`, fail when these files differ from what the generator makes now.\n\
         \n\
         How they are made:\n\
         \n\
         - games are random legal games (moves drawn uniformly by a built-in SplitMix64\n\
         \x20 PRNG) on the bitboard kernels of `othello-core`; passes are not stored;\n\
         - real scores are black's discs under the WTHOR rule (empty squares go to the\n\
         \x20 winner, a draw splits them);\n\
         - theoretical scores are black's discs after perfect play from the position with\n\
         \x20 P3 empty squares, computed by `othello-core`'s exact solvers (`Solver` on 8x8,\n\
         \x20 `GenericSolver` on 10x10); P3 = {P3_8X8} for 8x8 and {P3_10X10} for 10x10, small so that\n\
         \x20 generation takes seconds ({} in the bulk file of {}, which holds most of the\n\
         \x20 games); a game over before P3 stores its real score;\n\
         - every header carries the creation date {}{:02}-{:02}-{:02};\n\
         - names are encoded in Windows-1252, NUL-terminated, zero-padded.\n\
         \n\
         | file | what it holds |\n\
         |---|---|\n",
        bulk::P3,
        bulk::YEAR,
        encode::DATE[0],
        encode::DATE[1],
        encode::DATE[2],
        encode::DATE[3],
    );
    for f in fixtures {
        writeln!(text, "| `{}` | {} |", f.path, f.about).expect("writing to a String");
    }
    text += "\nThe files under `malformed/` are for error tests; they are not part of the \
             database and readers must reject or report them. The file under `known-play/` \
             is not part of it either (see its line).\n";
    Fixture {
        path: "README.md".into(),
        bytes: text.into_bytes(),
        about: String::new(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn fixtures_are_up_to_date() {
        if let Err(e) = super::check() {
            panic!("{e:#}");
        }
    }
}
