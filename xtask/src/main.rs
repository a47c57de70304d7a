//! Maintenance tasks: `cargo xtask <task>` (placeholder until the xtask issue).

fn main() {
    eprintln!("usage: cargo xtask <task> (no task is implemented yet)");
    std::process::exit(2);
}
