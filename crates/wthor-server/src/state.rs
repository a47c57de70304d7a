//! What every request shares: the searcher (the database and its position
//! index, checked once, when the server starts), the player names for autocompletion,
//! the bound on concurrent queries, the cache of costly answers and the
//! explorer's values (their searches, engines and cache).

use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use othello_core::midgame::EngineOptions;
use std::path::PathBuf;
use tokio::sync::Semaphore;
use wthor_db::index::IndexChoice;
use wthor_db::names::fold;
use wthor_db::stats::StatsOptions;

use wthor_db::analysis::{AnalysisOptions, GameAnalysis, LogReadError, read_matched};
use wthor_db::{Database, GameId, Query, Searcher};

use crate::api::error::ApiError;
use crate::api::query::{ExplorerQuery, GameQuery, HistoryQuery};
use crate::values::Evaluator;

/// The limits of the server.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The longest a query may take (waiting for its turn included); past
    /// it the answer is 503 (busy, with `Retry-After`, when it waited for
    /// its turn all along). An export gets it whole, from its request to
    /// its last byte; the values of an explicit solve (`solve=1`) get it
    /// too.
    pub time_cap: Duration,
    /// Queries run at once (the others wait for their turn): each part
    /// of an export, an analysis, a page, a search.
    pub concurrent: usize,
    /// Answers kept in the cache of costly queries.
    pub cache_entries: usize,
    /// The game viewer's analysis: exact from `empties` empty squares
    /// (20, `wthor analyze`'s default), estimated before by the midgame
    /// search (see `wthor_db::analysis`).
    pub analysis: AnalysisOptions,
    /// The analysis's exact solver threads (1: the queries are the
    /// server's parallelism); its table is the one
    /// `AnalysisOptions::one_game_solver` sizes for every front end.
    pub analysis_threads: usize,
    /// The explorer values' engine: its tables (the values of a position
    /// depend on them: see [`crate::values`]).
    pub engine: EngineOptions,
    /// The time the values of the explorer's moves may take in a request
    /// (waiting for a turn included; see [`crate::values`]), but for an
    /// explicit solve's, which get [`time_cap`](Self::time_cap).
    pub value_time: Duration,
    /// Searches of the explorer's values run at once (apart from the
    /// queries' turns).
    pub searches: usize,
    /// Answers kept in the cache of the explorer's values (a position's
    /// values each).
    pub value_entries: usize,
    /// An export ends when its client takes none of its bytes for this
    /// long (its connection is then cut).
    pub write_timeout: Duration,
    /// The games of an export's part: each part is one job of the pool,
    /// under a turn; two parts wait ready beyond the one being sent.
    pub export_part: usize,
}

impl Default for Config {
    /// 10 s, as many queries at once as the machine has threads, 256
    /// answers cached, analyses with `wthor analyze`'s defaults (exact
    /// from 20 empties, estimates at 18 plies) on one thread; the explorer's values
    /// within 5 s, half as many searches at once as threads (at least
    /// one), 4096 positions' values cached; exports in parts of 4096
    /// games, a client silent for 5 s cut.
    fn default() -> Config {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        Config {
            time_cap: Duration::from_secs(10),
            concurrent: threads,
            cache_entries: 256,
            analysis: AnalysisOptions::default(),
            analysis_threads: 1,
            engine: crate::values::ENGINE_OPTIONS,
            value_time: Duration::from_secs(5),
            searches: (threads / 2).max(1),
            value_entries: 4096,
            write_timeout: Duration::from_secs(5),
            export_part: 4096,
        }
    }
}

/// One player of the archive, for the autocompletion.
#[derive(Clone, Debug)]
pub(crate) struct PlayerEntry {
    pub(crate) name: String,
    pub(crate) folded: String,
    pub(crate) games: u64,
}

/// The state of the server.
pub struct AppState {
    /// Every query goes through it.
    pub(crate) searcher: Searcher<Database>,
    pub(crate) players: Vec<PlayerEntry>,
    pub(crate) config: Config,
    limit: Arc<Semaphore>,
    cache: moka::future::Cache<CacheKey, Kept>,
    pub(crate) values: Evaluator,
    /// The analysed games of the logs given (`wthor serve --analysis`),
    /// those of this database only, named as it names them.
    pub(crate) analyses: Vec<GameAnalysis>,
    log: Box<dyn Fn(&str) + Send + Sync>,
}

