//! The check of `crates/workspace-hack`: the three builds of the test
//! command — `cargo xtask` (`-p xtask`), `cargo test --workspace` and
//! maturin's (`-p wthor-py` with its `extension-module` and
//! `workspace-hack` features) — must resolve every crate they share with
//! the same features, or cargo compiles it (and every crate above it)
//! once per build. Read from `cargo tree`, which resolves as the builds do.

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result, bail};

use crate::util;

/// Each crate (`name vX.Y.Z`) of one resolution with the feature lists it
/// is built with (two when the host and the target builds differ).
type Features = BTreeMap<String, BTreeSet<String>>;

fn resolve(selection: &[&str], edges: &str) -> Result<Features> {
    let mut cmd = util::cargo();
    cmd.arg("tree")
        .args(selection)
        .args(["-e", edges, "--prefix", "none", "--format", "{p}|{f}"]);
    let out = cmd
        .output()
        .with_context(|| format!("could not run `{}`", util::display(&cmd)))?;
    if !out.status.success() {
        bail!(
            "`{}` failed: {}",
            util::display(&cmd),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut features = Features::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let Some((package, list)) = line.split_once('|') else {
            continue;
        };
        // `name vX (path)` for our crates; the `(*)` of a repeated node
        // follows the features.
        let name = package.split(" (").next().unwrap_or(package).to_owned();
        let list = list.trim_end_matches(" (*)").to_owned();
        features.entry(name).or_default().insert(list);
    }
    Ok(features)
}

/// What differs between `build` and the workspace's resolution, for the
/// crates both build: one line per crate.
fn differences(build: &Features, workspace: &Features) -> Vec<String> {
    build
        .iter()
        .filter_map(|(name, lists)| {
            let theirs = workspace.get(name)?;
            (lists != theirs)
                .then(|| format!("{name}: {lists:?} here, {theirs:?} in the workspace"))
        })
        .collect()
}

/// The crates whose features differ between the workspace's test build
/// and `cargo xtask`'s or maturin's: empty when the hack is complete.
pub(crate) fn check() -> Result<Vec<String>> {
    let workspace = resolve(
        &["--workspace", "--exclude", "wthor-py"],
        "normal,build,dev",
    )?;
    let xtask = resolve(&["-p", "xtask"], "normal,build")?;
    let python = resolve(
        &[
            "-p",
            "wthor-py",
            "--features",
            "extension-module,workspace-hack",
        ],
        "normal,build",
    )?;
    let mut found: Vec<String> = differences(&xtask, &workspace)
        .into_iter()
        .map(|d| format!("cargo xtask: {d}"))
        .collect();
    found.extend(
        differences(&python, &workspace)
            .into_iter()
            .map(|d| format!("maturin: {d}")),
    );
    Ok(found)
}

#[cfg(test)]
mod tests {
    #[test]
    fn xtask_the_tests_and_the_python_extension_share_every_build() {
        let found = super::check().unwrap();
        assert!(
            found.is_empty(),
            "add the missing features to crates/workspace-hack/Cargo.toml \
             (`[build-dependencies]` for a crate built for proc-macros):\n{}",
            found.join("\n")
        );
    }

    #[test]
    fn a_crate_with_other_features_is_a_difference() {
        let here = super::Features::from([
            ("syn v3.0.9".to_owned(), ["full".to_owned()].into()),
            ("only-here v1.0.0".to_owned(), ["std".to_owned()].into()),
        ]);
        let workspace = super::Features::from([(
            "syn v3.0.9".to_owned(),
            ["extra-traits,full".to_owned()].into(),
        )]);
        let found = super::differences(&here, &workspace);
        assert_eq!(found.len(), 1, "{found:?}");
        assert!(found[0].starts_with("syn v3.0.9: "), "{found:?}");
        assert!(super::differences(&workspace, &workspace).is_empty());
    }
}
