//! One game of a WTHOR database by its name (`2001:5`: game 5 of the yearly
//! 8x8 file `WTH_2001.wtb`; `WTH_2001.wtd:5` in the 10x10 one): its
//! tournament, players, scores and named opening, its moves, and the final
//! position of its replay by `othello_core` (re-exported by `wthor_db`),
//! passes inserted where forced.
//!
//! ```text
//! cargo run --example game -p wthor-db -- FOLDER GAME
//! cargo run --example game -p wthor-db -- testdata 2001:1
//! ```

use wthor_db::othello_core::replay::{Replay, replay_wthor};
use wthor_db::othello_core::{Board, Board8, Board10, Size};
use wthor_db::{Database, openings, rules_size};

fn main() {
    if let Err(err) = run() {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [folder, name] = args.as_slice() else {
        eprintln!("usage: game FOLDER GAME (a game's name: 2001:5, WTH_2001.wtd:5)");
        std::process::exit(2);
    };
    let db = Database::open(folder)?;
    let id = db.parse_game_id(name)?;
    let game = db.game(id).expect("parse_game_id names a game");

    println!("{}, {}", db.game_name(id), db.tournament(id));
    println!(
        "{} - {}: black's discs {} (theoretical {})",
        db.black(id),
        db.white(id),
        game.real_score(),
        game.theoretical_score()
    );
    if let Some(opening) = openings::table().opening_of_view(&game) {
        println!("opening: {}", opening.name());
    }
    let moves: Vec<String> = game
        .moves()
        .map(|m| m.map_or_else(|_| "??".to_owned(), |sq| sq.to_string()))
        .collect();
    println!("{}", moves.join(" "));

    let size = rules_size(game.board_size());
    match size {
        Size::Eight => show(&replay_wthor::<Board8>(game.moves_raw()), size),
        Size::Ten => show(&replay_wthor::<Board10>(game.moves_raw()), size),
    }
    Ok(())
}

/// The replay's end: its first illegal move, if any, and the board.
fn show<B: Board>(replay: &Replay<B>, size: Size) {
    if let Some(illegal) = &replay.illegal {
        println!("stops at {}: {}", illegal.describe(size), illegal.reason);
    }
    print!("{}", replay.board.diagram());
}
