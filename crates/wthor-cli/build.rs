//! Links the debug build of `wthor` as a position-dependent executable.
//!
//! The tests run the debug binary about 2,500 times. As a position-
//! independent executable (rustc's default) each start first applies
//! 93,000 relocations, a third of a start's page faults; without them the
//! CLI tests take 36.6 CPU-s instead of 43 (wall 19.5 s instead of 22.5,
//! two runs each). Release builds, the ones installed, stay
//! position-independent (address-space randomisation).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let debug = std::env::var("PROFILE").is_ok_and(|p| p == "debug");
    let linux = std::env::var("CARGO_CFG_TARGET_OS").is_ok_and(|os| os == "linux");
    if debug && linux {
        println!("cargo:rustc-link-arg-bins=-no-pie");
    }
}
