//! A WTHOR database directory: memory-mapped files, names joined, parallel
//! queries. (Placeholder until the database issue; it only re-exports the
//! crates it will build on so that the workspace links as designed.)

pub use othello_core;
pub use wthor_format;
