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

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, Once};

/// The exit code of a run stopped by a signal (128 + SIGINT, the shell's
/// convention).
pub(crate) const INTERRUPTED: u8 = 130;

static STOP: LazyLock<Arc<AtomicBool>> = LazyLock::new(|| Arc::new(AtomicBool::new(false)));
/// What the first signal says the run will do.
static STOPPING: Mutex<&str> = Mutex::new(STOP_AND_SAVE);
const STOP_AND_SAVE: &str = "stopping after the positions being solved, then saving \
     (press Ctrl-C again to quit at once, losing them)";
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
    arm_saying(STOP_AND_SAVE)
}

/// [`arm`] for a run whose first signal does what `stopping` says.
pub(crate) fn arm_saying(stopping: &'static str) -> Armed {
    *STOPPING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = stopping;
    INSTALL.call_once(|| {
        // Without a handler (one installed by another library, say) the
        // default applies: the signal ends the process.
        let _ = ctrlc::set_handler(|| {
            if ARMED.load(Ordering::SeqCst) && !STOP.swap(true, Ordering::SeqCst) {
                let stopping = *STOPPING
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
                eprintln!("\nwthor: {stopping}");
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

/// [`flag`], shared, for searches that hold it.
pub(crate) fn shared_flag() -> Arc<AtomicBool> {
    Arc::clone(&STOP)
}
