//! The results log: one JSON line per checked record, keyed by
//! [`RecordKey`], that a re-run resumes from.

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Seek, SeekFrom, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

/// What identifies a checked record across runs: the file name, the
/// creation date of its header (another release of the same year has
/// another date), the record's index and an FNV-1a hash of its bytes (the
/// moves of a game, the whole record of a puzzle), so that a record edited
/// in a new release is checked again.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RecordKey {
    /// The file name (without its directory).
    pub file: String,
    /// The header's creation date, `YYYY-MM-DD`.
    pub created: String,
    /// The record's index in its file, from 0.
    pub index: usize,
    /// The FNV-1a 64 hash of the record's bytes, 16 hex digits.
    pub hash: String,
}

impl RecordKey {
    /// The key of record `index` of `file`, whose bytes are `bytes`.
    #[must_use]
    pub fn new(file: &Path, created: impl fmt::Display, index: usize, bytes: &[u8]) -> RecordKey {
        RecordKey {
            file: file.file_name().map_or_else(
                || file.display().to_string(),
                |n| n.to_string_lossy().into(),
            ),
            created: created.to_string(),
            index,
            hash: format!("{:016x}", crate::cache::fnv1a64(bytes)),
        }
    }

    /// The key of the game `id` of `db` (its moves hashed), `None` when
    /// `db` has no such game.
    #[must_use]
    pub fn of_game(db: &crate::Database, id: crate::GameId) -> Option<RecordKey> {
        let file = db.file_of(id)?;
        let game = db.game(id)?;
        Some(RecordKey::new(
            file.path(),
            file.header().created,
            id.index(),
            game.moves_raw(),
        ))
    }
}

/// An append-only JSON Lines file of results, one object per checked
/// record, each holding the fields of a [`RecordKey`]. Opening it reads the
/// keys already done; each line is flushed when appended, so an interrupted
/// run loses at most the record being written.
#[derive(Debug)]
pub struct ResultsLog {
    file: File,
    done: HashMap<RecordKey, serde_json::Value>,
}

impl ResultsLog {
    /// Opens (or creates) the log at `path` and reads the records done.
    /// Returns the log and warnings: a last line without its newline is
    /// kept, its newline added, when it is a whole record, and otherwise
    /// (an interrupted run) cut off the file; other unreadable lines are
    /// skipped (their records are checked again).
    ///
    /// A file that is not a results log is refused and left as it is: one
    /// whose first line is not a result record (a JSON object with the
    /// fields of a [`RecordKey`]), or, when it is the file's only line and
    /// lacks its newline, does not even start as a JSON object. (A run
    /// given a games file by mistake would otherwise cut it at its last
    /// newline byte and append to it.)
    ///
    /// # Errors
    /// [`io::ErrorKind::InvalidData`] for a file that is not a results
    /// log; any I/O error opening, reading or writing the file.
    pub fn open(path: &Path) -> io::Result<(ResultsLog, Vec<String>)> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        let mut warnings = Vec::new();
        let mut done = HashMap::new();
        let mut good_len = 0u64;
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        let mut number = 0usize;
        // Whether a line with content was seen yet (the first one decides
        // whether the file is a results log at all).
        let mut seen = false;
        let mut add_newline = false;
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line)?;
            if n == 0 {
                break;
            }
            number += 1;
            let whole = line.last() == Some(&b'\n');
            let text = String::from_utf8_lossy(&line);
            if text.trim().is_empty() {
                good_len += n as u64;
                continue;
            }
            let record = serde_json::from_str::<serde_json::Value>(&text)
                .map_err(|e| format!("invalid JSON ({e})"))
                .and_then(|value| match RecordKey::deserialize(&value) {
                    Ok(key) => Ok((key, value)),
                    Err(e) => Err(format!("not a result record ({e})")),
                });
            let first = !std::mem::replace(&mut seen, true);
            if first && record.is_err() && (whole || !text.trim_start().starts_with('{')) {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "not a results log (line {number} is not a JSON result record); \
                         refused, the file is left as it is"
                    ),
                ));
            }
            match record {
                Ok((key, value)) => {
                    done.insert(key, value);
                    good_len += n as u64;
                    add_newline = !whole;
                }
                Err(_) if !whole => {
                    warnings.push(format!(
                        "{}: line {number}: dropped a truncated last line (interrupted run)",
                        path.display()
                    ));
                }
                Err(why) => {
                    good_len += n as u64;
                    warnings.push(format!("{}: line {number}: {why}; ignored", path.display()));
                }
            }
        }
        drop(reader);
        if file.metadata()?.len() != good_len {
            file.set_len(good_len)?;
        }
        file.seek(SeekFrom::End(0))?;
        if add_newline {
            // A whole record whose newline was lost: kept, and the next
            // line starts on a line of its own.
            file.write_all(b"\n")?;
            file.flush()?;
        }
        Ok((ResultsLog { file, done }, warnings))
    }

    /// Whether the record of `key` is in the log.
    #[must_use]
    pub fn contains(&self, key: &RecordKey) -> bool {
        self.done.contains_key(key)
    }

    /// The records in the log when it was opened plus those appended, by key.
    #[must_use]
    pub fn records(&self) -> &HashMap<RecordKey, serde_json::Value> {
        &self.done
    }

    /// Appends one record as a JSON line and flushes it.
    ///
    /// # Errors
    /// Serialisation errors (as [`io::Error`]) and write errors.
    pub fn append<T: Serialize>(&mut self, key: &RecordKey, record: &T) -> io::Result<()> {
        let value = serde_json::to_value(record).map_err(io::Error::other)?;
        let mut line = serde_json::to_vec(&value).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()?;
        self.done.insert(key.clone(), value);
        Ok(())
    }
}
