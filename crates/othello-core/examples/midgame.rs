//! Evaluates an 8x8 position with the midgame search
//! ([`midgame::Engine`](othello_core::midgame::Engine)): its value for the
//! side to move in discs (an estimate on the pattern evaluation; exact
//! when the search reaches the end), the best move and the line it
//! expects, and the value of every legal move, at a fixed depth (12
//! plies by default: about a tenth of a second).
//!
//! The position is an OBF text (64 squares `X` black, `O` white, `-`
//! empty, then the side to move) or the moves from the start (`f5d6c3…`);
//! by default the start position.
//!
//! ```text
//! cargo run --example midgame -p othello-core -- [POSITION [DEPTH]]
//! cargo run --example midgame -p othello-core -- f5d6c3d3c4 10
//! ```

use othello_core::midgame::{DEFAULT_DEPTH, Engine, EngineOptions, Limits, Query};
use othello_core::position::AnyBoard;
use othello_core::{Board, Size, Square};

fn main() {
    if let Err(err) = run() {
        eprintln!("error: {err}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let text = args.next().unwrap_or_default();
    let depth = args.next().map_or(Ok(DEFAULT_DEPTH), |d| d.parse())?;
    // Moves have digits, OBF none (and no text is the start).
    let board = if text.contains(|c: char| c.is_ascii_digit()) || text.is_empty() {
        AnyBoard::after_transcript(&text, Size::Eight)?
    } else {
        AnyBoard::from_obf(&text)?
    };
    let Some(board) = board.as_eight() else {
        return Err("a 10x10 position: the midgame search is 8x8 only".into());
    };
    print!("{}", board.diagram());

    // An engine keeps its tables: the positions of one game, searched one
    // after the other, share work.
    let mut engine = Engine::new(EngineOptions::default())?;
    let query = Query::from(Limits::depth(depth)).all_moves();
    let a = engine.analyze(board.player(), board.opponent(), query)?;

    let name = |sq: u8| Square::new_unchecked(sq).name(Size::Eight).to_string();
    let value = |v: f32, exact: bool| {
        if exact {
            format!("{v:+}")
        } else {
            format!("~{v:+.1}")
        }
    };
    let line: Vec<String> =
        a.pv.iter()
            .map(|m| m.name(Size::Eight).to_string())
            .collect();
    println!(
        "{} for the side to move ({}), depth {}, {} nodes, {:.3} s",
        value(a.value, a.exact),
        if a.exact { "exact" } else { "estimate" },
        a.depth,
        a.nodes,
        a.time.as_secs_f64()
    );
    println!("best line: {}", line.join(" "));
    let moves: Vec<String> = a
        .moves
        .iter()
        .map(|m| format!("{} {}", name(m.square), value(m.value, m.exact)))
        .collect();
    println!("moves: {}", moves.join(", "));
    Ok(())
}
