//! One module per subcommand.

pub(crate) mod convert;
pub(crate) mod export;
pub(crate) mod import;
pub(crate) mod info;
pub(crate) mod perft;
pub(crate) mod puzzles;
pub(crate) mod replay;
pub(crate) mod solve;
pub(crate) mod validate;
