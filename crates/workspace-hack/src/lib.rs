//! No code: see `Cargo.toml`. This crate only asks for features, so that
//! `cargo xtask`, `cargo test --workspace` and the Python extension build
//! each shared dependency once.
