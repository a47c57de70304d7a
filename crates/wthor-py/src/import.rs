//! `Database.import_games`: `wthor import` from Python. The steps are
//! `wthor_db::import`'s, called in the order `wthor import` calls them
//! (read and prepare, notes, plan, finish: solve, create, write), so the
//! files written are the CLI's bytes; this module converts the arguments
//! and hands back what the steps return as a dict.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use pyo3::exceptions::{PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use wthor_db::import::{
    self, Gathered, ImportObserver, ImportOptions, ImportOutcome, ImportRun, NamesChange, Plan,
    Progress, RunError,
};
use wthor_db::text::read::NamesFiles;

use crate::errors::{WthorError, cache_error, finish_error, import_error, read_error};

/// The keyword arguments of `Database.import_games`, as given.
pub(crate) struct ImportArgs {
    pub(crate) inputs: Vec<PathBuf>,
    pub(crate) year: Option<u16>,
    pub(crate) tournament: Option<String>,
    pub(crate) depth: u8,
    pub(crate) skip_illegal: bool,
    pub(crate) dry_run: bool,
    pub(crate) keep_duplicates: bool,
    pub(crate) threads: Option<usize>,
    pub(crate) cache: Option<PathBuf>,
    pub(crate) limit: Option<usize>,
    pub(crate) players: Option<PathBuf>,
    pub(crate) tournaments: Option<PathBuf>,
    pub(crate) encoding: Option<String>,
    pub(crate) date: Option<String>,
}

/// `date=`: a `"YYYY-MM-DD"` str, or a `datetime.date` (its year, month
/// and day).
pub(crate) fn date_text(date: &Bound<'_, PyAny>) -> PyResult<String> {
    if let Ok(text) = date.extract::<String>() {
        return Ok(text);
    }
    let part = |name: &str| -> PyResult<i64> {
        date.getattr(name)
            .and_then(|v| v.extract())
            .map_err(|_| PyValueError::new_err("date= expects \"YYYY-MM-DD\" or a datetime.date"))
    };
    Ok(format!(
        "{:04}-{:02}-{:02}",
        part("year")?,
        part("month")?,
        part("day")?
    ))
}

/// A `UserWarning`, as `wthor` warns on stderr.
fn warn(py: Python<'_>, text: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(text.replace('\0', " ")).expect("no NUL left");
    PyErr::warn(py, &py.get_type::<PyUserWarning>(), &text, 1)
}

