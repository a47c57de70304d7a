//! The text that ends `--help`: examples and the exit status of the
//! commands whose arguments live elsewhere (the newer commands carry theirs
//! in their own `Args`). Every example runs from the root of a checkout
//! (the `testdata/` fixture database); `help_examples_run` in the tests
//! runs those that read only `testdata/`.

/// `wthor --help`.
pub(crate) const MAIN: &str = "\
Examples:
  wthor info testdata
  wthor validate testdata
  wthor show testdata/WTH_2001.wtb 3 --move 20 --png position.png
  wthor serve --db testdata
  wthor completions bash > ~/.local/share/bash-completion/completions/wthor

Exit status (every command): 0 ok, 1 findings (illegal games, mismatches, refused
installs; validate and puzzles report findings with 1 under --strict), 2 usage or I/O
error (a file that cannot be read, bad input refused), 130 a long run (validate --solve,
puzzles --verify, import) stopped by Ctrl-C or SIGTERM after saving its work.";

/// `wthor search --help`.
pub(crate) const SEARCH: &str = "\
Examples:
  wthor search --db testdata --player nakamura --year 2003 --limit 5
  wthor search --db testdata --opening f5d6c3 --result draw --count
  wthor search --db testdata --opening-name TORA --limit 5
  wthor search --db testdata --position-after f5f6e6f4 --format csv --limit 3
  WTHOR_DIR=testdata wthor search --black 'saio' --sort score --limit 5

--opening-name takes a name or alias of `wthor openings` (case and accents ignored) and
finds the games through that position, its sub-lines included; an unknown name finds no
game and the closest names (within a third of its length in edits) are suggested on
stderr, or it says that none is close. The table's OPENING column (and the
`opening` field of CSV and JSON Lines) is each game's deepest named position.

Exit status: 0 ok (no match is an empty result), 2 usage or I/O error (a malformed
transcript or OBF, an empty range, an unknown sort key).";

/// `wthor stats --help`.
pub(crate) const STATS: &str = "\
Examples:
  wthor stats --db testdata --position-after f5d6c3 --next
  wthor stats --db testdata --player nakamura --by-year
  wthor stats --db testdata --player nakamura --player saio --player-records
  wthor stats --db testdata --openings 4 --top 10 --format csv
  wthor stats --db testdata --opening-name tiger --next --position-after f5d6c3d3c4
  wthor stats --db ~/wthor --position-after f5d6c3d3c4f4f6f3e6e7 --next --index ~/w.idx
  wthor stats --accuracy --results analysed.jsonl --min-moves 5
  wthor stats --accuracy --results analysed.jsonl --db testdata --player nakamura --by-year

--solve scores every next move exactly when the position has 24 empties or fewer.
--accuracy reads the results logs of `wthor analyze` batches: each player's moves judged,
mean loss in discs and share of perfect moves, and the worst blunders.
The NAME column (`name` in CSV and JSON) gives the named opening an opening's moves reach
and the one each next move reaches (8x8; see `wthor openings`).

Exit status: 0 ok, 2 usage or I/O error (a malformed transcript or OBF, an empty range).";

/// `wthor ratings --help`.
pub(crate) const RATINGS: &str = "\
Examples:
  wthor ratings --db testdata
  wthor ratings --db testdata --year 2002 --top 5
  wthor ratings --db testdata --player nakamura --player saio
  wthor ratings --db testdata --human --year 2001..2003 --format csv
  wthor ratings --db testdata --similar-names
  wthor ratings --db testdata --evaluate 2003..2003
  wthor ratings --db ~/wthor --evaluate 2021..2025 --format jsonl

Whole-History Rating (Coulom 2008), one rating per player and year, fitted jointly on every
game the filters select (8x8; unknown players such as `???` or `Name ?` are not rated); the
first-move effect is fitted too. The scale is Elo's, the mean rated human at 1500; ± is one
standard deviation, and a rating above ±100 is provisional. Programs are rated on the same
scale and flagged. Games under one name are one player's; names probably one person's are
listed by --similar-names, never merged.

