//! The limits of a search in progress, shared by the midgame search and the
//! exact solver: the caller's stop flag, a deadline and a node budget.
//!
//! Searches *poll* the control every few thousand nodes of their own
//! (reporting the nodes since their last poll); a poll that finds a limit
//! passed sets `halted`, which every search thread reads at its larger
//! nodes and then unwinds without storing anything.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Nodes a search thread searches between two polls of the exact solver
/// (about a millisecond).
pub(crate) const SOLVER_POLL: u64 = 1 << 14;
/// Nodes a midgame search thread searches between two polls (each node
/// evaluates patterns: slower than the solver's).
pub(crate) const MIDGAME_POLL: u64 = 1 << 8;

/// The limits of one search call.
pub(crate) struct Control<'a> {
    /// The caller's stop flag, if any.
    outside: Option<&'a AtomicBool>,
    /// Set once a limit is passed; never cleared.
    halted: AtomicBool,
    deadline: Option<Instant>,
    node_limit: u64,
    /// Nodes reported by the polls so far.
    nodes: AtomicU64,
    /// The control of the search this one helps, if any: its limits stop
    /// this one too, and this one's nodes count against its budget.
    parent: Option<&'a Control<'a>>,
}

impl<'a> Control<'a> {
    /// A control stopping at `deadline` (if any), after `node_limit`
    /// nodes, or when `outside` is set.
    pub(crate) fn new(
        outside: Option<&'a AtomicBool>,
        deadline: Option<Instant>,
        node_limit: u64,
    ) -> Self {
        Control {
            outside,
            halted: AtomicBool::new(false),
            deadline,
            node_limit,
            nodes: AtomicU64::new(0),
            parent: None,
        }
    }

    /// The control of a helper thread of the search under `parent`: it
    /// stops when `outside` is set or `parent` is halted, and its nodes
    /// are reported to `parent` as well (so that they count against the
    /// search's node budget).
    pub(crate) fn helping(parent: &'a Control<'a>, outside: &'a AtomicBool) -> Self {
        Control {
            parent: Some(parent),
            ..Control::new(Some(outside), None, u64::MAX)
        }
    }

    /// A control with no limit.
    pub(crate) fn unlimited() -> Control<'static> {
        Control::new(None, None, u64::MAX)
    }

    /// Whether a limit was passed (as of the last poll).
    #[inline]
    pub(crate) fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed) || self.parent.is_some_and(Control::halted)
    }

    /// Reports `nodes` searched since the caller's last poll, checks every
    /// limit and returns whether the search must stop.
    pub(crate) fn poll(&self, nodes: u64) -> bool {
        let total = self
            .nodes
            .fetch_add(nodes, Ordering::Relaxed)
            .saturating_add(nodes);
        let parent_halted = self.parent.is_some_and(|c| c.poll(nodes));
        if parent_halted
            || total >= self.node_limit
            || self.outside.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.halted.store(true, Ordering::Relaxed);
        }
        self.halted()
    }
}