/// Imports into `dir` (see `Database.import_games`) and returns the
/// report and whether files were written; the GIL is released while
/// reading, planning and solving.
pub(crate) fn run<'py>(
    py: Python<'py>,
    dir: &Path,
    args: ImportArgs,
) -> PyResult<(Bound<'py, PyDict>, bool)> {
    if !(1..=60).contains(&args.depth) {
        return Err(PyValueError::new_err(format!(
            "depth={}: expected 1 to 60 empty squares",
            args.depth
        )));
    }
    if args.threads == Some(0) {
        return Err(PyValueError::new_err(
            "threads=0: give 1 or more, or None for all cores",
        ));
    }
    let encoding = match &args.encoding {
        Some(label) => wthor_format::encoding_for_label(label)
            .map_err(|e| PyValueError::new_err(format!("encoding={label:?}: {e}")))?,
        None => wthor_format::WINDOWS_1252,
    };
    let created = match &args.date {
        Some(text) => {
            import::parse_date(text).map_err(|e| PyValueError::new_err(format!("date=: {e}")))?
        }
        None => import::today(),
    };
    let names = NamesFiles {
        players: args.players.clone(),
        tournaments: args.tournaments.clone(),
        encoding: args.encoding.clone(),
    };
    let options = ImportOptions {
        year: args.year,
        tournament: args.tournament.clone(),
        depth: args.depth,
        encoding,
        keep_duplicates: args.keep_duplicates,
        ..ImportOptions::new(created)
    };
    let stop = AtomicBool::new(false);
    let request = ImportRun {
        inputs: &args.inputs,
        into: dir,
        names,
        limit: args.limit,
        skip_illegal: args.skip_illegal,
        dry_run: args.dry_run,
        options,
        threads: args.threads,
        cache: args.cache.as_deref(),
        stop: &stop,
    };
    let mut seen = Seen::default();
    let not_saved: Mutex<Option<String>> = Mutex::new(None);
    let outcome = py.detach(|| {
        import::run(&request, &mut seen, &|p| {
            if let Progress::CacheNotSaved(e) = p {
                *not_saved
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) =
                    Some(wthor_db::error_chain(e));
            }
        })
        .map_err(Box::new)
    });
    for note in &seen.cache_notes {
        warn(py, note)?;
    }
    if let Some(text) = not_saved
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        warn(py, &text)?;
    }
    let outcome = outcome.map_err(|e| match *e {
        RunError::Read(e) => read_error(py, &e),
        RunError::Plan(e) => import_error(py, &e),
        RunError::Cache(e) => cache_error(&e),
        RunError::Finish(e) => finish_error(py, &e),
        e => WthorError::new_err(wthor_db::error_chain(&e)),
    })?;
    let report = PyDict::new(py);
    report.set_item("read", seen.read)?;
    report.set_item("rejected", seen.rejected)?;
    report.set_item("notes", seen.notes)?;
    report.set_item("created", created.to_string())?;
    let written = outcome == ImportOutcome::Written;
    report.set_item("written", written)?;
    match &seen.plan {
        Some(plan) => put_plan(py, &report, plan)?,
        None => {
            report.set_item("imported", 0)?;
            report.set_item("duplicates", PyList::empty(py))?;
            report.set_item("files", PyList::empty(py))?;
            report.set_item("players", py.None())?;
            report.set_item("tournaments", py.None())?;
        }
    }
    Ok((report, written))
}

/// What the import's steps found, kept for the report (the observer runs
/// without the GIL).
#[derive(Default)]
struct Seen {
    read: usize,
    rejected: Vec<String>,
    notes: Vec<String>,
    plan: Option<Plan>,
    cache_notes: Vec<String>,
}

impl ImportObserver for Seen {
    fn gathered(&mut self, gathered: &Gathered, notes: &[String]) {
        self.read = gathered.read;
        self.rejected = gathered.rejected.iter().map(ToString::to_string).collect();
        self.notes = notes.to_vec();
    }

    fn planned(&mut self, plan: &Plan) {
        self.plan = Some(plan.clone());
    }

    fn cache_note(&mut self, note: &str) {
        self.cache_notes.push(note.to_owned());
    }
}

/// The plan in the report: `imported`, `duplicates`, `files`, `players`,
/// `tournaments`.
fn put_plan(py: Python<'_>, report: &Bound<'_, PyDict>, plan: &Plan) -> PyResult<()> {
    report.set_item("imported", plan.games.len())?;
    let duplicates: Vec<String> = plan.duplicates.iter().map(ToString::to_string).collect();
    report.set_item("duplicates", duplicates)?;
    let files = PyList::empty(py);
    for f in &plan.files {
        let d = PyDict::new(py);
        d.set_item("path", f.path.display().to_string())?;
        d.set_item("year", f.year)?;
        d.set_item("existed", f.existed)?;
        d.set_item("before", f.before)?;
        d.set_item("added", f.added)?;
        d.set_item("depth", f.depth)?;
        files.append(d)?;
    }
    report.set_item("files", files)?;
    report.set_item("players", names_dict(py, &plan.players)?)?;
    report.set_item("tournaments", names_dict(py, &plan.tournaments)?)?;
    Ok(())
}

/// A names file of the plan: `path`, `existed`, `before`, `added` (the
/// names).
fn names_dict<'py>(py: Python<'py>, n: &NamesChange) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("path", n.path.display().to_string())?;
    d.set_item("existed", n.existed)?;
    d.set_item("before", n.before)?;
    d.set_item("added", &n.added)?;
    Ok(d)
}
