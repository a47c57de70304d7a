//! The position index and the statistics on the top-level WTHOR database
//! (`$WTHOR_DATA/wthor`, 137,548 games): `bench: <name> = <value> <unit>`
//! lines. Needs `WTHOR_DATA`.
//!
//! Index build time (one run, written to a temporary directory) and size;
//! opening it and checking that it is fresh (content hashes of the game
//! files); position searches with the index for positions after 10, 20 and
//! 40 moves of a real game, beside the same searches by a scan; next-move
//! statistics of the 10-move position without and with the index. Each
//! query figure is the best of 7 runs (3 with `WTHOR_BENCH_QUICK`), wall
//! clock, rayon's default pool.

use std::time::Instant;

use othello_core::Board8;
use othello_core::replay::{replay_with, wthor_tokens};
use wthor_db::index::{IndexChoice, PositionIndex};
use wthor_db::query::Position;
use wthor_db::stats::StatsOptions;
use wthor_db::{Database, Query};

mod common;
use common::best;

fn main() {
    let Some(data) = std::env::var_os("WTHOR_DATA") else {
        println!("skipped: WTHOR_DATA not set");
        return;
    };
    let db = Database::open(std::path::Path::new(&data).join("wthor")).expect("database");
    let tmp = tempfile::tempdir().expect("temporary directory");
    let path = tmp.path().join("wthor.idx");
    let t = Instant::now();
    let report = PositionIndex::build(&db, &path).expect("index built");
    println!(
        "bench: index.build = {:.2} s ({} games, {} positions)",
        t.elapsed().as_secs_f64(),
        report.games,
        report.entries
    );
    println!(
        "bench: index.size = {:.1} MB ({} bytes)",
        report.bytes as f64 / 1e6,
        report.bytes
    );
    let (ms, _) = best(|| db.index_status(&path).fresh().expect("fresh index"));
    println!("bench: index.open_and_check_fresh = {ms:.2} ms");
    let indexed = db.searcher(IndexChoice::At(path.clone()));
    assert!(indexed.index().is_some(), "{:?}", indexed.note());
    let scan = db.searcher(IndexChoice::Never);

    let id = db.parse_game_id("2020:0").expect("a 2020 game");
    let moves = db.game(id).expect("game").moves_raw();
    let position = |ply: usize| {
        Position::Eight(
            replay_with::<Board8, _, _>(wthor_tokens::<Board8>(&moves[..ply]), |_| {}).board,
        )
    };
    for ply in [10, 20, 40] {
        let q = Query::new().position(position(ply));
        let (ms, n) = best(|| indexed.search(&q).expect("query").value.len());
        println!("bench: index.position_{ply} = {ms:.3} ms ({n} games)");
        let (ms, m) = best(|| scan.search(&q).expect("query").value.len());
        assert_eq!(n, m);
        println!("bench: index.position_{ply}_scan = {ms:.2} ms");
    }
    let q = Query::new().position(position(10));
    let options = StatsOptions {
        next_moves: true,
        ..StatsOptions::default()
    };
    let (ms, s) = best(|| scan.stats(&q, &options).expect("stats").value);
    let moves = s.next_moves.as_ref().map_or(0, |n| n.moves.len());
    println!(
        "bench: stats.next_moves_10 = {ms:.2} ms ({} games, {moves} moves)",
        s.totals.results.games
    );
    let (ms, t) = best(|| indexed.stats(&q, &options).expect("stats").value);
    assert_eq!(s, t);
    println!("bench: stats.next_moves_10_indexed = {ms:.3} ms");
    let q = Query::new().position(position(4));
    let (ms, s) = best(|| scan.stats(&q, &options).expect("stats").value);
    println!(
        "bench: stats.next_moves_4 = {ms:.2} ms ({} games)",
        s.totals.results.games
    );
}