--evaluate walks forward tournament by tournament (file order): each game of the years given is
predicted from every game before its tournament, by WHR, Elo, Glicko-2 and black's mean score,
and the mean log-loss (draws as half points) of each is printed.

Exit status: 0 ok, 2 usage or I/O error (a player not rated, an empty range).";

/// `wthor history --help`.
pub(crate) const HISTORY: &str = "\
Examples:
  wthor history f5d6c3 --db testdata
  wthor history f5d6c3 --db testdata --by-move --format csv
  wthor history f5d6 --db testdata --human --format jsonl

The games reaching a position year by year, counted as the explorer counts (in any of the 8
orientations, by any order of moves; moves named in the orientation given): per year the
games and black's results, with --by-move per next move; the first and the latest game
reaching it and playing each move. The archive has no dates: \"first\" is the earliest year,
then file order (not known to be chronological within a year). In CSV every year of the
database's range is a row, years without games included. POSITION is a transcript from the
start or an OBF position (64 squares, or 100 for 10x10, then the side to move); the other
filters choose the games.

Exit status: 0 ok (a position no game reaches too), 2 usage or I/O error.";

/// `wthor novelties --help`.
pub(crate) const NOVELTIES: &str = "\
Examples:
  wthor novelties --db testdata --top 5
  wthor novelties --db testdata --summary
  wthor novelties --db testdata --year 2003 --format jsonl --top 3

A game's novelty is the first move after which its position (up to the 8 symmetries, by any
order of moves) had never been reached in an earlier year: the archive has no dates, so games
of one year are taken as simultaneous (\"same year\" says whether other games of its year
reached the new position too). \"before\" counts the games of earlier years that had reached
the position before the novelty, \"followed\" the games of later years that reached the new
one. A game that never leaves earlier years' positions ends inside known play; a game with
the positions of a game before it (a copy) has no novelty of its own. A game becomes unique
at the first move after which no other game reaches its position. Filters choose the games
listed; earlier years always count in full. 8x8 games only. `wthor show --novelty` says a
game's; `wthor search --format jsonl --novelty` adds a `novelty` object to each game.

The novelty move's value (for the side that played it, in discs) and loss (the position's
best value minus the move's; 0 for a best move): `wthor show --novelty` searches the
position before it (every legal move, exact at 20 empties or fewer, else 14 plies; the same
every time). Here there are too many games to search: \"value\" and \"loss\" come from the
results logs of `wthor analyze --results` given with --analysis (their exact losses; the
logs keep no values, so \"value\" stays empty), else they are empty (null in JSON Lines,
with \"exact\" and \"valueDepth\").

Exit status: 0 ok, 2 usage or I/O error.";

/// `wthor report --help`.
pub(crate) const REPORT: &str = "\
Examples:
  wthor report player nakamura --db testdata
  wthor report player saio --db testdata --as white --since 2002 --format json
  wthor report player nakamura --db testdata --as white --format html --analysis analysed.jsonl > r.html

A coach's preparation against a player, from their games with one colour (8x8): the lines they
chose, as a tree of f5-first move sequences (each game turned so that its first move is f5;
no transpositions) shown when at least 5% of their games follow them and followed while at
least 5 remain, with their score and the archive's score (all games through the line) in
each; where they most often play another move than the archive's most played one; their
results against opponents rated above and below them in the game's year (the whole
database's ratings, kept as `wthor ratings` keeps them). Each line links to the explorer of
`wthor serve` at that position with the player's filter (in HTML, at --server, by default
http://127.0.0.1:8080). With --analysis (the results logs of `wthor analyze --results`), the
player's worst endgame mistakes with that colour; games of another database (matched by
record key) are left out with a warning.

Exit status: 0 ok, 2 usage or I/O error (a player not rated, no game or only one with that
colour).";

/// `wthor serve --help`.
pub(crate) const SERVE: &str = "\
Examples:
  wthor serve --db testdata
  wthor serve --db ~/wthor --index ~/w.idx --open
  wthor serve --db ~/wthor --addr 127.0.0.1:0
  wthor serve --db testdata --analysis analysed.jsonl

