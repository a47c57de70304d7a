//! Which records a run checks: a deterministic random sample, then one
//! shard of `N`.

use std::fmt;
use std::str::FromStr;

/// One shard `K/N` of a run split over `N` machines: the `i`-th selected
/// game (from 0, in input order, after sampling) belongs to shard
/// `i mod N + 1`. The `N` shards `1/N … N/N` cover every game exactly once.
///
/// ```
/// use wthor_db::verify::Shard;
/// let s: Shard = "2/3".parse()?;
/// assert_eq!((s.index(), s.count()), (2, 3));
/// assert!(s.contains(1) && s.contains(4) && !s.contains(0));
/// assert!("0/3".parse::<Shard>().is_err() && "4/3".parse::<Shard>().is_err());
/// # Ok::<(), String>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    k: usize,
    n: usize,
}

impl Shard {
    /// Shard `k` of `n` (1-based), or `None` unless `1 <= k <= n`.
    #[must_use]
    pub fn new(k: usize, n: usize) -> Option<Shard> {
        (1..=n).contains(&k).then_some(Shard { k, n })
    }

    /// `K`, from 1.
    #[must_use]
    pub fn index(self) -> usize {
        self.k
    }

    /// `N`.
    #[must_use]
    pub fn count(self) -> usize {
        self.n
    }

    /// Whether the `i`-th item (from 0) belongs to this shard.
    #[must_use]
    pub fn contains(self, i: usize) -> bool {
        i % self.n + 1 == self.k
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard {s:?}: expected K/N with 1 <= K <= N, e.g. 1/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let k = k.trim().parse().map_err(|_| bad())?;
        let n = n.trim().parse().map_err(|_| bad())?;
        Shard::new(k, n).ok_or_else(bad)
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// SplitMix64: a small deterministic generator (the sample must not depend
/// on a crate's version).
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        // n is far below 2^32 here: the modulo bias is negligible.
        (self.next() % n as u64) as usize
    }
}

/// A deterministic random sample of `size` of `items` (all of them when
/// there are no more), in their order: the same items and seed give the
/// same sample on any machine (a partial Fisher-Yates shuffle driven by
/// SplitMix64). What `select`, `validate --sample`, the analysis tests and
/// benchmarks draw games with.
///
/// ```
/// use wthor_db::verify::sample_of;
/// let items: Vec<u32> = (0..100).collect();
/// let some = sample_of(&items, 10, 7);
/// assert_eq!(some.len(), 10);
/// assert!(some.windows(2).all(|w| w[0] < w[1]));
/// assert_eq!(some, sample_of(&items, 10, 7));
/// assert_ne!(some, sample_of(&items, 10, 8));
/// assert_eq!(sample_of(&items[..5], 10, 7), &items[..5]);
/// ```
#[must_use]
pub fn sample_of<T: Clone>(items: &[T], size: usize, seed: u64) -> Vec<T> {
    if size >= items.len() {
        return items.to_vec();
    }
    let mut order: Vec<usize> = (0..items.len()).collect();
    let mut rng = SplitMix(seed);
    for i in 0..size {
        let j = i + rng.below(order.len() - i);
        order.swap(i, j);
    }
    order.truncate(size);
    order.sort_unstable();
    order.into_iter().map(|i| items[i].clone()).collect()
}

/// The items to process, as `(file, index)` pairs in input order: every
/// index of `counts[file]`, or a deterministic random sample of `sample =
/// (size, seed)` of them (the same inputs and seed always give the same
/// sample, on any machine), then only those of `shard`.
///
/// ```
/// use wthor_db::verify::{Shard, select};
/// let all = select(&[3, 2], None, None);
/// assert_eq!(all, [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1)]);
/// let sample = select(&[100, 100], Some((10, 1)), None);
/// assert_eq!(sample.len(), 10);
/// assert_eq!(sample, select(&[100, 100], Some((10, 1)), None));
/// let mut shards: Vec<_> = (1..=3)
///     .flat_map(|k| select(&[3, 2], None, Shard::new(k, 3)))
///     .collect();
/// shards.sort();
/// assert_eq!(shards, all);
/// ```
#[must_use]
pub fn select(
    counts: &[usize],
    sample: Option<(usize, u64)>,
    shard: Option<Shard>,
) -> Vec<(usize, usize)> {
    let mut all: Vec<(usize, usize)> = counts
        .iter()
        .enumerate()
        .flat_map(|(f, &n)| (0..n).map(move |i| (f, i)))
        .collect();
    if let Some((size, seed)) = sample {
        all = sample_of(&all, size, seed);
    }
    if let Some(shard) = shard {
        all = all
            .into_iter()
            .enumerate()
            .filter(|&(i, _)| shard.contains(i))
            .map(|(_, item)| item)
            .collect();
    }
    all
}
