//! Results logs read back and merged: the logs of the shards of a run (and
//! of re-runs) into one set of records, one per key, the same key with
//! another outcome reported as a conflict. Input files are only read.

use std::collections::BTreeMap;
use std::io::{self, BufRead, BufReader};
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::log::RecordKey;

/// Why a results log cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LogError {
    /// The file could not be read.
    #[error("{}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The system error.
        #[source]
        source: io::Error,
    },
    /// A line is not a result record: the file is no results log.
    #[error("{}: line {line}: not a results log line ({reason})", path.display())]
    NotALog {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What was wrong (never the line's text).
        reason: String,
    },
}

/// The command whose results a log holds, told by the fields of a line
/// (each kind's record type reads only its own lines).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LogKind {
    /// Theoretical scores checked: `wthor validate --solve --results`
    /// ([`TheoryCheck`](super::TheoryCheck)).
    Theory,
    /// Puzzles verified: `wthor puzzles --verify --results`
    /// ([`PuzzleCheck`](super::PuzzleCheck)).
    Puzzles,
    /// Games analysed: `wthor analyze --results`
    /// ([`GameAnalysis`](crate::analysis::GameAnalysis)).
    Analysis,
}

impl LogKind {
    /// The kind of a result line, `None` for a line of none of them.
    #[must_use]
    pub fn of(value: &serde_json::Value) -> Option<LogKind> {
        use crate::analysis::GameAnalysis;
        if super::TheoryCheck::deserialize(value).is_ok() {
            Some(LogKind::Theory)
        } else if super::PuzzleCheck::deserialize(value).is_ok() {
            Some(LogKind::Puzzles)
        } else if GameAnalysis::deserialize(value).is_ok() {
            Some(LogKind::Analysis)
        } else {
            None
        }
    }

    /// The command that writes such logs (`validate --solve`).
    #[must_use]
    pub fn command(self) -> &'static str {
        match self {
            LogKind::Theory => "validate --solve",
            LogKind::Puzzles => "puzzles --verify",
            LogKind::Analysis => "analyze",
        }
    }
}

/// Where a line is: its log (among the paths given) and line number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinePlace {
    /// The log.
    pub path: PathBuf,
    /// The line, from 1.
    pub line: usize,
}

impl std::fmt::Display for LinePlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.line)
    }
}

/// Logs that cannot be merged: lines of two commands' logs, or a line of
/// none.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum KindError {
    /// A line of another command's log than the first line's.
    #[error(
        "{at}: a result of wthor {}, where {first} is one of wthor {}: logs of two kinds do not merge",
        kind.command(),
        first_kind.command()
    )]
    Mixed {
        /// The line.
        at: LinePlace,
        /// Its kind.
        kind: LogKind,
        /// The first line of the logs.
        first: LinePlace,
        /// Its kind.
        first_kind: LogKind,
    },
    /// A line that is a result of none of the commands.
    #[error("{at}: not a result of wthor validate --solve, puzzles --verify or analyze ({reason})")]
    Unknown {
        /// The line.
        at: LinePlace,
        /// Why it reads as none (the theoretical-score reading's error).
        reason: String,
    },
}

/// The one kind of the lines of `logs` (each the records of
/// [`read_results`] of the path at the same place in `paths`), `None`
/// when they hold no line; checked before logs are merged, so that a
/// merge never mixes two commands' results.
///
/// # Errors
/// [`KindError::Mixed`] at the first line of another kind than the first
/// line's, [`KindError::Unknown`] at the first line of no kind.
pub fn one_kind(paths: &[PathBuf], logs: &[Vec<LogRecord>]) -> Result<Option<LogKind>, KindError> {
    let mut first: Option<(LinePlace, LogKind)> = None;
    for (path, records) in paths.iter().zip(logs) {
        for r in records {
            let at = LinePlace {
                path: path.clone(),
                line: r.line,
            };
            let Some(kind) = LogKind::of(&r.value) else {
                let reason = super::TheoryCheck::deserialize(&r.value)
                    .err()
                    .map(|e| e.to_string())
                    .unwrap_or_default();
                return Err(KindError::Unknown { at, reason });
            };
            match &first {
                None => first = Some((at, kind)),
                Some((place, first_kind)) if *first_kind != kind => {
                    return Err(KindError::Mixed {
                        at,
                        kind,
                        first: place.clone(),
                        first_kind: *first_kind,
                    });
                }
                Some(_) => {}
            }
        }
    }
    Ok(first.map(|(_, kind)| kind))
}

