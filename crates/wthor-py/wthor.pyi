"""The WTHOR Othello game archive from Python.

A thin layer over the Rust crates of the wthor project: the archive's files
read exactly (names decoded as Windows-1252, passes inserted by the rules),
every position as NumPy arrays built in Rust, boards with their 8 symmetries,
and an exact 8x8 endgame solver. The GIL is released during scans and solves.

Squares are numbered ``side * row + column`` from 0 (a1 = 0, h1 = 7, a2 = 8,
h8 = 63 on 8x8); a bit set (bitboard) has bit ``i`` for square ``i``.
"""

from __future__ import annotations

import datetime
import os
from typing import Dict, Iterator, List, Literal, Optional, Sequence, Tuple, TypedDict, Union, overload

from typing_extensions import Unpack

import numpy as np
import numpy.typing as npt

__version__: str

PASS: int
"""The ``move`` of a pass in ``positions()`` columns (64)."""

NO_SCORE: int
"""The ``theoretical`` of a position earlier than the file's depth (-128)."""

StrPath = Union[str, "os.PathLike[str]"]

class WthorError(ValueError):
    """The base of the errors of ``wthor``: bad files, bad notation, illegal moves."""

class FormatError(WthorError):
    """A file that is no readable WTHOR file.

    The message names the file, the byte offset and the record; so do the
    attributes (for errors raised while opening a database).
    """

    path: str
    offset: int
    record: Optional[int]

class NotationError(WthorError):
    """A position (OBF), transcript, square or game identity that cannot be read."""

class IllegalMoveError(WthorError):
    """A move that is not legal on the board it is played on."""

class Filters(TypedDict, total=False):
    """The keyword filters of ``Database.search``, ``count``, ``export``,
    ``positions`` and ``stats``: those of ``wthor search``, with the same
    meanings (``db.search(player="tastet", years=(2000, None))`` is ``wthor
    search --player tastet --year 2000..``). A filter given as None is
    left out.

    - ``player``: games where a player whose name contains it plays
      either colour; a pair ``(a, b)``: games between the two (either
      colours). ``black``, ``white``: that player has that colour.
      Names (and ``tournament``) match as substrings, case- and
      accent-insensitively (``"helene"`` finds ``Hélène``);
      ``exact=True``: whole names.
    - ``program=True``: games with a program (a name with its author in
      parentheses, ``Edax (delorme)``); ``human=True``: games between
      humans.
    - ``tournament``: games of tournaments whose name contains it.
    - ``years``: ``(a, b)`` inclusive, either end None for open
      (``(2020, None)``), or one year; the year of the game's file.
    - ``result``: ``"black"``, ``"white"`` or ``"draw"``, from the
      stored score.
    - ``black_discs``, ``theoretical``: black's stored discs, or the
      stored theoretical score, in ``(a, b)`` inclusive.
    - ``min_rating``: 8x8 games whose two players were both rated at
      least this (1 to 3000) in the game's year (the ratings of
      :meth:`Database.ratings`).
    - ``opening``: games starting with these moves (a transcript,
      ``"f5d6c3"``), under any of the 8 symmetries unless
      ``as_played=True``.
    - ``opening_name``: games through the named opening of this name or
      alias (the table of ``wthor openings``; case- and
      accent-insensitive), its sub-lines included (8x8 games); a name
      that names no opening finds no game, with a ``UserWarning`` naming
      the closest names.
    - ``position`` (OBF text or a ``Board``), ``position_after`` (a
      transcript from the start): games that reach this position, same
      side to move, in any of its 8 orientations.
    - ``size``: 8 or 10, the board of ``opening`` and
      ``position_after`` (10 selects the 10x10 games; default 8).
    - ``sort``: ascending by ``"year"``, ``"black"``, ``"white"``,
      ``"tournament"`` (names), ``"score"`` (black's discs) or
      ``"rating"`` (the mean of both players' ratings in the game's year;
      a game with an unrated player, a 10x10 game for one, sorts lowest),
      ties in database order; ``limit``: at most that many games, after
      sorting.

    Bad filters raise ``NotationError`` for a bad OBF or transcript (its
    message names the keyword and the character), ``IllegalMoveError``
    for an unplayable move in ``opening`` / ``position_after``,
    ``WthorError`` for a query that cannot run (an empty range such as
    ``years=(2003, 2001)``, more than two players, an unknown sort key),
    ``ValueError`` for a value out of its set (``result``, ``size``) or
    filters that exclude each other (``program`` and ``human``,
    ``position`` and ``position_after``, ``as_played`` without
    ``opening``), ``TypeError`` for an unknown keyword or a value of the
    wrong type.
    """

    player: Union[str, Tuple[str, str], Sequence[str], None]
    black: Optional[str]
    white: Optional[str]
    exact: bool
    program: bool
    human: bool
    tournament: Optional[str]
    years: Union[int, Tuple[Optional[int], Optional[int]], None]
    result: Optional[Literal["black", "white", "draw"]]
    black_discs: Optional[Tuple[Optional[int], Optional[int]]]
    theoretical: Optional[Tuple[Optional[int], Optional[int]]]
    opening: Optional[str]
    as_played: bool
    opening_name: Optional[str]
    position: Union[str, Board, None]
    position_after: Optional[str]
    size: int
    sort: Optional[Literal["year", "black", "white", "tournament", "score", "rating"]]
    limit: Optional[int]
    min_rating: Optional[int]

