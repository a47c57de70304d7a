//! `wthor completions SHELL`: the shell completion script (clap_complete),
//! and the hidden `wthor man DIR`: the man pages (clap_mangen), which
//! `cargo xtask man` runs.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context as _;
use clap_complete::Shell;

/// Arguments of `wthor completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The shell: bash, zsh, fish, powershell or elvish.
    shell: Shell,
}

pub(crate) fn run(
    args: &Args,
    mut cmd: clap::Command,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    // `generate` panics on a write error: write to memory first, so that a
    // closed pipe is the usual error (and success) of `main`.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "wthor", &mut script);
    out.write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `wthor man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// The directory to write `wthor.1` and `wthor-<command>.1` into
    /// (created if missing).
    dir: PathBuf,
}

/// Writes the man pages of `cmd` and of its subcommands into `args.dir`.
pub(crate) fn run_man(
    args: &ManArgs,
    cmd: clap::Command,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("{}: cannot create", args.dir.display()))?;
    // Building sets each subcommand's display name (`wthor-show`) and
    // propagates the version.
    let mut cmd = cmd.disable_help_subcommand(true);
    cmd.build();
    let mut written = Vec::new();
    write_page(&cmd, "wthor", &args.dir, &mut written)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = sub
            .get_display_name()
            .map_or_else(|| format!("wthor-{}", sub.get_name()), str::to_owned);
        write_page(sub, &name, &args.dir, &mut written)?;
    }
    for path in written {
        writeln!(out, "{}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_page(
    cmd: &clap::Command,
    name: &str,
    dir: &Path,
    written: &mut Vec<PathBuf>,
) -> anyhow::Result<()> {
    let mut bytes = Vec::new();
    clap_mangen::Man::new(cmd.clone())
        .render(&mut bytes)
        .with_context(|| format!("rendering the man page of {name}"))?;
    let path = dir.join(format!("{name}.1"));
    wthor_db::atomic::write(&path, &bytes)?;
    written.push(path);
    Ok(())
}