impl AppState {
    /// The state over `db`: its searcher with the position index `index`
    /// chooses (by the library's rule, [`Searcher`], checked once now) and
    /// the players' names with their games, and the database's kept
    /// ratings ([`Database::filter_ratings`]: read from their cache, else
    /// fitted, 2 s on the whole archive). The second value says why an
    /// index asked for is not used.
    #[must_use]
    pub fn new(db: Database, index: &IndexChoice, config: Config) -> (AppState, Option<String>) {
        // The kept ratings (the game records' and the explorer's), made
        // now, before any request: made inside a request's job on rayon's
        // pool, their own parallel work could run another request's job on
        // the same thread, which would wait for them (a re-entered
        // `OnceLock`), or every worker could wait for a maker whose
        // parallel work finds no free worker.
        let _ = db.filter_ratings();
        let searcher = Searcher::new(db, index.clone());
        let note = searcher.note().map(str::to_owned);
        let players = searcher
            .stats(
                &Query::new(),
                &StatsOptions {
                    players: true,
                    ..StatsOptions::default()
                },
            )
            .map(|s| s.value.players)
            .unwrap_or_default()
            .into_iter()
            .filter(|p| p.known)
            .map(|p| PlayerEntry {
                folded: fold(&p.name),
                name: p.name,
                games: p.record.games,
            })
            .collect();
        let state = AppState {
            searcher,
            players,
            limit: Arc::new(Semaphore::new(config.concurrent.max(1))),
            cache: moka::future::Cache::new(config.cache_entries.max(1) as u64),
            values: Evaluator::new(&config),
            config,
            analyses: Vec::new(),
            log: Box::new(|_| {}),
        };
        (state, note)
    }

    /// The state with the analysed games of the results logs `paths`
    /// (`wthor analyze --results`) that are games of this database,
    /// matched by record key (file, creation date, index, the hash of its
    /// bytes) and named as the database names them: the player pages'
    /// endgame accuracy and the reports' worst mistakes. The second value
    /// says, per log, what it holds that is not used (lines that are no
    /// analysed game, games of another database): warnings, never errors.
    ///
    /// # Errors
    /// A log that cannot be read.
    pub fn with_analysis_logs(
        mut self,
        paths: &[PathBuf],
    ) -> Result<(AppState, Vec<String>), LogReadError> {
        let log = read_matched(self.database(), paths)?;
        let (analyses, notes) = (
            log.games.into_iter().map(|(_, g)| g).collect(),
            log.warnings,
        );
        self.analyses = analyses;
        Ok((self, notes))
    }

    /// The analysed games of the logs given.
    #[must_use]
    pub fn analyses(&self) -> &[GameAnalysis] {
        &self.analyses
    }

    /// The state that hands each internal fault (a 500: the request and
    /// the message) to `log`, which the `wthor` command prints on stderr;
    /// by default they go nowhere (the libraries print nothing).
    #[must_use]
    pub fn on_fault(self, log: impl Fn(&str) + Send + Sync + 'static) -> AppState {
        AppState {
            log: Box::new(log),
            ..self
        }
    }

    /// Logs an internal fault.
    pub(crate) fn fault(&self, what: &str) {
        (self.log)(what);
    }

    /// The database served.
    #[must_use]
    pub fn database(&self) -> &Database {
        self.searcher.database()
    }

    /// Whether a position index answers the position queries.
    #[must_use]
    pub fn has_index(&self) -> bool {
        self.searcher.index().is_some()
    }

    /// Keeps `kept` for `key` from outside the async side (a work on the
    /// pool whose request may have passed its cap): a task of `runtime`
    /// inserts it.
    pub(crate) fn keep(&self, runtime: &tokio::runtime::Handle, key: CacheKey, kept: Kept) {
        let cache = self.cache.clone();
        runtime.spawn(async move { cache.insert(key, kept).await });
    }

    /// The answer kept for `key`, or `make`'s, kept when complete: one
    /// computation per key at a time, the requests of the same key
    /// meanwhile waiting for it and answered with it (complete or not).
    /// The second value: whether this request computed it.
    pub(crate) async fn answer(
        &self,
        key: CacheKey,
        make: impl Future<Output = Result<Kept, NotKept>>,
    ) -> Result<(Kept, bool), ApiError> {
        match self.cache.entry(key).or_try_insert_with(make).await {
            Ok(entry) => {
                let fresh = entry.is_fresh();
                Ok((entry.into_value(), fresh))
            }
            Err(not_kept) => match &*not_kept {
                NotKept::Incomplete(answer) => Ok((answer.clone(), true)),
                NotKept::Error(e) => Err(e.clone()),
            },
        }
    }
}