class Database:
    """A WTHOR database: game files (``.wtb`` 8x8, ``.wtd`` 10x10) and the
    names files (``.JOU`` players, ``.TRN`` tournaments) of their release.

    ``Database("path/to/wthor")`` opens the WTHOR files of a directory (not
    descending into subdirectories), memory-mapped; a list opens those files
    and directories (a file listed twice is opened once). Each game file is
    read with the names files of its release opened with it, in its
    directory: the newest (by header date, then size) ``.JOU`` and ``.TRN``
    of its family (``PLAYOK.JOU`` for ``PLAYOK_2023.wtb``), else ``WTH`` /
    ``WTHOR``; ``players=`` and ``tournaments=`` name the files to use for
    every game file instead (as ``wthor search --players/--tournaments``).
    A game file listed without names files has no names (``None``), as with
    ``wthor search --db FILE``.

    A file cut inside a record, or whose header announces more records
    than it holds, gives its whole records and a ``UserWarning``; a
    damaged file (one that is no WTHOR file) is left out with a
    ``UserWarning`` and the others answer (as ``wthor search`` warns on
    stderr: the library's one rule for front ends). ``strict=True``
    refuses both (``wthor search --strict``).

    Queries with a position filter (``search``, ``count``, ``stats``) use
    the position index ``wthor index build`` writes (``wthor.idx`` in the
    directory) when it is fresh, as ``wthor search`` does: ``index=PATH``
    names another, ``index=False`` never uses one. The index is opened and
    checked fresh once per ``Database``, at its first query with a position
    filter (not at each query). An index that cannot be used (stale,
    damaged, or missing at a path given) is a ``UserWarning``; the answer
    is the same, by a scan.

    Raises ``FileNotFoundError`` (or another ``OSError``) for a path that
    cannot be read, ``FormatError`` for a file that is no WTHOR file (with
    ``strict=True``, or when no game file is left),
    ``WthorError`` for a ``players=`` / ``tournaments=`` file of another
    kind.
    """

    def __init__(
        self,
        path_or_paths: Union[StrPath, Sequence[StrPath]],
        *,
        players: Optional[StrPath] = None,
        tournaments: Optional[StrPath] = None,
        index: Union[StrPath, bool, None] = None,
        strict: bool = False,
    ) -> None: ...
    def __len__(self) -> int:
        """The number of games, 8x8 and 10x10."""
    def __iter__(self) -> Iterator[Game]:
        """The games in file order (files sorted by path)."""
    def __getitem__(self, key: Union[int, str]) -> Game:
        """A game by its index in the database (negative from the end;
        ``IndexError`` when out of range) or its identity: ``"YEAR:INDEX"``
        (game INDEX, from 0, of the yearly 8x8 file ``WTH_YYYY.wtb``) or
        ``"FILE:INDEX"`` (any other file by its name, any case:
        ``"WTH_2001.wtd:3"``, ``"PLAYOK_2023.wtb:0"``). ``KeyError`` when no
        game has it, ``NotationError`` when the text is no identity."""
    @property
    def paths(self) -> List[str]:
        """The paths of every file opened, in order."""
    def search(
        self,
        **filters: Unpack[Filters],
    ) -> List[Game]:
        """The games matching every filter given (see ``Filters``), as
        ``Game`` objects, in database order unless ``sort``-ed. Scanned in
        parallel in Rust, the GIL released. Raises as ``Filters`` says.
        """
    def export(
        self,
        path: StrPath,
        format: Optional[Literal["csv", "jsonl", "ggf", "transcript", "txt", "obf", "parquet"]] = None,
        *,
        positions: bool = False,
        empties: Optional[int] = None,
        **filters: Unpack[Filters],
    ) -> Dict[str, int]:
        """Writes the games ``search`` with the same filters finds (all by
        default, in its order) to ``path``: ``format``, else the extension
        of ``path`` (``.csv .jsonl .ggf .txt .obf .parquet``). Parquet is
        the games table (typed columns: those of ``games_table()`` plus
        ``number``, ``transcript`` and ``squares``) or, with
        ``positions=True``, the table of positions (the columns of
        ``positions()``), for pyarrow, Polars, DuckDB or pandas. The bytes
        ``wthor export -o PATH`` writes for the same filters (the same
        library writes them), written whole or not at all (a temporary
        file renamed over ``path``). ``empties``: OBF positions at that
        many empty squares (default each file's depth). Returns
        ``{"written", "bad_moves", "short"}``: games (positions) written,
        games written up to a move that is no square or illegal (skipped
        in OBF), OBF games ending before the position (skipped). Raises
        ``ValueError`` for an unknown format, ``positions=True`` in a text
        format, or ``empties`` beyond every
        game, ``OSError`` when the file cannot be written, and as
        ``search`` for the filters."""
    def import_games(
        self,
        inputs: Union[StrPath, Sequence[StrPath]],
        *,
        year: Optional[int] = None,
        tournament: Optional[str] = None,
        depth: int = 24,
        skip_illegal: bool = False,
        dry_run: bool = False,
        keep_duplicates: bool = False,
        threads: Optional[int] = None,
        cache: Optional[StrPath] = None,
        limit: Optional[int] = None,
        players: Optional[StrPath] = None,
        tournaments: Optional[StrPath] = None,
        encoding: Optional[str] = None,
        date: Union[str, "datetime.date", None] = None,
    ) -> Dict[str, object]:
        """Adds the games of ``inputs`` (transcripts, GGF, CSV, JSON Lines,
        WTHOR game files) to this database's directory, as ``wthor import
        INPUTS --into DIR`` does with the same options: the same library
        steps, the same bytes written. Every game is replayed and turned to
        start with f5; names get the numbers they have or the next ones;
        games go to ``WTH_<year>.wtb`` (``year``, else the game's, else
        that of ``date``), appended or new (new files at ``depth`` empties);
        a game the directory already holds is left out unless
        ``keep_duplicates``. The theoretical scores are solved without the
        GIL on ``threads`` workers (default all cores), through the solve
        cache ``cache`` when given (loaded first, saved at the end); each
        file is written atomically with the creation date ``date``
        (``"YYYY-MM-DD"`` or a ``datetime.date``; default today, UTC).
        Ctrl-C is seen once the solving is over (nothing stops it midway,
        unlike ``wthor import``'s).

        A rejected game (a line that is no game, an illegal move) writes
        nothing unless ``skip_illegal``; ``dry_run`` plans and writes
        nothing. ``limit``: at most this many games of each input;
        ``players``, ``tournaments``: the names files of WTHOR inputs
        (default those beside them); ``encoding``: a WHATWG label for the
        names files, inputs and directory (default windows-1252).

        Returns ``{"read", "imported", "rejected", "notes", "duplicates",
        "files", "players", "tournaments", "created", "written"}``: games
        read, games imported (or that would be), the rejected games and
        the notes (odd records) and the duplicates left out as
        ``"SOURCE: why"`` strings (the lines ``wthor import`` prints),
        the yearly files (dicts ``{"path", "year", "existed", "before",
        "added", "depth"}``), the names files (``{"path", "existed",
        "before", "added"}``, the names added; None when nothing was
        planned), the creation date, and whether files were written. Once
        written, this ``Database`` is opened again in place and holds the
        new games.

        Raises ``ValueError`` when the database was opened over several
        paths or a single file (it adds to one directory), for a bad
        ``depth`` (1 to 60), ``threads``, ``encoding`` or ``date``; as
        ``read_games`` for an input that cannot be read; ``OSError`` when
        a file cannot be read or written; ``FormatError`` for a file of
        the directory that cannot be parsed."""
    def count(
        self,
        **filters: Unpack[Filters],
    ) -> int:
        """The number of games ``search`` with the same filters finds
        (``wthor search --count``), counted in parallel without building
        the games; ``limit`` caps it. Raises as ``search``."""
    def positions(
        self,
        games: Optional[Sequence[Union[int, str, Game]]] = None,
        augment: bool = False,
        dedupe: bool = False,
        unique: bool = False,
        **filters: Unpack[Filters],
    ) -> Dict[str, npt.NDArray[np.generic]]:
        """Every position of the 8x8 games, one pass in Rust, as a dict of
        equal-length NumPy arrays (10x10 games are left out: their boards
        need 100 bits).

        Which games: every one by default; ``games`` gives them (in that
        order) as numbers (``Game.number``, rows of ``games_table()``, e.g.
        ``np.flatnonzero(table["year"] >= 2000)``; ``IndexError`` out of
        range), identities (``"2001:5"``; ``KeyError`` when unknown) or
        ``Game`` objects (by their ``id``), e.g. a ``search`` result; or the
        keyword filters of ``search`` select them (in ``search``'s order),
        so that ``db.positions(player="tastet", years=(2000, None))`` is the
        training set of a query. A position filter selects games: all the
        positions of those games are given. ``games`` and filters together
        raise ``ValueError``; bad filters raise as in ``search``.

        One row per position from which a move or a pass is made: the
        start, each position after a move, and the positions where a side
        passes (inserted by the rules; WTHOR stores no passes). The final
        position of a game is not a row; a game with an illegal move stops
        before it.

        Columns:

        - ``player`` (uint64): the discs of the side to move;
        - ``opponent`` (uint64): the discs of the other side;
        - ``side`` (uint8): the side to move, 0 black, 1 white;
        - ``ply`` (uint8): moves and passes made before (0 at the start);
        - ``move`` (uint8): the square played from the position, or ``PASS`` (64);
        - ``final`` (int8): the game's final disc difference from the side
          to move's view, from the record's real score (``2 * black - 64``,
          negated when white is to move);
        - ``theoretical`` (int8): the record's theoretical score (perfect
          play from the position with the file's depth of empties) as a disc
          difference from the side to move's view, on positions with at most
          that many empties, else ``NO_SCORE`` (-128). After the depth it is
          still the game's theoretical score, which the exact value of such a
          position can differ from when a player erred;
        - ``game`` (uint32): the game's index in the database (its row in
          ``games_table()``, ``db[game]``).

        ``augment=True`` returns 8 times the rows: 8 blocks of ``n`` rows,
        block ``k`` the image of every position under symmetry ``k`` (block 0
        is ``positions()`` itself), with a ``symmetry`` column (uint8, 0-7).
        Symmetry ``k`` transposes the board (swaps rows and columns) when
        ``k & 4``, then reverses the columns (a <-> h) when ``k & 1``, then
        the rows (1 <-> 8) when ``k & 2``; discs and the move are mapped, the
        other columns copied.

        ``dedupe=True`` first leaves out the later copies of games whose
        moves are equal up to the 8 symmetries (``wthor duplicates``, among
        the games chosen; the first copy in database order is kept, whoever
        played the others).

        ``unique=True`` gives one row per position up to the 8 symmetries
        (same discs in some orientation, same side to move), in the order
        of its first occurrence, with the columns:

        - ``player``, ``opponent`` (uint64): the discs in **canonical
          orientation**, the image with the smallest ``(player, opponent)``
          pair (not the orientation played);
        - ``side`` (uint8): the side to move, 0 black, 1 white;
        - ``count`` (uint32): the rows of ``positions()`` merged into it;
        - ``final`` (float64): the mean of their ``final``;
        - ``theoretical`` (float64): the mean of their ``theoretical`` where
          known (not ``NO_SCORE``), NaN when none is;
        - ``theoretical_count`` (uint32): how many were known.

        ``augment=True`` with ``unique=True`` raises ``ValueError``.
        """
    def split(
        self,
        test: Union[int, float, Tuple[Optional[int], Optional[int]]],
        by: Literal["year", "game"] = "year",
        seed: int = 0,
        games: Optional[Sequence[Union[int, str, Game]]] = None,
        dedupe: bool = False,
        **filters: Unpack[Filters],
    ) -> Tuple[Dict[str, npt.NDArray[np.generic]], Dict[str, npt.NDArray[np.generic]]]:
        """``(train, test)``: the positions of the 8x8 games (the columns
        of ``positions()``, as played) split into two sets that share no
        position in any orientation.

        ``by="year"``: the test games are those of the years ``test`` (one
        int, or a pair ``(a, b)``, either end None), e.g.
        ``db.split((2024, 2025))``; ``by="game"``: a share ``test`` (a float
        from 0 to 1) of the games, chosen by a hash of the game's identity
        (``"2001:5"``) and ``seed``, the same for the same files and seed.

        The rule: every position of a test game whose discs, in some
        orientation, and side to move are those of a position of the train
        set is removed from the test set (the start position always is);
        the train set is kept whole. ``games``, ``dedupe`` and the keyword
        filters choose the games as in ``positions()``. A bad ``by`` or
        share raises ``ValueError``.
        """
    def stats(
        self,
        *,
        next_moves: Optional[bool] = None,
        solve: bool = False,
        player_records: bool = False,
        by_year: bool = False,
        openings: int = 0,
        top: Optional[int] = None,
        **filters: Unpack[Filters],
    ) -> Dict[str, object]:
        """Statistics of the games ``search`` with the same filters finds
        (``wthor stats``, computed in parallel in Rust, the GIL released),
        as a dict whose rows have the keys of ``wthor stats --format
        jsonl``:

        - ``totals``: ``games``, ``black_wins``, ``draws``,
          ``black_losses``, ``mean_black_discs``, ``mean_black_theoretical``
          (black's mean theoretical score, discs after perfect play from
          each file's depth) and ``median_black_discs`` (None without
          games);
        - ``next_moves`` (given when ``position`` or ``position_after``
          is, as ``wthor stats`` does, or with ``next_moves=True`` or
          ``solve=True``; ``next_moves=False`` hides it; else None): the
          moves played from the ``position`` /
          ``position_after`` filter (the start without one), named in the
          orientation the position was given in, moves that a symmetry of
          the position makes equivalent counted as one (from the start,
          ``f5``): ``position`` (OBF), ``reached`` (games that reach it in
          any orientation), ``ended`` (games that stop there), ``solved``
          (None when not asked, True, or why not: over 24 empties, 10x10,
          a pass), ``moves``: a list, most played first, of ``move``,
          ``games``, ``black_wins``, ``draws``, ``black_losses``,
          ``mean_black_discs``, ``mean_black_theoretical``, ``share`` (of
          the games that went on),
          ``exact`` (with ``solve=True``: the disc difference for the side
          to move after that move under perfect play, legal moves never
          played included; else None), ``name`` (the named opening whose
          position the move reaches, else None);
        - ``players`` (with ``player_records=True`` or ``by_year=True``):
          one dict per player, most games first: ``player`` (the name, or
          ``<player N>``), ``known``, ``games``, ``wins``, ``draws``,
          ``losses``, ``score_percent``, ``mean_disc_difference``,
          ``first_year``, ``last_year``, and with ``by_year=True`` a
          ``by_year`` list of the same per ``year``. When ``player`` is
          given, only the records of the players it names (with two: their
          head-to-head);
        - ``openings`` (with ``openings=N``): the most frequent openings of
          N moves in canonical orientation (starting ``f5``): ``opening``
          (a transcript), ``games``, ``black_wins``, ``draws``,
          ``black_losses``, ``mean_black_discs``,
          ``mean_black_theoretical``, ``share`` (of the games with at
          least N moves), ``name`` (the named opening of those
          moves, the deepest named position they pass through, else None);
          ``openings_shorter``: the games with fewer.

        ``top`` keeps the first rows of ``players`` and ``openings`` (all by
        default; the CLI's ``--top`` defaults to 20). Raises as ``search``.
        """
    def analyze(
        self,
        games: Optional[Sequence[Union[int, str, Game]]] = None,
        empties: int = 20,
        *,
        estimate_depth: Optional[int] = None,
        time_ms: Optional[int] = None,
        **filters: Unpack[Filters],
    ) -> Dict[str, npt.NDArray[np.generic]]:
        """Every move of many 8x8 games judged (``wthor analyze``'s batch),
        in parallel in Rust, the GIL released: exact from ``empties`` empty
        squares (each more doubles the time; about 0.1 s a game at 20), the
        midgame search's estimate before: at ``estimate_depth`` plies (2 to
        20; None: 18, about a second a game; the same values on any
        machine), or each search given ``time_ms`` milliseconds instead
        (up to two searches per estimated move; not repeatable: the depth reached
        depends on the machine and its load).

        Which games: ``games`` (numbers, identities or ``Game``), or those
        of the keyword filters (as ``search``; their 8x8 games), or every
        8x8 game. 10x10 games named in ``games`` and illegal records are
        left out with a ``UserWarning``;
        options out of range raise ``ValueError``.

        One row per move played (passes are not moves), in game order, as
        equal-length arrays: ``game`` (uint32, ``Game.number``), ``index``
        (uint16, the move's index in the record, from 0), ``square`` (uint8,
        a1 = 0, as ``Game.squares``), ``black`` (bool, black played it),
        ``empties`` (uint8, empty squares before it), ``exact`` (bool: False
        marks an estimate), ``depth`` (uint8, the plies of the search that
        estimated the value, 0 when exact), ``value`` (int16, the position's value before
        the move, black's disc difference under perfect play with empty
        squares to the winner: the game's graph), ``played`` (int16, the
        value after the move played, black's view), ``loss`` (int16, the
        discs the mover threw away: 0 for a best move, never negative).
        """
    def accuracy(
        self,
        results: Union[StrPath, Sequence[StrPath]],
        *,
        min_moves: int = 0,
        by_year: bool = False,
        worst: int = 3,
        **filters: Unpack[Filters],
    ) -> List[Dict[str, object]]:
        """Endgame accuracy per player (``wthor stats --accuracy``) from
        the results logs of ``wthor analyze --results`` (shards may be
        given together): the logged games of this database that the
        keyword filters select (all of them without filters), a row per
        player (per player and year with ``by_year``) having at least
        ``min_moves`` moves judged exactly, sorted by mean loss; only the
        rows of the ``player`` filters when given. Keys: ``player``,
        ``year`` (with ``by_year``), ``games``, ``moves``, ``total_loss``,
        ``perfect``, ``mean_loss``, ``perfect_share``, ``worst`` (a list of
        ``game``, ``number``, ``square``, ``loss``, largest first, at most
        ``worst``). A damaged line of a log is a ``UserWarning`` (the rest
        is kept); an unreadable log raises ``OSError``.
        """
    @overload
    def games_table(self, to: None = None) -> Dict[str, Union[npt.NDArray[np.generic], List[Optional[str]]]]: ...
    @overload
    def games_table(self, to: Literal["dict"]) -> Dict[str, Union[npt.NDArray[np.generic], List[Optional[str]]]]: ...
    @overload
    def games_table(self, to: Literal["pandas", "pyarrow"]) -> object: ...
    def games_table(self, to: Optional[str] = None) -> object:
        """One row per game, in database order, as columns: ``id`` (str,
        ``"YEAR:INDEX"`` or ``"FILE:INDEX"``), ``file`` (str), ``index`` (uint32, in the file),
        ``year`` (uint16), ``size`` (uint8, 8 or 10), ``depth`` (uint8),
        ``tournament``, ``black``, ``white`` (str or None when the number is
        beyond the names file), ``tournament_number``, ``black_number``,
        ``white_number`` (uint16), ``real_score``, ``theoretical_score``
        (uint8, black's discs as recorded), ``moves`` (uint8, recorded moves).

        ``to=None`` gives the dict (NumPy arrays, lists of str for text);
        ``to="pandas"`` a ``pandas.DataFrame``, ``to="pyarrow"`` a
        ``pyarrow.Table`` (``ImportError`` when that package is missing;
        neither is required otherwise).
        """
    def novelties(self, *, to: Optional[str] = None, **filters: Unpack[Filters]) -> object:
        """Where each 8x8 game the filters choose left known play and became
        unique (as ``wthor novelties``), one row per game in database order,
        as columns: ``game`` (str), ``year`` (uint16), ``kind`` (str:
        ``"novelty"``, ``"known"`` for a game inside known play, ``"copy"``
        for the positions of a game before it, ``"first-year"`` for the
        database's first year), ``move`` (uint8, the move after which the
        position had never been reached in an earlier year; 0 without a
        novelty), ``before`` (uint64, the games of earlier years that had
        reached the position before it), ``same_year`` (bool: other games of
        its year reached the new position), ``followed`` (uint64, the games
        of later years that did), ``unique_from`` (uint8, the move after
        which no other game reaches its position; 0 never). Earlier years
        count in full whatever the filters. ``to`` as for
        :meth:`games_table`.
        """
    def history(
        self,
        position: Union[str, Board],
        *,
        to: Optional[str] = None,
        **filters: Unpack[Filters],
    ) -> object:
        """The history of a position (as ``wthor history``): one row per
        year of the database's range, years without games included, as
        columns ``year`` (uint16), ``games``, ``black_wins``, ``draws``,
        ``black_losses`` (uint64): the games reaching the position in any
        of its 8 orientations and by any order of moves. ``position`` is a
        transcript from the start, an OBF position or a :class:`Board`;
        the keyword filters choose the games; ``to`` as for
        :meth:`games_table`.
        """
    def ratings(
        self,
        year: Optional[int] = None,
        *,
        to: Optional[str] = None,
        ratings: Optional[Union[str, os.PathLike[str]]] = None,
    ) -> object:
        """Every rated player's rating per year (Whole-History Rating over
        the 8x8 games, as ``wthor ratings``), one row per player and year
        played, or the players of ``year`` only, as columns: ``name`` (str),
        ``program`` (bool), ``year`` (uint16), ``rating`` and ``sd``
        (float64, Elo points, the mean rated human at 1500), ``games``
        (uint32), ``points`` (float64, a draw half a point),
        ``provisional`` (bool: ``sd`` above 100), ``rank`` (uint32, among
        the year's ratings that are not provisional, from 1; 0 for a
        provisional one).

        The ratings are fitted once per database content and kept in the
        user's cache directory, or in the file ``ratings``; a file that
        cannot be used or written is a ``UserWarning``. ``to`` as for
        :meth:`games_table`.
        """