/// One record of a results log: its key and the whole JSON object.
#[derive(Clone, Debug, PartialEq)]
pub struct LogRecord {
    /// The key (the fields the resume uses).
    pub key: RecordKey,
    /// The whole line.
    pub value: serde_json::Value,
    /// Its line in its file, from 1.
    pub line: usize,
}

/// Reads a results log without changing it: every complete line must be a
/// JSON object holding the fields of a [`RecordKey`] (blank lines are
/// skipped). Returns the records in file order and warnings: a last line
/// without its newline (an interrupted run, which the next run would cut
/// off) is left out with a warning.
///
/// # Errors
/// [`LogError::Io`] when the file cannot be read, [`LogError::NotALog`]
/// at the first line that is not a result record (also for a file holding
/// no record at all but some bytes).
pub fn read_results(path: &Path) -> Result<(Vec<LogRecord>, Vec<String>), LogError> {
    let io = |source| LogError::Io {
        path: path.to_owned(),
        source,
    };
    let not_a_log = |line, reason: String| LogError::NotALog {
        path: path.to_owned(),
        line,
        reason,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut reader = BufReader::new(file);
    let mut records = Vec::new();
    let mut warnings = Vec::new();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if reader.read_until(b'\n', &mut bytes).map_err(io)? == 0 {
            break;
        }
        let complete = bytes.last() == Some(&b'\n');
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            continue;
        }
        let parsed = serde_json::from_str::<serde_json::Value>(&text)
            .map_err(|e| e.to_string())
            .and_then(|value| {
                RecordKey::deserialize(&value)
                    .map(|key| (key, value))
                    .map_err(|e| e.to_string())
            });
        match (parsed, complete) {
            (Ok((key, value)), _) => records.push(LogRecord {
                key,
                value,
                line: number,
            }),
            (Err(_), false) if !records.is_empty() => {
                warnings.push(format!(
                    "{}: line {number}: a truncated last line (interrupted run) left out",
                    path.display()
                ));
            }
            (Err(reason), _) => return Err(not_a_log(number, reason)),
        }
    }
    Ok((records, warnings))
}

/// The fields of a result line that change from run to run of the same
/// check (times, node counts, the cache, a best move the window search
/// does not give, the names joined at the time) or that the outcome does
/// not depend on (the search that estimated the moves an analysis does
/// not log: its logged moves are exact): left out when outcomes are
/// compared.
pub const VOLATILE_FIELDS: &[&str] = &[
    "seconds",
    "cpu_seconds",
    "nodes",
    "cached",
    "best_move",
    "year",
    "black",
    "white",
    "estimate",
];

/// The outcome of a result line: the line without its
/// [`VOLATILE_FIELDS`]. Two runs of the same check have equal outcomes.
#[must_use]
pub fn outcome(value: &serde_json::Value) -> serde_json::Value {
    let mut v = value.clone();
    if let Some(map) = v.as_object_mut() {
        for field in VOLATILE_FIELDS {
            map.remove(*field);
        }
    }
    v
}

/// The same key with two outcomes.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// The key.
    pub key: RecordKey,
    /// The record kept (the first read) and where it came from (log index
    /// among the inputs, line).
    pub kept: (usize, LogRecord),
    /// The record that disagrees, and where it came from.
    pub other: (usize, LogRecord),
}

/// Several results logs merged.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Merged {
    /// One record per key (the first read) with the index of its log among
    /// the inputs, sorted by file name, creation date, index and hash.
    pub records: Vec<(usize, LogRecord)>,
    /// Lines whose key was already there with the same outcome.
    pub duplicates: usize,
    /// Lines whose key was already there with another outcome.
    pub conflicts: Vec<Conflict>,
}

/// Merges results logs (each the records of [`read_results`]): one record
/// per key, the first read; later lines of a key count as duplicates when
/// their [`outcome`] is the same, else as conflicts.
#[must_use]
pub fn merge_results(logs: &[Vec<LogRecord>]) -> Merged {
    let mut by_key: BTreeMap<(String, String, usize, String), (usize, LogRecord)> = BTreeMap::new();
    let mut merged = Merged::default();
    for (source, records) in logs.iter().enumerate() {
        for record in records {
            let k = &record.key;
            let sort_key = (k.file.clone(), k.created.clone(), k.index, k.hash.clone());
            match by_key.get(&sort_key) {
                None => {
                    by_key.insert(sort_key, (source, record.clone()));
                }
                Some(kept) if outcome(&kept.1.value) == outcome(&record.value) => {
                    merged.duplicates += 1;
                }
                Some(kept) => merged.conflicts.push(Conflict {
                    key: record.key.clone(),
                    kept: kept.clone(),
                    other: (source, record.clone()),
                }),
            }
        }
    }
    merged.records = by_key.into_values().collect();
    merged
}