Then open the URL it prints: the explorer (/explorer?play=f5d6), search (/search),
games (/game/2001:5), players (/player/NAME: rating history, opponents, endgame accuracy
with --analysis), ratings (/ratings?year=2003) and reports (/report/player/NAME?as=white);
the ratings are made once at the start (kept as `wthor ratings` keeps them); the JSON API is under /api/v1/
(docs/http-api.md). Only loopback addresses without --public. Ctrl-C stops.

Exit status: 0 stopped by Ctrl-C or SIGTERM, 2 usage or I/O error (no database,
an address that cannot be listened on).";

/// `wthor index --help`.
pub(crate) const INDEX: &str = "\
Examples:
  wthor index build --db testdata
  wthor index status --db testdata
  wthor index build --db ~/wthor -o ~/w.idx

An index is optional: search and stats use it when it is fresh and scan otherwise
(a stale or damaged one is reported on stderr and never used).

Exit status: 0 ok (status: the index is fresh), 1 status: stale, missing or damaged,
2 usage or I/O error.";

/// `wthor export --help`.
pub(crate) const EXPORT: &str = "\
Examples:
  wthor export --db testdata --format csv --player nakamura --limit 5
  wthor export --db testdata --year 2001 --format ggf -o games.ggf
  wthor export --db testdata --opening-name rose --format jsonl --limit 10
  wthor export --db testdata --format obf --year 2003 --limit 100 -o set.obf
  wthor export --db ~/wthor --format transcript -o ~/all.txt
  wthor export --db ~/wthor --year 2000.. -o games.parquet
  wthor export --db ~/wthor --format parquet --positions -o positions.parquet
  wthor export --db testdata --dedupe --format transcript -o unique.txt

Exit status: 0 ok, 1 games whose moves could not be written whole, 2 usage or I/O
error (nothing is written then).";

/// `wthor duplicates --help`.
pub(crate) const DUPLICATES: &str = "\
Examples:
  wthor duplicates --db testdata
  wthor duplicates --db testdata --year 2003 --format csv
  wthor duplicates --db ~/wthor --format jsonl > duplicates.jsonl