class Game:
    """One game of a database, with its names joined. Immutable and
    hashable; games are equal when their identity, names and record are."""

    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

    @property
    def id(self) -> str:
        """Its identity, ``"YEAR:INDEX"`` in a yearly 8x8 file (``"2025:0"``),
        else ``"FILE:INDEX"`` (``"WTH_2001.wtd:3"``); ``db[game.id]`` gives it
        back."""
    @property
    def file(self) -> str:
        """The name of its file (``WTH_2025.wtb``)."""
    @property
    def index(self) -> int:
        """Its index in its file, from 0."""
    @property
    def number(self) -> int:
        """Its index in the database (its row in ``games_table()``)."""
    @property
    def year(self) -> int:
        """The year of its file's header."""
    @property
    def size(self) -> int:
        """8 or 10."""
    @property
    def depth(self) -> int:
        """The number of empties at which the theoretical score was computed."""
    @property
    def tournament(self) -> Optional[str]:
        """The tournament's name (None when the number is beyond the names file)."""
    @property
    def black(self) -> Optional[str]:
        """The black player's name."""
    @property
    def white(self) -> Optional[str]:
        """The white player's name."""
    @property
    def tournament_number(self) -> int: ...
    @property
    def black_number(self) -> int: ...
    @property
    def white_number(self) -> int: ...
    @property
    def real_score(self) -> int:
        """Black's discs at the end as recorded (empties go to the winner)."""
    @property
    def theoretical_score(self) -> int:
        """Black's discs after perfect play from ``depth`` empties, as recorded."""
    @property
    def moves(self) -> List[str]:
        """The recorded moves as square names (``"f5"``); no passes. Raises
        ``FormatError`` for a move byte that is no square."""
    @property
    def squares(self) -> List[int]:
        """The recorded moves as square indices."""
    @property
    def transcript(self) -> str:
        """The recorded moves as one transcript, ``"f5d6c3..."``."""
    @property
    def opening(self) -> Optional[str]:
        """The game's named opening: the deepest named position it passes
        through, in any orientation and order of moves (``"Tiger"``, as
        ``wthor search`` shows it); None when none, and on 10x10."""
    @property
    def black_rating(self) -> Optional[float]:
        """Black's rating of the game's year by the whole-history fit of the
        database the game was read from (``blackRating`` of ``wthor search
        --format csv|jsonl``, to a tenth; ``Database.ratings()``'s fit):
        None when unrated (``???``, 10x10) or not read from a Database."""
    @property
    def white_rating(self) -> Optional[float]:
        """White's rating of the game's year, as ``black_rating``."""
    def positions(self) -> Dict[str, npt.NDArray[np.generic]]:
        """This game's rows of ``Database.positions()`` (8x8 games; a 10x10
        game raises ``ValueError``)."""
    def novelty(self) -> Optional[Dict[str, object]]:
        """Where the game left known play (``wthor show --novelty``): its row
        of :meth:`Database.novelties` (found by one pass over the database it
        was read from, the GIL released) as a dict: ``game``, ``year``,
        ``kind`` (``"novelty"``, ``"known"``, ``"copy"``, ``"first-year"``),
        ``move`` (the first move after which no game of an earlier year had
        reached its position, 8 symmetries and any move order), ``square``
        (that move), ``before`` (the games of earlier years that had reached
        the position before it), ``same_year`` (other games of its year
        reached the new one) — these four None without a novelty —,
        ``followed`` (the games of later years that did) and ``unique_from``
        (the move after which no other game reaches its position; None
        never); for a novelty, the move's ``value`` for the side that played
        it (discs), ``loss`` (the best value of the position before it minus
        the move's: 0 for a best move), ``exact`` and ``value_depth`` (the
        plies of an estimate, None when exact), from one multi-PV search of
        that position (exact at 20 empties or fewer, else 14 plies; the same
        every time, ``wthor show --novelty``'s; None without a novelty).
        None for a 10x10 game; ``ValueError`` when its database changed
        since it was read."""
    def analyze(
        self, empties: int = 20, *, estimate_depth: Optional[int] = None, time_ms: Optional[int] = None
    ) -> Dict[str, object]:
        """Every move judged (``wthor analyze``): the arrays of
        ``Database.analyze`` for this game (the estimates by the midgame
        search at ``estimate_depth`` plies, 18 when None, or ``time_ms`` a
        search), and the rest of the analysis's report (``wthor analyze
        --format jsonl``'s line, its keys in snake_case): ``exact_from`` (the
        empties from which values are exact), ``black_line`` (black's value
        before each move then at the end), ``final_black`` (black's value of
        the last position), ``final_depth`` (the plies of its estimate, None
        when exact),
        ``ending`` (``"finished"`` or ``"unfinished"``), ``estimate`` (the
        search that estimated: ``{"search": "midgame", "depth": 16}`` or
        ``{"search": "midgame", "time_ms": 100}``) and ``theoretical``,
        always a dict: when ``empties``
        is at least ``depth``, the check of the stored theoretical score as
        ``wthor validate --solve`` logs it (``status`` ``"ok"`` or
        ``"mismatch"``, ``stored``, ``solved``…); else why it was not checked,
        ``{"status": "not_reached", "depth": 24, "stored": 33, "empties": 20}``
        (the stored score is at ``depth`` empties, the analysis exact from
        ``empties``: ``analyze(empties=depth)`` checks it). Solved on every core, the
        GIL released. 8x8 only: a 10x10 game raises ``ValueError``, an
        illegal record ``IllegalMoveError``."""

