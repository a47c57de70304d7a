//! Opens a WTHOR database folder, lists its files with the names files
//! each game file is joined with, and replays every game (in parallel):
//! the legal, illegal and unfinished ones.
//!
//! ```text
//! cargo run --example open -p wthor-db -- FOLDER
//! cargo run --example open -p wthor-db -- testdata   # the fixture database
//! ```

use wthor_db::Database;

fn main() {
    if let Err(err) = run() {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let Some(folder) = std::env::args_os().nth(1) else {
        eprintln!("usage: open FOLDER (a folder of WTHOR files: WTH_*.wtb, WTHOR.JOU, …)");
        std::process::exit(2);
    };
    // Headers and counts only: the records stay in the mapped files.
    let db = Database::open(&folder)?;
    for (i, file) in db.files().iter().enumerate() {
        let join = db.join(i);
        let names = [join.players, join.tournaments]
            .into_iter()
            .flatten()
            .map(|n| db.files()[n].file_name())
            .collect::<Vec<_>>();
        print!("{:<16} {:>6} {}", file.file_name(), file.len(), file.kind());
        if !names.is_empty() {
            print!(", names from {}", names.join(" and "));
        }
        println!();
    }
    for skipped in db.skipped() {
        println!("set aside: {skipped}");
    }

    // Every game replayed from the start, passes inserted where forced.
    let summary = db.par_check_games();
    let t = &summary.totals;
    println!(
        "{} games: {} legal, {} with an illegal move; {} played to the end, {} not; \
         {} stored scores that are not the final board's",
        t.games, t.legal, t.illegal, t.finished, t.unfinished, t.mismatches
    );
    Ok(())
}
