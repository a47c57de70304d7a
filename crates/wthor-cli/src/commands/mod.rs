//! One module per subcommand.

pub(crate) mod completions;
pub(crate) mod convert;
pub(crate) mod info;
pub(crate) mod install;
pub(crate) mod perft;
pub(crate) mod puzzles;
pub(crate) mod replay;
pub(crate) mod show;
pub(crate) mod solve;
pub(crate) mod stream;
pub(crate) mod validate;
