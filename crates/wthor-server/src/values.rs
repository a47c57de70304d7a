//! The values of the explorer's moves: every legal move of a position
//! valued by the midgame search ([`othello_core::midgame`], multi-PV),
//! exact at [`EXACT_EMPTIES`] empty squares or fewer (with `solve=1`, up
//! to the solver's cap, [`SOLVE_MAX_EMPTIES`](wthor_db::stats::SOLVE_MAX_EMPTIES)),
//! estimated by a search of [`ESTIMATE_DEPTH`] plies above.
//!
//! - **Repeatable.** A search runs at a fixed depth on an engine of
//!   [`ENGINE_OPTIONS`] and [`SELECTIVITY`] whose tables are empty (a new
//!   engine, or one cleared): a position always gets the same values (the
//!   time only stops a search), those of an [`Engine`] of the same options
//!   searching it afresh, so that a cached value is the one a new search
//!   would find.
//! - **Within the request's time.** The values of a request get
//!   [`Config::value_time`](crate::Config::value_time) from when it asks
//!   for them, waiting for a turn included; those of an explicit solve
//!   (`solve=1`) the whole [`Config::time_cap`](crate::Config::time_cap),
//!   the exact search of 21 to 24 empties taking seconds to minutes of a
//!   core (all moves exact: see `docs/http-api.md`). The estimate is searched
//!   first (quick near the end, and what is answered when the exact
//!   search does not finish); exact values are then searched with what
//!   remains. A search stopped by the time answers with its deepest
//!   completed iteration (a search of fewer plies: the same values as a
//!   search of that depth), and the answer says so.
//! - **Cached.** Complete answers (the depth asked reached, or exact) are
//!   kept, keyed by the discs of the side to move and of the other side
//!   and by the goal (exact, or so many plies); an answer stopped by the
//!   time is not (the next request searches again). A request for a
//!   position being searched waits for that search instead of searching it
//!   too (moka's single flight). The cache holds
//!   [`Config::value_entries`](crate::Config::value_entries) answers, the
//!   least used evicted first.
//! - **A few at a time.** [`Config::searches`](crate::Config::searches)
//!   searches run at once, behind a semaphore of their own (a search never
//!   holds one of the queries' turns, so that the other pages stay
//!   responsive), each on the server's pool (rayon's, as the queries) with
//!   an engine from a pool of engines (at most one per turn: their tables,
//!   48 MiB each, are had once), of
//!   [`Config::engine`](crate::Config::engine)'s options.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use othello_core::midgame::{
    Engine, EngineOptions, Limits, MAX_DEPTH, MoveValue, Query, Selectivity,
};
use tokio::sync::Semaphore;

use crate::state::{Config, on_pool};

/// The explorer's values are exact at this many empty squares or fewer
/// (about half a second of search, 0.9 s at most on real positions of 20
/// empties; `solve=1` asks for them up to the server's cap).
pub const EXACT_EMPTIES: u32 = 20;

/// The plies of the estimates (an even depth: odd ones favour the side
/// to move): about 0.1 s on a midgame position, 0.3 s at most; at 21 to
/// 24 empties, where the search's leaves are solved
/// (`midgame::EXACT_LEAF_EMPTIES`), 0.03 s as a median and 0.5 s at most
/// for every move (20 fixture positions at each of 21, 23 and 24 empties,
/// one thread, another process beside).
pub const ESTIMATE_DEPTH: u32 = 14;

/// The tables of the explorer's engines by default
/// ([`Config::engine`](crate::Config::engine)): those of
/// [`EngineOptions::default`] (a test repeating a search needs the same).
pub const ENGINE_OPTIONS: EngineOptions = EngineOptions {
    tt_bits: 20,
    solver_tt_bits: 20,
};

/// The selectivity of the estimates: the engine's default.
pub const SELECTIVITY: Selectivity = Selectivity::DEFAULT;

/// What a search is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Goal {
    /// Every move's exact score.
    Exact,
    /// Every move's value by a search of this many plies.
    Plies(u32),
}

/// The values a search found for a position's legal moves.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Found {
    /// Every legal move with its value for the side to move (discs), best
    /// first.
    pub(crate) moves: Vec<MoveValue>,
    /// Whether they are exact scores.
    pub(crate) exact: bool,
    /// The plies of the search (the empties when exact).
    pub(crate) depth: u32,
}

impl Found {
    /// Whether these values are what `goal` asked for.
    fn reaches(&self, goal: Goal) -> bool {
        match goal {
            Goal::Exact => self.exact,
            Goal::Plies(d) => self.exact || self.depth >= d,
        }
    }
}

/// A request's values.
#[derive(Clone, Debug)]
pub(crate) struct Values {
    /// The values, `None` when none could be had (the note says why).
    pub(crate) found: Option<Arc<Found>>,
    /// Whether they are what the request asked for (exact, or the
    /// estimate's whole depth); not cached otherwise.
    pub(crate) complete: bool,
    /// Why they are not what was asked.
    pub(crate) note: Option<String>,
    /// Whether this request ran a search (else the values came from the
    /// cache, or from a search another request ran).
    pub(crate) searched: bool,
}

/// How a search ended without the values asked for.
#[derive(Clone, Debug)]
enum Short {
    /// Stopped by the time: its deepest completed iteration.
    Time(Arc<Found>),
    /// No search (the server stopping, an engine that cannot be had).
    Failed(String),
}

