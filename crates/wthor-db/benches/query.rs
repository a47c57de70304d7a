//! Queries over the top-level WTHOR database (`$WTHOR_DATA/wthor`, 137,548
//! games): `bench: <name> = <value> <unit>` lines. Needs `WTHOR_DATA`.
//!
//! Each figure is the best of 7 runs (3 with `WTHOR_BENCH_QUICK`), wall clock, on rayon's default pool:
//! opening the database and joining names (players and tournaments decoded
//! and folded), a player query, an opening query under the 8 symmetries,
//! and position searches (no index) for positions after 10, 20 and 40
//! moves of a real game, each printed beside the cost of replaying every
//! game to that depth (the work a search without pruning would do).

use std::hint::black_box;
use std::ops::ControlFlow;

use othello_core::replay::{replay_with, wthor_tokens};
use othello_core::{Board, Board8};
use wthor_db::Query;
use wthor_db::index::IndexChoice;
use wthor_db::query::{OpeningMoves, Position};

mod common;
use common::best;

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let dir = std::path::Path::new(&data).join("wthor");
    let open = || {
        wthor_db::DatabaseBuilder::new()
            .source(&dir)
            .open()
            .expect("readable database")
    };
    let (open_only_ms, _) = best(open);
    let (open_ms, _) = best(|| {
        let db = open();
        // The names files joined to the game files, decoded and folded.
        for f in 0..db.files().len() {
            let join = db.join(f);
            for names in [join.players, join.tournaments].into_iter().flatten() {
                black_box(db.names(names).map(wthor_db::NamesTable::len));
            }
        }
        db
    });
    let db = open();
    println!("bench: query.games = {} games", db.game_count());
    println!("bench: query.open = {open_only_ms:.2} ms");
    println!("bench: query.open_join = {open_ms:.2} ms");

    let scan = db.searcher(IndexChoice::Never);
    let q = Query::new().player("tastet");
    let (ms, n) = best(|| scan.search(&q).expect("query").value.len());
    println!("bench: query.player = {ms:.2} ms ({n} games)");

    let opening = OpeningMoves::parse("f5d6c3d3c4", othello_core::Size::Eight).expect("opening");
    let q = Query::new().opening(opening);
    let (ms, n) = best(|| scan.search(&q).expect("query").value.len());
    println!("bench: query.opening_symmetric = {ms:.2} ms ({n} games)");

    let id = db.parse_game_id("2020:0").expect("a 2020 game");
    let moves = db.game(id).expect("game").moves_raw();
    for ply in [10, 20, 40] {
        let r = replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&moves[..ply]), |_| {});
        let q = Query::new().position(Position::Eight(r.board));
        let (ms, n) = best(|| scan.search(&q).expect("query").value.len());
        println!("bench: query.position_{ply} = {ms:.2} ms ({n} games)");
        let (replay_ms, _) = best(|| {
            db.par_fold(
                || 0u64,
                |acc, g| {
                    let raw = g.game.moves_raw();
                    let r = replay_with::<Board8, _, _>(
                        wthor_tokens::<Board8>(&raw[..ply.min(raw.len())]),
                        |_| {},
                    );
                    *acc += u64::from(r.board.player().count_ones());
                },
                |a, b| a + b,
            )
        });
        println!("bench: query.replay_all_to_{ply} = {replay_ms:.2} ms");
    }
    // The sequential scan with early exit, for reference: the first game.
    let (ms, _) = best(|| db.scan(|g| ControlFlow::Break(g.id)));
    println!("bench: query.scan_first = {ms:.4} ms");
}
