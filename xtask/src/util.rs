//! Helpers shared by the tasks: where the workspace is, how to run cargo.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// The workspace root (the parent of `xtask/`).
pub(crate) fn project_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask/ has a parent")
        .to_path_buf()
}

/// The target directory: `CARGO_TARGET_DIR`, else the workspace's
/// `target/`.
pub(crate) fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map_or_else(|| project_root().join("target"), PathBuf::from)
}

/// The cargo that runs us (`CARGO`), or `cargo` from `PATH`.
pub(crate) fn cargo_program() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

/// A command of [`cargo_program`] in the project's root.
pub(crate) fn cargo() -> Command {
    let mut cmd = Command::new(cargo_program());
    cmd.current_dir(project_root());
    cmd
}

/// Prints `cmd` as a shell line, runs it with inherited standard streams and
/// fails when it exits non-zero.
pub(crate) fn run(cmd: &mut Command) -> Result<()> {
    let line = display(cmd);
    eprintln!("$ {line}");
    let status = cmd
        .status()
        .with_context(|| format!("could not start `{line}`"))?;
    if !status.success() {
        bail!("`{line}` failed ({status})");
    }
    Ok(())
}

/// Whether `cmd` starts and exits with success, its output discarded.
pub(crate) fn succeeds(cmd: &mut Command) -> bool {
    cmd.stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// `cmd` as a shell line, with the environment it sets in front.
pub(crate) fn display(cmd: &Command) -> String {
    let mut parts: Vec<String> = cmd
        .get_envs()
        .filter_map(|(k, v)| Some(format!("{}={}", k.to_string_lossy(), v?.to_string_lossy())))
        .collect();
    let program = Path::new(cmd.get_program())
        .file_name()
        .unwrap_or(OsStr::new("?"));
    parts.push(program.to_string_lossy().into_owned());
    parts.extend(cmd.get_args().map(|a| a.to_string_lossy().into_owned()));
    parts.join(" ")
}

/// A step header, so that a long CI log shows where each step starts.
pub(crate) fn header(title: &str) {
    eprintln!("\n==== {title} ====");
}

/// Every file under `dir`, sorted, without entering the folders whose name
/// `skip` accepts.
pub(crate) fn files_under(dir: &Path, skip: impl Fn(&str) -> bool) -> Result<Vec<PathBuf>> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).with_context(|| format!("reading {}", d.display()))? {
            let path = entry?.path();
            if !path.is_dir() {
                found.push(path);
            } else if !skip(&path.file_name().unwrap_or_default().to_string_lossy()) {
                stack.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}
