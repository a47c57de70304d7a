//! Nothing: this package holds wthor-db's tests (`tests/db.rs` and
//! `tests/db/`). They live apart from the library so that the profile
//! builds them at opt-level 0 (quick to compile) while wthor-db itself,
//! whose scans they run, is built at opt-level 1 (see the workspace's
//! `Cargo.toml`).
