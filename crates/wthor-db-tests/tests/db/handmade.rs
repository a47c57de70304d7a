//! Hand-made databases: a players file and 8x8 game files written with
//! `wthor-format`, for the tests that need games of their own (ratings,
//! reports, histories).

use std::path::Path;

use wthor_format::{BoardSize, Game, Header, Name, NameKind, WINDOWS_1252};

/// A game: tournament, black and white (numbers in the players file),
/// black's discs, the moves.
pub(crate) type Played<'a> = (u16, u16, u16, u8, &'a [&'a str]);

/// Writes `names` as a players file.
pub(crate) fn write_names(path: &Path, names: &[&str]) {
    let names: Vec<Name> = names
        .iter()
        .map(|n| Name::from_text(n, NameKind::Players, WINDOWS_1252).unwrap())
        .collect();
    let mut bytes = Vec::new();
    wthor_format::write_names_file(&Header::default(), NameKind::Players, &names, &mut bytes)
        .unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// Writes `games` as the 8x8 game file of `year`.
pub(crate) fn write_games(path: &Path, year: u16, games: &[Played<'_>]) {
    let games: Vec<Game> = games
        .iter()
        .map(|&(t, b, w, discs, moves)| {
            Game::from_squares(t, b, w, discs, discs, moves, BoardSize::Eight).unwrap()
        })
        .collect();
    let header = Header {
        year,
        p1: 8,
        ..Header::default()
    };
    let mut bytes = Vec::new();
    wthor_format::write_game_file(&header, BoardSize::Eight, &games, &mut bytes).unwrap();
    std::fs::write(path, bytes).unwrap();
}
