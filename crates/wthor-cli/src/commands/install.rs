//! `wthor install FILE... --into DIR [--dry-run] [--force]`: add WTHOR
//! files to a directory, or replace installed ones by newer versions,
//! safely (see `wthor_db::install` for the rules and the writes).
//!
//! One line per file (`added`, `replaced`, `refused`, `FAILED`, `skipped`;
//! `would add`… in a dry run), then a summary. Exit 1 when a file was
//! refused, 2 when a write failed or a file could not be read.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use wthor_db::install::{Action, InstallOptions, Refusal, ShortNames, install};
use wthor_format::NameKind;

use crate::textfmt::count;

/// Arguments of `wthor install`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Rules: a file is added when DIR has none of its name; it replaces the installed
one only if its header creation date is newer (--force: whatever the dates); a
players or tournaments file that would drop or change an existing name is
refused, even with --force. A game file whose players or tournaments go past
the names file DIR would read it with (counting the names files given with it)
is refused, as is a names file that would leave installed games with fewer
names; --force installs them with a warning. Each file is written to a temporary file in DIR,
synced and renamed: it is either wholly old or wholly new.

Examples:
  wthor install new/WTH_2026.wtb new/WTHOR.JOU --into ~/wthor
  wthor install --dry-run downloads/*.wtb --into ~/wthor
  wthor install --force WTH_2025.wtb --into ~/wthor

Exit status: 0 ok, 1 a file was refused, 2 usage or I/O error (a failed write).")]
pub(crate) struct Args {
    /// The WTHOR files to install.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The WTHOR directory to install them into.
    #[arg(long, value_name = "DIR")]
    into: PathBuf,
    /// Say what would be done; write nothing.
    #[arg(long)]
    dry_run: bool,
    /// Replace installed files even when not older (names checks still hold).
    #[arg(long)]
    force: bool,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let mut options = InstallOptions::default();
    options.dry_run = args.dry_run;
    options.force = args.force;
    let report = install(&args.files, &args.into, &options)?;
    let would = if report.dry_run { "would " } else { "" };
    let (mut added, mut replaced) = (0, 0);
    for file in &report.files {
        let name = &file.name;
        for short in &file.warnings {
            let lacking = match short.kind {
                NameKind::Players => "players",
                NameKind::Tournaments => "tournaments",
            };
            eprintln!(
                "wthor: warning: {name}: {}: games will show numbers for the {lacking} it lacks",
                short_names(name, short)
            );
        }
        match &file.action {
            Action::Added { created } => {
                added += 1;
                let verb = if report.dry_run { "add" } else { "added" };
                writeln!(out, "{would}{verb} {name} (created {created})")?;
            }
            Action::Replaced {
                installed,
                created,
                forced,
            } => {
                replaced += 1;
                let verb = if report.dry_run {
                    "replace"
                } else {
                    "replaced"
                };
                let forced = if *forced { ", forced" } else { "" };
                writeln!(
                    out,
                    "{would}{verb} {name} (created {installed} -> {created}{forced})"
                )?;
            }
            Action::Refused(why) => writeln!(out, "refused {name}: {}", refusal(name, why))?,
            Action::Failed { renamed, error } => {
                let state = if *renamed {
                    "installed, but the directory could not be synced"
                } else {
                    "the installed file is unchanged"
                };
                writeln!(out, "FAILED {name}: {error} ({state})")?;
            }
            Action::Skipped => writeln!(out, "skipped {name}: an earlier file failed")?,
            _ => writeln!(out, "? {name}")?,
        }
    }
    writeln!(
        out,
        "{}{added} added, {replaced} replaced, {} refused",
        if report.dry_run { "dry run: " } else { "" },
        report.refused()
    )?;
    Ok(if report.failed() {
        ExitCode::from(2)
    } else if report.refused() > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn refusal(name: &str, why: &Refusal) -> String {
    match why {
        Refusal::NotNewer { installed, created } => format!(
            "not newer than the installed file (created {created}, installed {installed}; --force to replace)"
        ),
        Refusal::KindDiffers { installed, given } => {
            format!("a file of {given}, the installed one is of {installed}")
        }
        Refusal::NamesDropped { installed, given } => format!(
            "{} where {installed} {} installed: games would lose their names",
            count(*given, "name", "names"),
            if *installed == 1 { "is" } else { "are" }
        ),
        Refusal::NameChanged { number } => {
            format!("name #{number} differs from the installed one: games would change names")
        }
        // The parse error says what is wrong (and "not a WTHOR file" when so).
        Refusal::Unreadable(e) => e.clone(),
        Refusal::InstalledUnreadable(e) => {
            format!("the installed file does not parse ({e}); --force to replace it")
        }
        Refusal::Duplicate => "given twice (the first one counts)".to_owned(),
        Refusal::ShortNames(list) => {
            let each: Vec<String> = list.iter().map(|s| short_names(name, s)).collect();
            format!("{}; --force to install anyway", each.join("; "))
        }
        other => format!("{other:?}"),
    }
}

/// What is short, said of the file `name`: `needs a players file with at
/// least 4016 names (WTHOR.JOU has 3884)` for its own games, `WTH_2019.wtb
/// needs a players file with at least 4016 names; this one has 3884` for a
/// names file that installed games would be read with.
fn short_names(name: &str, s: &ShortNames) -> String {
    let kind = match s.kind {
        NameKind::Players => "players",
        NameKind::Tournaments => "tournaments",
    };
    let needs = format!(
        "needs a {kind} file with at least {}",
        count(s.needed, "name", "names")
    );
    if s.game_file != name {
        let has = s.names_file.as_ref().map_or(0, |(_, n)| *n);
        return format!("{} {needs}; this one has {has}", s.game_file);
    }
    match &s.names_file {
        Some((file, n)) => format!("{needs} ({file} has {n})"),
        None => format!("{needs} (the directory has no {kind} file)"),
    }
}
