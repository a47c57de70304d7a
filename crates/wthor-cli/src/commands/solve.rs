//! `wthor solve` (placeholder: its issue fills it in).

use std::io::Write;
use std::process::ExitCode;

/// Arguments of `wthor solve`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: &Args, _out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`wthor solve` is not implemented yet")
}
