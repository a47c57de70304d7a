//! Searches a WTHOR database through a [`Searcher`](wthor_db::Searcher):
//! the games that reach the position after some moves (in any of its 8
//! orientations, by any order of moves), how many there are, and the ten
//! most recent with their players and black's discs. The searcher answers
//! from the position index `wthor.idx` when the folder holds a fresh one
//! (`wthor index build`), else by a scan of every game, in parallel.
//!
//! ```text
//! cargo run --example search -p wthor-db -- FOLDER [MOVES]
//! cargo run --example search -p wthor-db -- testdata f5d6c3d3c4
//! ```

use wthor_db::index::IndexChoice;
use wthor_db::othello_core::Size; // re-exported: no dependency of your own
use wthor_db::query::{Position, SortKey};
use wthor_db::{Database, Query};

fn main() {
    if let Err(err) = run() {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let Some(folder) = args.next() else {
        eprintln!("usage: search FOLDER [MOVES] (moves from the start: f5d6c3d3c4)");
        std::process::exit(2);
    };
    let moves = args.next().unwrap_or_else(|| "f5d6c3d3c4".to_owned());

    let db = Database::open(&folder)?;
    // The index is chosen (and checked fresh) once, at the first query
    // with a position filter; every query of this searcher then uses it.
    let searcher = db.searcher(IndexChoice::Default);
    let query = Query::new().position(Position::after_transcript(&moves, Size::Eight)?);

    let count = searcher.count(&query)?;
    if let Some(note) = &count.note {
        eprintln!("note: {note}");
    }
    let how = if count.indexed { "the index" } else { "a scan" };
    println!(
        "{} games reach the position after {moves} (by {how})",
        count.value
    );

    let newest = query.sort(SortKey::Year).descending(true).limit(10);
    for id in searcher.search(&newest)?.value {
        let game = db.game(id).expect("the search names games of the database");
        println!(
            "{:<10} {:<24} {:>2} - {}",
            db.game_name(id).to_string(),
            db.black(id),
            game.real_score(),
            db.white(id)
        );
    }
    Ok(())
}