/// What the cache of answers is keyed by: the query as read (its own
/// normalised form), or the game of an analysis.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CacheKey {
    /// An explorer answer.
    Explorer(Box<ExplorerQuery>),
    /// A history answer.
    History(Box<HistoryQuery>),
    /// A game's answer with its analysis or its novelty (the query: which
    /// of them).
    Game(GameId, GameQuery),
}

/// An answer kept: its JSON, serialised once, and where its explorer
/// values came from (`x-wthor-values`).
#[derive(Clone, Debug)]
pub(crate) struct Kept {
    pub(crate) json: bytes::Bytes,
    pub(crate) values: &'static str,
}

/// Why an answer is not kept: an error, or an answer that is not what
/// was asked (values stopped by the time: the next request searches
/// again).
#[derive(Debug)]
pub(crate) enum NotKept {
    Error(ApiError),
    Incomplete(Kept),
}

impl From<ApiError> for NotKept {
    fn from(e: ApiError) -> NotKept {
        NotKept::Error(e)
    }
}

/// Runs `work` on rayon's pool, the one pool of the server's work (as
/// many threads as the machine has cores; the async side, one thread,
/// only routes and writes): its answer, or what it panicked with.
pub(crate) async fn on_pool<T: Send + 'static>(
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, String> {
    let (tx, rx) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        // A panic must not reach rayon (it would abort the process).
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).map_err(|p| {
            p.downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic".to_owned())
        });
        let _ = tx.send(answer);
    });
    rx.await
        .unwrap_or_else(|_| Err("the work was dropped".to_owned()))
}

/// What a query past its time cap is told to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Advice {
    /// Nothing: its work is what it is (a game, a page, an analysis).
    None,
    /// To narrow its filters (a search, an export, the explorer).
    NarrowFilters,
}

/// Runs `work` on the pool once a turn is free, under the time cap: 503
/// when the cap passes first, "busy" with `Retry-After` while it waited
/// for its turn, else the cap passed while it ran (the work still
/// finishes, its turn held until then, so that slow queries cannot pile
/// up); 500 when it panics.
pub(crate) async fn run_blocking<T, F>(state: &Arc<AppState>, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
{
    run_until(
        state,
        Instant::now() + state.config.time_cap,
        Advice::None,
        work,
    )
    .await
}

/// [`run_blocking`] for a query of filters: past the cap, the answer says
/// to narrow them.
pub(crate) async fn run_filtered<T, F>(state: &Arc<AppState>, work: F) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
{
    let deadline = Instant::now() + state.config.time_cap;
    run_until(state, deadline, Advice::NarrowFilters, work).await
}

/// [`run_blocking`] with the time cap ending at `deadline` (an export's
/// parts share the cap of its request) and `advice` past it.
pub(crate) async fn run_until<T, F>(
    state: &Arc<AppState>,
    deadline: Instant,
    advice: Advice,
    work: F,
) -> Result<T, ApiError>
where
    T: Send + 'static,
    F: FnOnce(&AppState) -> Result<T, ApiError> + Send + 'static,
{
    let cap = state.config.time_cap;
    let turn = tokio::time::timeout_at(deadline.into(), Arc::clone(&state.limit).acquire_owned());
    let permit = match turn.await {
        Ok(Ok(permit)) => permit,
        Ok(Err(_)) => return Err(ApiError::unavailable("the server is stopping")),
        // Every turn was taken all along: the request never ran.
        Err(_) => return Err(busy(state)),
    };
    let state = Arc::clone(state);
    let job = on_pool(move || {
        let _permit = permit;
        work(&state)
    });
    match tokio::time::timeout_at(deadline.into(), job).await {
        Ok(answer) => {
            answer.map_err(|panic| ApiError::internal(format!("the query failed: {panic}")))?
        }
        Err(_) => Err(ApiError::unavailable(format!(
            "the query took longer than its time cap of {} s{}",
            cap.as_secs_f64(),
            match advice {
                Advice::None => "",
                Advice::NarrowFilters => ": narrow it with filters",
            }
        ))),
    }
}

/// The 503 of a request that waited for a turn the whole time cap: busy,
/// to be retried after the cap (by then the queries running have ended,
/// or passed their own caps).
pub(crate) fn busy(state: &AppState) -> ApiError {
    let cap = state.config.time_cap;
    ApiError::Busy {
        message: format!(
            "the server is busy: all {} of its query turns stayed taken for the time cap ({} s); \
             retry later",
            state.config.concurrent.max(1),
            cap.as_secs_f64()
        ),
        retry_after: cap.as_secs_f64().ceil().max(1.0) as u64,
    }
}
