//! The options that size work or memory (`--tt-bits`, `--threads`), checked
//! once when the command line is parsed, with one message each: a usage
//! error (exit 2) naming the range, never an allocation that aborts.

use std::ops::RangeInclusive;

/// The transposition table sizes `--tt-bits` takes: 2^BITS entries of 32
/// bytes (the solver's own bounds).
const TT_BITS: RangeInclusive<u32> = othello_core::solver::TT_BITS;

/// The bytes of a transposition table of 2^`bits` entries.
pub(crate) fn table_bytes(bits: u32) -> u64 {
    32u64 << bits
}

/// `--tt-bits BITS`: within [`TT_BITS`], and one table within the memory
/// this machine has.
pub(crate) fn parse_tt_bits(text: &str) -> Result<u32, String> {
    let bits: u32 = text.parse().map_err(|_| {
        format!(
            "expected a whole number of bits from {} to {}",
            TT_BITS.start(),
            TT_BITS.end()
        )
    })?;
    if !TT_BITS.contains(&bits) {
        return Err(format!(
            "{bits} is out of range: from {} to {} (2^BITS entries of 32 bytes; 22 takes 128 MiB)",
            TT_BITS.start(),
            TT_BITS.end()
        ));
    }
    fits(bits, 1)?;
    Ok(bits)
}

/// Checks that `tables` transposition tables of 2^`bits` entries (one per
/// worker) fit in the memory this machine has.
///
/// # Errors
/// A message naming the sizes, when they do not fit.
pub(crate) fn fits(bits: u32, tables: usize) -> Result<(), String> {
    let Some(memory) = total_memory() else {
        return Ok(());
    };
    let need = table_bytes(bits).saturating_mul(tables as u64);
    if need > memory {
        let each = if tables > 1 {
            format!("{tables} tables of {} each take", size(table_bytes(bits)))
        } else {
            "a table takes".to_owned()
        };
        return Err(format!(
            "--tt-bits {bits}: {each} {}, more than this machine's {} of memory",
            size(need),
            size(memory)
        ));
    }
    Ok(())
}

// The most threads `--threads` takes: the library's bound.
use othello_core::solver::MAX_THREADS;

/// `--threads N`: from 1 to [`MAX_THREADS`] (leaving the option out means
/// all cores).
pub(crate) fn parse_threads(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err(format!(
            "0 threads: give 1 to {MAX_THREADS}, or leave --threads out for all cores"
        )),
        Ok(n) if n > MAX_THREADS => Err(format!(
            "{n} threads is out of range: from 1 to {MAX_THREADS} (more threads than cores only \
             slow the search; leave --threads out for all cores)"
        )),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "expected a whole number of threads, from 1 to {MAX_THREADS}"
        )),
    }
}

/// The machine's memory in bytes (`MemTotal` of `/proc/meminfo`), where the
/// system says.
fn total_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Bytes in binary units, as people read them (`128 MiB`, `32 TiB`).
fn size(bytes: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if value.fract() == 0.0 || unit == 0 {
        format!("{value:.0} {}", units[unit])
    } else {
        format!("{value:.1} {}", units[unit])
    }
}