Games are copies when their moves are equal up to the 8 symmetries, within and across
files, each board size apart; only the games the filters select are compared. A later
copy is a double-entry when an earlier copy has the same black, white and year, else
other-players. SYM is the symmetry (0-7, as Python's) taking the first copy's moves to
the copy's; export --dedupe keeps the first copy of each.

Exit status: 0 ok (no duplicate is an empty report), 2 usage or I/O error.";

/// `wthor import --help`.
pub(crate) const IMPORT: &str = "\
Examples:
  wthor import testdata/WTH_2001.wtb --into mydb --depth 12 --dry-run
  wthor import logbook.gam egaroucid.txt --into ~/wthor --year 2024 --tournament Self-play
  wthor import PLAYOK_2023.wtb --into ~/wthor --threads 2 --cache solve.cache

Ctrl-C (or SIGTERM) while solving: the games being solved are finished, the cache is
saved, nothing is written; the same command resumes from the cache.

A damaged WTHOR input (cut inside a record, a header count above its records) is
imported up to its last whole record with a warning, and refused with --strict; a
player or tournament number that no names file read with it names is imported as
\"?\" with a warning.

Exit status: 0 ok, 1 games rejected (illegal or unreadable; nothing is written
unless --skip-illegal) or a damaged input with --strict (nothing is written),
2 usage or I/O error, 130 stopped by Ctrl-C or SIGTERM.";

/// `wthor results --help`.
pub(crate) const RESULTS: &str = "\
Examples:
  wthor results summary shard-*.jsonl
  wthor results summary --mismatches --format csv shard-*.jsonl
  wthor results merge shard-*.jsonl -o all.jsonl

Exit status: 0 ok (the report lists mismatches, it does not fail on them), 1 conflicting
lines (one game with two outcomes), 2 usage or I/O error (a file that is not a results log).
See docs/distributed-audit.md for a sharded audit on GNU parallel or Slurm.";

/// `wthor cache --help`.
pub(crate) const CACHE: &str = "\
Examples:
  wthor cache merge shard-*.bin -o all.bin

Exit status: 0 ok, 2 usage or I/O error (a file that is not a solve cache is
refused; nothing is written then).";

/// `wthor info --help`.
pub(crate) const INFO: &str = "\
Examples:
  wthor info testdata
  wthor info --json testdata/WTH_2001.wtb
  wthor info --encoding iso-8859-2 testdata/WTHOR.JOU

Exit status: 0 ok, 1 with --strict a warning, 2 usage or I/O error (a file that
cannot be read or is not a WTHOR file; the others are still shown).";

/// `wthor convert --help`.
pub(crate) const CONVERT: &str = "\
Examples:
  wthor convert testdata/WTH_2001.wtb -o copy.wtb
  wthor convert --strict testdata/WTHOR.JOU -o players.jou
  wthor convert testdata/WTHOR.JOU -o players.csv
  wthor convert testdata/WTHOR.TRN -o tournaments.jsonl

Exit status: 0 ok, 2 usage or I/O error (nothing is written then).";

/// `wthor validate --help`.
pub(crate) const VALIDATE: &str = "\
Examples:
  wthor validate testdata
  wthor validate --by-file --json testdata
  wthor validate --solve testdata
  wthor validate --solve --sample 100 --results results.jsonl path/to/wthor

Ctrl-C (or SIGTERM) during --solve: the games being solved are finished and logged,
the cache is saved, the report covers the games checked; the same command resumes.

Exit status: 0 every file read, whatever was found; 1 with --strict a finding or
warning; 2 usage or I/O error (a file that cannot be read); 130 stopped by Ctrl-C or
SIGTERM (its work saved).";

/// `wthor perft --help`.
pub(crate) const PERFT: &str = "\
Examples:
  wthor perft --depth 9
  wthor perft --size 10 --depth 6 --threads 2

Exit status: 0 ok, 2 usage error.";

/// `wthor openings --help`.
pub(crate) const OPENINGS: &str = "\
Examples:
  wthor openings --db testdata
  wthor openings --db ~/wthor --strict

Without --db, the table: names, moves, aliases. A game reaches a named opening when it passes through its position, in any
orientation and by any order of moves; a game counts for every named
position it passes through (the Tiger's games include the Brightwell's):
the games `wthor search --opening-name NAME` finds. Sources of the names:
docs/openings.md.

Exit status: 0 ok, 2 usage or I/O error.";

/// `wthor replay --help`.
pub(crate) const REPLAY: &str = "\
Examples:
  wthor replay testdata/WTH_2001.wtb 2
  wthor replay --moves f5d6c3d3c4 --final-only
  wthor replay --size 10 --moves e4d4

Exit status: 0 ok, 1 an illegal move, 2 usage or I/O error.";

/// `wthor solve --help`.
pub(crate) const SOLVE: &str = "\
Examples:
  wthor solve --game testdata/WTH_2001.wtb 3 --empties 16
  wthor solve --game testdata/WTH_2001.wtb 3 --move 44 --json
  wthor solve --file positions.obf --wld
  wthor solve --game testdata/WTH_2001.wtb 3 --move 20 --all-moves --depth 10

Exit status: 0 ok, 2 usage or I/O error (a bad position, a game too short, --wld
past 30 empties without --exact), 130 stopped by Ctrl-C or SIGTERM (the best found
so far is printed, marked interrupted).";

/// `wthor puzzles --help`.
pub(crate) const PUZZLES: &str = "\
Examples:
  wthor puzzles testdata/Solitaires_12.pzz
  wthor puzzles --verify testdata/Solitaires_12.pzz testdata/Solitaires_13.pzz

Exit status: 0 every file read; 1 with --strict a puzzle has a problem; 2 usage or
I/O error (a file that cannot be read or is not a solitaire file); 130 --verify
stopped by Ctrl-C or SIGTERM (the puzzles verified are in --results).";

/// `wthor completions --help`.
pub(crate) const COMPLETIONS: &str = "\
Examples:
  wthor completions bash > ~/.local/share/bash-completion/completions/wthor
  wthor completions zsh > ~/.zfunc/_wthor
  wthor completions fish > ~/.config/fish/completions/wthor.fish
  wthor completions powershell >> $PROFILE

Exit status: 0 ok, 2 usage error.";
