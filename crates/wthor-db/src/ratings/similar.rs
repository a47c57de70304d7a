//! Names that are probably one person's: reported, never merged.

use std::collections::HashMap;

use crate::names::fold;
use crate::openings::edit_distance;

/// Why two names are probably one person's.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Similar {
    /// The same name once [folded](fold) (case, accents, spaces around).
    SameFolded,
    /// The folded names are one edit apart: a letter inserted, deleted or
    /// replaced (`Aso Daisuke`, `Asou Daisuke`; `Melnikov Aleksandr` and
    /// `Melnikov Alexandr` are two edits apart, not reported).
    OneEdit,
}

/// Two rated names that are probably the same person's. The ratings keep
/// them apart: the archive may hold two people whose names differ by a
/// letter, and only a person who knows them can say.
#[derive(
    Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub struct SimilarNames {
    /// The two names, in byte order.
    pub names: [String; 2],
    /// Why they look alike.
    pub how: Similar,
}

/// Every pair of `names` whose folded forms are equal or one edit apart,
/// sorted. Pairs are found through the names' one-deletion variants (two
/// strings one edit apart share one: the shorter, or both less the
/// replaced letter), then checked with [`edit_distance`]: linear in the
/// names rather than quadratic.
pub(crate) fn similar_names(names: &[&str]) -> Vec<SimilarNames> {
    let folded: Vec<Vec<char>> = names.iter().map(|n| fold(n).chars().collect()).collect();
    let mut variants: HashMap<Vec<char>, Vec<usize>> = HashMap::new();
    for (i, f) in folded.iter().enumerate() {
        let mut mine: Vec<Vec<char>> = vec![f.clone()];
        for k in 0..f.len() {
            let mut v = f.clone();
            v.remove(k);
            mine.push(v);
        }
        mine.sort_unstable();
        mine.dedup();
        for v in mine {
            variants.entry(v).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize)> = variants
        .values()
        .filter(|ids| ids.len() > 1)
        .flat_map(|ids| {
            ids.iter()
                .enumerate()
                .flat_map(move |(k, &a)| ids[k + 1..].iter().map(move |&b| (a.min(b), a.max(b))))
        })
        .collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut out: Vec<SimilarNames> = pairs
        .into_iter()
        .filter(|&(a, b)| names[a] != names[b])
        .filter_map(|(a, b)| {
            let how = if folded[a] == folded[b] {
                Similar::SameFolded
            } else if edit_distance(&folded[a], &folded[b]) == 1 {
                Similar::OneEdit
            } else {
                return None;
            };
            let mut pair = [names[a].to_owned(), names[b].to_owned()];
            pair.sort();
            Some(SimilarNames { names: pair, how })
        })
        .collect();
    out.sort();
    out
}
