//! Names: players and tournaments joined to games by number.
//!
//! A game stores numbers; the names are records of the players (`.JOU`)
//! and tournaments (`.TRN`) files of the same release, which
//! [`Database`](crate::Database) pairs with each game file (see
//! [`Join`](crate::Join)). A number beyond its names file is not a
//! failure: [`NameRef`] then shows a placeholder with the number and
//! [`NameRef::is_known`] is false, so that the caller can warn.
//!
//! Matching is case- and accent-insensitive: names and patterns are
//! [`fold`]ed (Unicode decomposition, combining marks dropped, lower case).
//! A query matches a pattern against a names table once, giving the set of
//! matching numbers ([`NameSet`]); games are then tested by number.

use std::fmt;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;
use wthor_format::{FileKind, NameKind};

use crate::files::DbFile;

/// The decoded names of one players or tournaments file.
#[derive(Clone, Debug)]
pub struct NamesTable {
    kind: NameKind,
    names: Vec<String>,
    folded: Vec<String>,
}

impl NamesTable {
    /// Decodes a names file (empty for other kinds of file).
    #[must_use]
    pub fn of_file(file: &DbFile) -> NamesTable {
        let kind = if file.kind() == FileKind::Tournaments {
            NameKind::Tournaments
        } else {
            NameKind::Players
        };
        // The file parsed when it was opened: read it again leniently.
        let mut options = *file.read_options();
        options.strict = false;
        let names: Vec<String> = match wthor_format::parse_names_file(file.bytes(), kind, &options)
        {
            Ok(parsed) => parsed
                .names()
                .map(|n| n.decode(parsed.encoding()).trim_end().to_owned())
                .collect(),
            Err(_) => Vec::new(),
        };
        NamesTable::new(kind, names)
    }

    /// A table of the given names, number `i` being `names[i]`.
    #[must_use]
    pub fn new(kind: NameKind, names: Vec<String>) -> NamesTable {
        let folded = names.iter().map(|n| fold(n)).collect();
        NamesTable {
            kind,
            names,
            folded,
        }
    }

    /// Players or tournaments.
    #[must_use]
    pub fn kind(&self) -> NameKind {
        self.kind
    }

    /// The number of names.
    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    /// Whether the table holds no name.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// The name of number `n`, as decoded.
    #[must_use]
    pub fn get(&self, n: u16) -> Option<&str> {
        self.names.get(usize::from(n)).map(String::as_str)
    }

    /// The folded name of number `n` (see [`fold`]).
    #[must_use]
    pub fn folded(&self, n: u16) -> Option<&str> {
        self.folded.get(usize::from(n)).map(String::as_str)
    }

    /// The numbers whose name matches `pattern`.
    #[must_use]
    pub fn matching(&self, pattern: &NamePattern) -> NameSet {
        let mut set = NameSet::with_len(self.names.len());
        for (i, name) in self.folded.iter().enumerate() {
            if pattern.matches_folded(name) {
                set.insert(i);
            }
        }
        set
    }

    /// The numbers of programs (see [`is_program`]).
    #[must_use]
    pub fn programs(&self) -> NameSet {
        let mut set = NameSet::with_len(self.names.len());
        for (i, name) in self.names.iter().enumerate() {
            if is_program(name) {
                set.insert(i);
            }
        }
        set
    }
}

/// Whether a player name is a program's: WTHOR writes programs with their
/// author in parentheses (`Edax (delorme)`, `Logistello (buro)`; long
/// ones are cut at 19 bytes, `Othello Master (we`), so a name with ` (`
/// after a first word is a program's.
#[must_use]
pub fn is_program(name: &str) -> bool {
    name.find(" (").is_some_and(|i| i > 0)
}

/// A name folded for matching: decomposed (NFD), combining marks dropped,
/// lower case, ligatures and the other letters without an accent to strip
/// spelled out as they are typed (`œ` → `oe`, `ß` → `ss`, `ø` → `o`), outer
/// spaces trimmed (`Éric  ` → `eric`): every letter of Windows-1252 folds
/// to ASCII.
///
/// ```
/// assert_eq!(wthor_db::names::fold("  Le Jeune (Aubépine) "), "le jeune (aubepine)");
/// assert_eq!(wthor_db::names::fold("ÇÀ"), "ca");
/// assert_eq!(wthor_db::names::fold("DUBŒUF Ærø Straße"), "duboeuf aero strasse");
/// ```
#[must_use]
pub fn fold(text: &str) -> String {
    let text = text.trim();
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut folded = String::with_capacity(text.len());
    for c in text
        .nfd()
        .filter(|&c| !is_combining_mark(c))
        .flat_map(char::to_lowercase)
    {
        match spelled_out(c) {
            Some(letters) => folded.push_str(letters),
            None => folded.push(c),
        }
    }
    folded
}

