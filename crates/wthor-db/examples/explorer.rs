//! The explorer's table of a position in a WTHOR database: the moves the
//! games played from it (in any of its 8 orientations, named in the
//! orientation given), each with its games, its share, black's results,
//! the named opening it reaches, and how many games reach the position
//! after it by any order of moves (its transpositions) — what `wthor stats
//! --next` and the opening explorer of `wthor serve` show.
//!
//! ```text
//! cargo run --example explorer -p wthor-db -- FOLDER [MOVES]
//! cargo run --example explorer -p wthor-db -- testdata f5d6
//! ```

use wthor_db::index::IndexChoice;
use wthor_db::othello_core::Size; // re-exported: no dependency of your own
use wthor_db::query::Position;
use wthor_db::stats::StatsOptions;
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
        eprintln!("usage: explorer FOLDER [MOVES] (moves from the start: f5d6; none: the start)");
        std::process::exit(2);
    };
    let moves = args.next().unwrap_or_default();

    let db = Database::open(&folder)?;
    let searcher = db.searcher(IndexChoice::Default);
    let position = Position::after_transcript(&moves, Size::Eight)?;
    let query = Query::new().position(position);
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let stats = searcher.stats(&query, &options)?;
    if let Some(note) = &stats.note {
        eprintln!("note: {note}");
    }
    let next = stats.value.next_moves.expect("asked for the next moves");

    // The games reaching the position after each move, whatever the order
    // of the moves before: one scan (or one index lookup a position).
    let after: Vec<Position> = next
        .moves
        .iter()
        .map(|m| position.play(m.square).map_err(|why| why.to_string()))
        .collect::<Result<_, _>>()?;
    let reaching = searcher.count_reaching(&Query::new(), &after)?.value;

    println!(
        "{} games reach the position, {} end there",
        next.reached, next.ended
    );
    println!("move  games  share  black wins draws losses  reaching  opening");
    for (m, reaching) in next.moves.iter().zip(reaching) {
        let r = &m.results;
        println!(
            "{:<4} {:>6} {:>5.1}% {:>9.1}% {:>4.1}% {:>5.1}% {:>9}  {}",
            m.square.name(Size::Eight).to_string(),
            r.games,
            100.0 * m.share,
            100.0 * r.black_win_rate(),
            100.0 * r.draw_rate(),
            100.0 * r.black_loss_rate(),
            reaching,
            m.name.as_deref().unwrap_or("")
        );
    }
    Ok(())
}
