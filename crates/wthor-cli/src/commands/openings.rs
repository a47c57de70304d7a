//! `wthor openings [--db DIR]`: the table of named openings
//! (`wthor_db::openings`), and with `--db` the games of the database that
//! reach each named position, with black's results.

use std::io::Write;
use std::process::ExitCode;

use wthor_db::openings;

use crate::db_args::DbArgs;

/// Arguments of `wthor openings`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    #[command(flatten)]
    db: DbArgs,
}

pub(crate) fn run(args: &Args, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let table = openings::table();
    if args.db.db.is_empty() {
        writeln!(out, "{:<36} {:<48} aliases", "name", "moves")?;
        for o in table.iter() {
            writeln!(
                out,
                "{:<36} {:<48} {}",
                o.name(),
                o.transcript(),
                o.aliases().join(", ")
            )?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    let db = args.db.open()?;
    let tally = table.tally(&db);
    writeln!(
        out,
        "{:<36} {:<48} {:>8} {:>8} {:>6} {:>8}",
        "name", "moves", "games", "black+", "draws", "black-"
    )?;
    for (o, r) in table.iter().zip(&tally) {
        writeln!(
            out,
            "{:<36} {:<48} {:>8} {:>8} {:>6} {:>8}",
            o.name(),
            o.transcript(),
            r.games,
            r.black_wins,
            r.draws,
            r.black_losses
        )?;
    }
    Ok(ExitCode::SUCCESS)
}