class Board:
    """An Othello position, 8x8 or 10x10: discs and the side to move.
    Immutable and hashable; ``play`` returns a new board.

    ``Board()`` is the 8x8 start position, ``Board(size=10)`` the 10x10 one,
    ``Board(obf)`` a position in OBF: one character per square from a1 in
    square order (``X`` black, ``O`` white, ``-`` empty; 64 or 100 of them),
    a space, and the side to move (``X`` or ``O``). Raises ``NotationError``
    for bad OBF.
    """

    def __init__(self, obf: Optional[str] = None, size: int = 8) -> None: ...
    @staticmethod
    def start(size: int = 8) -> Board: ...
    @staticmethod
    def from_obf(obf: str) -> Board: ...
    @staticmethod
    def from_transcript(transcript: str, size: int = 8) -> Board:
        """The position after the moves of a transcript (``"f5d6c3"``; passes
        as ``pa``/``pass``/``--`` or left out) from the start. Raises
        ``NotationError`` or ``IllegalMoveError``."""
    @property
    def size(self) -> int: ...
    @property
    def side_to_move(self) -> Literal["black", "white"]: ...
    @property
    def black(self) -> int:
        """Black's discs as a bit set."""
    @property
    def white(self) -> int:
        """White's discs as a bit set."""
    @property
    def player(self) -> int:
        """The side to move's discs as a bit set."""
    @property
    def opponent(self) -> int:
        """The other side's discs as a bit set."""
    @property
    def empties(self) -> int: ...
    def counts(self) -> Tuple[int, int]:
        """``(black discs, white discs)``."""
    def legal_moves(self) -> List[str]:
        """The legal moves as square names in square order (empty when the
        side to move must pass or the game is over)."""
    def must_pass(self) -> bool: ...
    def is_game_over(self) -> bool: ...
    def play(self, move: Union[str, int]) -> Board:
        """The board after ``move``: a square name, a square index, or
        ``"pass"``. Raises ``IllegalMoveError`` or ``NotationError``."""
    def pass_(self) -> Board:
        """The board after a pass (``IllegalMoveError`` unless the side to
        move has no move and the other has one)."""
    def symmetry(self, k: int) -> Board:
        """The image under symmetry ``k`` (0-7; see ``Database.positions``)."""
    def symmetries(self) -> List[Board]:
        """The 8 images, symmetry 0 (the board itself) first."""
    def wthor_score(self) -> Tuple[int, int]:
        """``(black, white)`` under the WTHOR rule (empties to the winner)."""
    def obf(self) -> str: ...
    def to_svg(
        self,
        size: Optional[int] = None,
        coordinates: bool = True,
        legal: bool = False,
        last_move: Union[str, int, None] = None,
        title: Optional[str] = None,
    ) -> str:
        """The board drawn as SVG text, the picture of ``wthor show --svg``:
        ``size`` its width and height in pixels (default 440 on 8x8, 536 on
        10x10; 392 and 488 without coordinates), ``coordinates`` the
        letters and numbers around it, ``legal`` dots on the legal moves of
        the side that plays next (the other side when the side to move must
        pass), ``last_move`` a square (name or index) whose disc gets the
        red dot of the last move, ``title`` the picture's ``<title>``.
        Raises ``ValueError`` for ``size=0`` or a pass as ``last_move``,
        ``NotationError`` for a bad square."""
    def _repr_svg_(self) -> str:
        """``to_svg()`` with the defaults: a board draws itself in Jupyter."""
    def evaluate(
        self,
        depth: Optional[int] = None,
        nodes: Optional[int] = None,
        time_ms: Optional[int] = None,
        all_moves: bool = False,
    ) -> Evaluation:
        """The midgame search's judgement of an 8x8 position (``wthor
        solve`` past the exact limit): its value for the side to move, best
        move and line, within ``depth`` plies (1 to 60), ``nodes`` or
        ``time_ms`` milliseconds, the first reached stopping it (none given:
        12 plies, so that the value repeats; a time limit does not). A depth
        at least the empties gives the exact score (``exact`` True);
        ``all_moves`` adds every legal move's value. The GIL is released
        while searching; Ctrl-C stops the search and raises
        ``KeyboardInterrupt``. A 10x10 board, a depth of 0 or above 60, 0
        nodes or 0 ms raise ``ValueError``."""
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Evaluation:
    """The result of ``Board.evaluate``."""

    @property
    def value(self) -> float:
        """The value for the side to move in discs: the final disc
        difference it expects (exact when ``exact``)."""
    @property
    def exact(self) -> bool: ...
    @property
    def best_move(self) -> Optional[str]:
        """The best move found; None when the side must pass or the game is over."""
    @property
    def pv(self) -> List[str]:
        """The principal variation, square names and ``"pass"``."""
    @property
    def depth(self) -> int:
        """Plies of the last completed iteration (the empties when exact)."""
    @property
    def nodes(self) -> int: ...
    @property
    def moves(self) -> List[Tuple[str, float, bool]]:
        """With ``all_moves``: every legal move as ``(square, value, exact)``, best first."""

