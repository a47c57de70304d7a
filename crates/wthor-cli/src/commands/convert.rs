//! `wthor convert` (placeholder: its issue fills it in).

use std::io::Write;
use std::process::ExitCode;

/// Arguments of `wthor convert`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {}

pub(crate) fn run(_args: &Args, _out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    anyhow::bail!("`wthor convert` is not implemented yet")
}
