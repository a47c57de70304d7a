//! Integration tests of `othello-core`: one test binary, one module per topic.

pub(crate) use wthor_test_data::wthor_data;

mod differential;
mod eval;
mod midgame;
mod perft;
mod position;
mod replay;
mod signed;
mod solver;