/// The plain letters a reader types for a lower-case letter that has no
/// accent to strip (Unicode decomposes `é` into `e` and a mark, but not
/// `œ`): the ligatures and the other letters of Windows-1252, the names
/// files' encoding (`ß` → `ss`, `ø` → `o`, `ð` → `d`, `þ` → `th`), and a few
/// of Latin Extended-A that names carry (`ł`, `đ`, `ı`), and `ƒ`.
fn spelled_out(c: char) -> Option<&'static str> {
    Some(match c {
        'œ' => "oe",
        'æ' => "ae",
        'ß' | 'ẞ' => "ss",
        'ø' => "o",
        'ð' | 'đ' => "d",
        'þ' => "th",
        'ł' => "l",
        'ı' => "i",
        'ƒ' => "f",
        _ => return None,
    })
}

/// A name to look for: a substring (default) or a whole name, both
/// folded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NamePattern {
    folded: String,
    exact: bool,
}

impl NamePattern {
    /// A pattern matching names that contain `text` (folded).
    #[must_use]
    pub fn substring(text: &str) -> NamePattern {
        NamePattern {
            folded: fold(text),
            exact: false,
        }
    }

    /// A pattern matching names equal to `text` (folded).
    #[must_use]
    pub fn exact(text: &str) -> NamePattern {
        NamePattern {
            folded: fold(text),
            exact: true,
        }
    }

    /// Whether a name matches.
    #[must_use]
    pub fn matches(&self, name: &str) -> bool {
        self.matches_folded(&fold(name))
    }

    fn matches_folded(&self, folded: &str) -> bool {
        if self.exact {
            folded == self.folded
        } else {
            folded.contains(&self.folded)
        }
    }
}

/// A set of name numbers (a bitset as long as its names table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NameSet {
    words: Vec<u64>,
}

impl NameSet {
    /// The empty set for a table of `len` names.
    #[must_use]
    pub fn with_len(len: usize) -> NameSet {
        NameSet {
            words: vec![0; len.div_ceil(64)],
        }
    }

    /// Adds number `n` (which must be below the table's length).
    pub fn insert(&mut self, n: usize) {
        self.words[n / 64] |= 1 << (n % 64);
    }

    /// Whether number `n` is in the set (never for a number beyond the
    /// table).
    #[must_use]
    #[inline]
    pub fn contains(&self, n: u16) -> bool {
        let n = usize::from(n);
        self.words
            .get(n / 64)
            .is_some_and(|w| w >> (n % 64) & 1 == 1)
    }

    /// Whether the set is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }
}

/// A player or tournament of a game: its number and, when the names file
/// has it, its name. Displayed as the name, or as a placeholder with the
/// number (`<player 3849>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NameRef<'a> {
    /// Players or tournaments.
    pub kind: NameKind,
    /// The number stored in the game.
    pub number: u16,
    /// The name, `None` when the number is beyond the names file (or there
    /// is no names file).
    pub name: Option<&'a str>,
}

impl NameRef<'_> {
    /// Whether the name is known.
    #[must_use]
    pub fn is_known(&self) -> bool {
        self.name.is_some()
    }
}

/// The one placeholder of a name that the names file does not hold (a
/// number past its end, or no names file): `<player 12>`,
/// `<tournament 3>`. What a [`NameRef`] displays, and what every front end
/// shows for an unknown name.
///
/// ```
/// use wthor_db::names::placeholder;
/// use wthor_db::wthor_format::NameKind;
/// assert_eq!(placeholder(NameKind::Players, 12), "<player 12>");
/// ```
#[must_use]
pub fn placeholder(kind: NameKind, number: u16) -> String {
    let what = match kind {
        NameKind::Players => "player",
        NameKind::Tournaments => "tournament",
    };
    format!("<{what} {number}>")
}

impl fmt::Display for NameRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name {
            Some(name) => f.pad(name),
            None => f.pad(&placeholder(self.kind, self.number)),
        }
    }
}

impl crate::Database {
    fn name_ref(&self, names: Option<usize>, kind: NameKind, number: u16) -> NameRef<'_> {
        NameRef {
            kind,
            number,
            name: names
                .and_then(|n| self.names(n))
                .and_then(|t| t.get(number)),
        }
    }

    /// Black's name in game `id` (a placeholder with the number when it is
    /// beyond the players file).
    ///
    /// # Panics
    /// When `id` names no game of this database.
    #[must_use]
    pub fn black(&self, id: crate::GameId) -> NameRef<'_> {
        let n = self.game(id).expect("a game of this database").black();
        self.name_ref(self.join(id.file()).players, NameKind::Players, n)
    }

    /// White's name in game `id`.
    ///
    /// # Panics
    /// When `id` names no game of this database.
    #[must_use]
    pub fn white(&self, id: crate::GameId) -> NameRef<'_> {
        let n = self.game(id).expect("a game of this database").white();
        self.name_ref(self.join(id.file()).players, NameKind::Players, n)
    }

    /// The tournament of game `id`.
    ///
    /// # Panics
    /// When `id` names no game of this database.
    #[must_use]
    pub fn tournament(&self, id: crate::GameId) -> NameRef<'_> {
        let n = self.game(id).expect("a game of this database").tournament();
        self.name_ref(self.join(id.file()).tournaments, NameKind::Tournaments, n)
    }
}