class Solution:
    """The exact result of ``solve``."""

    @property
    def score(self) -> int:
        """The final disc difference for the side to move under perfect play."""
    @property
    def best_moves(self) -> List[str]:
        """The moves achieving it, in square order (empty when the side to
        move must pass or the game is over)."""
    @property
    def nodes(self) -> int: ...

def solve(
    position: Union[str, Board],
    threads: Optional[int] = None,
    tt_bits: int = 20,
    all_best: bool = True,
) -> Solution:
    """Solves an 8x8 position (OBF or ``Board``) exactly, the GIL released.

    ``threads`` (1 to 256) defaults to every core; ``tt_bits`` sizes the
    hash table (``2**tt_bits`` entries of 32 bytes); ``all_best=False``
    finds one best move only (faster). Raises ``NotationError`` for bad OBF,
    ``ValueError`` for a 10x10 position or threads out of range.
    """

def read_games(path: StrPath, *, errors: Literal["raise", "skip"] = "raise") -> List[Dict[str, object]]:
    """The games of a text file, read as ``wthor import`` reads its inputs
    (by the extension: ``.ggf``, ``.jsonl``, ``.csv`` — ours, the Japanese
    article's, eOthello's —, a WTHOR ``.wtb``; otherwise transcripts,
    Logistello or Egaroucid lines). Each game is a dict: ``moves`` (square
    names, ``"pa"`` for a pass written in the input), ``transcript``,
    ``black``, ``white`` (``"?"`` when the input has none),
    ``tournament``, ``year``, ``score`` (black's discs), ``winner`` (1, 0,
    -1), ``theoretical_score`` and ``depth``, ``line`` (from 1; the record
    from 0 for a WTHOR file); None where the input does not tell. A line
    that is no game raises ``NotationError`` naming the file and line,
    unless ``errors="skip"``; ``OSError`` when the file cannot be read.
    The GGF date rule is the CLI's (``2003.12.15…``, ``2014-02-21…``, Unix
    seconds)."""