type Key = (u64, u64, Goal);

/// The values' cache, engines and turns.
pub(crate) struct Evaluator {
    cache: moka::future::Cache<Key, Arc<Found>>,
    engines: Arc<Mutex<Vec<Engine>>>,
    options: EngineOptions,
    turns: Arc<Semaphore>,
}

impl Evaluator {
    pub(crate) fn new(config: &Config) -> Evaluator {
        Evaluator {
            cache: moka::future::Cache::new(config.value_entries.max(1) as u64),
            engines: Arc::new(Mutex::new(Vec::new())),
            options: config.engine,
            turns: Arc::new(Semaphore::new(config.searches.max(1))),
        }
    }

    /// The values of the legal moves of the side to move, who owns `p`
    /// against `o` and has a move: exact when `exact` (else estimates),
    /// within `budget` (the searches' time, from now); `cap` bounds the
    /// wait for a turn too.
    pub(crate) async fn values(
        &self,
        p: u64,
        o: u64,
        exact: bool,
        budget: Duration,
        cap: Duration,
    ) -> Values {
        match tokio::time::timeout(cap, self.within_budget(p, o, exact, budget)).await {
            Ok(values) => values,
            Err(_) => Values {
                found: None,
                complete: false,
                note: Some(format!(
                    "no values: the server is busy (no search could end within {} s)",
                    cap.as_secs_f64()
                )),
                searched: false,
            },
        }
    }

    async fn within_budget(&self, p: u64, o: u64, exact: bool, budget: Duration) -> Values {
        let deadline = Instant::now() + budget;
        let mut searched = false;
        if exact && let Some(found) = self.cache.get(&(p, o, Goal::Exact)).await {
            return Values {
                found: Some(found),
                complete: true,
                note: None,
                searched,
            };
        }
        let goal = Goal::Plies(ESTIMATE_DEPTH);
        let estimate = match self.get((p, o, goal), deadline, &mut searched).await {
            Ok(found) => found,
            Err(Short::Time(found)) => {
                let note = format!(
                    "the search ran out of its time ({} s) at depth {} of {ESTIMATE_DEPTH}",
                    budget.as_secs_f64(),
                    found.depth
                );
                return Values {
                    found: Some(found),
                    complete: false,
                    note: Some(note),
                    searched,
                };
            }
            Err(Short::Failed(why)) => {
                return Values {
                    found: None,
                    complete: false,
                    note: Some(format!("no values: {why}")),
                    searched,
                };
            }
        };
        if !exact || estimate.exact {
            return Values {
                found: Some(estimate),
                complete: true,
                note: None,
                searched,
            };
        }
        match self.get((p, o, Goal::Exact), deadline, &mut searched).await {
            Ok(found) => Values {
                found: Some(found),
                complete: true,
                note: None,
                searched,
            },
            Err(short) => Values {
                found: Some(estimate),
                complete: false,
                note: Some(match short {
                    Short::Time(_) => format!(
                        "the exact search did not finish within its time ({} s): estimates",
                        budget.as_secs_f64()
                    ),
                    Short::Failed(why) => format!("no exact values ({why}): estimates"),
                }),
                searched,
            },
        }
    }

    /// The cache's answer for `key`, or the search's (which waits for a
    /// search of the same key under way, and is kept when complete).
    async fn get(
        &self,
        key: Key,
        deadline: Instant,
        searched: &mut bool,
    ) -> Result<Arc<Found>, Short> {
        let search = async {
            *searched = true;
            let found = self.search(key, deadline).await?;
            if found.reaches(key.2) {
                Ok(Arc::new(found))
            } else {
                Err(Short::Time(Arc::new(found)))
            }
        };
        self.cache
            .try_get_with(key, search)
            .await
            .map_err(|short| (*short).clone())
    }

    /// One search, once a turn is free, on the pool.
    async fn search(&self, (p, o, goal): Key, deadline: Instant) -> Result<Found, Short> {
        let turn = Arc::clone(&self.turns)
            .acquire_owned()
            .await
            .map_err(|_| Short::Failed("the server is stopping".to_owned()))?;
        // The first iteration always completes: even past the deadline,
        // a search of one ply.
        let time = deadline
            .saturating_duration_since(Instant::now())
            .max(Duration::from_millis(1));
        let engines = Arc::clone(&self.engines);
        let options = self.options;
        on_pool(move || {
            let _turn = turn;
            let pooled = engines.lock().ok().and_then(|mut e| e.pop());
            let mut engine = match pooled {
                Some(mut engine) => {
                    engine.clear();
                    engine
                }
                None => Engine::new(options).map_err(|e| Short::Failed(e.to_string()))?,
            };
            let depth = match goal {
                Goal::Exact => MAX_DEPTH,
                Goal::Plies(d) => d,
            };
            let limits = Limits {
                depth: Some(depth),
                nodes: None,
                time: Some(time),
            };
            let query = Query::from(limits).all_moves().selectivity(SELECTIVITY);
            let answer = engine.analyze(p, o, query);
            if let Ok(mut pool) = engines.lock() {
                pool.push(engine);
            }
            let a = answer.map_err(|e| Short::Failed(e.to_string()))?;
            Ok(Found {
                moves: a.moves,
                exact: a.exact,
                depth: a.depth,
            })
        })
        .await
        .map_err(|panic| Short::Failed(format!("the search failed: {panic}")))?
    }
}
