//! Ctrl-C (SIGINT), SIGTERM and SIGHUP during long runs.
//!
//! A command that solves for a long time (`validate --solve`, `puzzles
//! --verify`, `import`) calls [`arm`] before its work and hands [`flag`]
//! to the library, whose batch loops stop between records once it is set. While
//! armed, the first signal only asks the run to stop at the next safe
//! point: the records being solved are finished, logged and cached, the
//! cache is saved and the command says what it kept and exits
//! [`INTERRUPTED`]. A second signal, or one while nothing is armed, ends
//! the process at once with that code (as the default handler would).
//!
//! The handler runs on a thread of its own (the `ctrlc` crate), not in
//! signal context, so it may print.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code of a run stopped by a signal (128 + SIGINT, the shell's
/// convention).
pub(crate) const INTERRUPTED: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);
static ARMED: AtomicBool = AtomicBool::new(false);
static INSTALL: Once = Once::new();

/// While alive, a signal asks the run to stop instead of ending the
/// process.
#[must_use = "the run is armed only while the guard lives"]
pub(crate) struct Armed(());

impl Drop for Armed {
    fn drop(&mut self) {
        ARMED.store(false, Ordering::SeqCst);
    }
}

/// Arms the handler (installing it on first use) for a run that stops on
/// [`flag`] between its records.
pub(crate) fn arm() -> Armed {
    INSTALL.call_once(|| {
        // Without a handler (one installed by another library, say) the
        // default applies: the signal ends the process.
        let _ = ctrlc::set_handler(|| {
            if ARMED.load(Ordering::SeqCst) && !STOP.swap(true, Ordering::SeqCst) {
                eprintln!(
                    "\nwthor: stopping after the positions being solved, then saving \
                     (press Ctrl-C again to quit at once, losing them)"
                );
            } else {
                std::process::exit(i32::from(INTERRUPTED));
            }
        });
    });
    ARMED.store(true, Ordering::SeqCst);
    Armed(())
}

/// The flag a signal sets, for library code that stops on it.
pub(crate) fn flag() -> &'static AtomicBool {
    &STOP
}
