//! Empty: cargo reads `[build-dependencies]` only for a package with a
//! build script, and those features are what this crate is for.

fn main() {}
