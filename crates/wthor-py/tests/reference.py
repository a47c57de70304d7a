"""A plain-Python WTHOR reader: ``struct`` for the records, a square-by-square
replay for the positions, no NumPy. This is the reader most machine-learning
projects write; the tests check the Rust package against it, and the benchmark
(``bench/positions.py``) measures it as the baseline.

Square ``8 * row + column`` (a1 = 0); bit sets as Python ints.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Iterator, List, NamedTuple, Tuple

HEADER = struct.Struct("<BBBBIHHBBBB")
RECORD = struct.Struct("<HHHBB60s")
PASS = 64
NO_SCORE = -128
DIRECTIONS = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)]
START_BLACK = (1 << 28) | (1 << 35)  # e4, d5
START_WHITE = (1 << 27) | (1 << 36)  # d4, e5


class Record(NamedTuple):
    tournament: int
    black: int
    white: int
    real_score: int
    theoretical_score: int
    moves: List[int]  # squares 0..63; -1 for a byte that is no square


class GameFile(NamedTuple):
    year: int
    depth: int
    records: List[Record]


def square_of_byte(b: int) -> int:
    """A WTHOR move byte (``column + 10 * row``, both from 1) as a square, -1 if none."""
    row, col = divmod(b, 10)
    if 1 <= row <= 8 and 1 <= col <= 8:
        return (row - 1) * 8 + (col - 1)
    return -1


def read_game_file(path: Path) -> GameFile:
    data = Path(path).read_bytes()
    _, _, _, _, n1, _, year, _, _, p3, _ = HEADER.unpack_from(data, 0)
    depth = p3 or 22
    records = []
    for off in range(HEADER.size, len(data) - RECORD.size + 1, RECORD.size):
        t, b, w, real, theo, raw = RECORD.unpack_from(data, off)
        moves = []
        for byte in raw:
            if byte == 0:
                break
            moves.append(square_of_byte(byte))
        records.append(Record(t, b, w, real, theo, moves))
    return GameFile(year, depth, records)


def read_names(path: Path, width: int) -> List[str]:
    data = Path(path).read_bytes()
    out = []
    for off in range(16, len(data) - width + 1, width):
        field = data[off : off + width]
        out.append(field.split(b"\0", 1)[0].decode("cp1252"))
    return out


def flips(me: int, opp: int, sq: int) -> int:
    """The discs of ``opp`` flipped by ``me`` playing ``sq`` (0 if illegal)."""
    if ((me | opp) >> sq) & 1:
        return 0
    row, col = divmod(sq, 8)
    total = 0
    for dr, dc in DIRECTIONS:
        r, c, line = row + dr, col + dc, 0
        while 0 <= r < 8 and 0 <= c < 8 and (opp >> (r * 8 + c)) & 1:
            line |= 1 << (r * 8 + c)
            r, c = r + dr, c + dc
        if line and 0 <= r < 8 and 0 <= c < 8 and (me >> (r * 8 + c)) & 1:
            total |= line
    return total


def has_move(me: int, opp: int) -> bool:
    return any(flips(me, opp, sq) for sq in range(64))


Row = Tuple[int, int, int, int, int, int, int]  # player, opponent, side, ply, move, final, theoretical


def positions(record: Record, depth: int) -> Iterator[Row]:
    """The rows of one game as ``Database.positions()`` documents them."""
    final_black = 2 * record.real_score - 64
    theo_black = 2 * record.theoretical_score - 64
    me, opp, side, ply = START_BLACK, START_WHITE, 0, 0

    def row(move: int) -> Row:
        sign = -1 if side else 1
        empties = 64 - bin(me | opp).count("1")
        theo = sign * theo_black if empties <= depth else NO_SCORE
        return (me, opp, side, ply, move, sign * final_black, theo)

    for sq in record.moves:
        if sq < 0:
            return
        f = flips(me, opp, sq)
        if not f:
            if has_move(me, opp):
                return  # illegal
            f = flips(opp, me, sq)
            if not f:
                return  # illegal even after a pass
            yield row(PASS)
            me, opp, side, ply = opp, me, side ^ 1, ply + 1
        yield row(sq)
        me, opp = opp & ~f, me | f | (1 << sq)
        side, ply = side ^ 1, ply + 1
