"""Board.to_svg and _repr_svg_: XML with the board's discs, the picture of
`wthor show --svg` for the same position."""

from __future__ import annotations

import os
import subprocess
import xml.etree.ElementTree as ET

import pytest

import wthor

SVG = "{http://www.w3.org/2000/svg}"


def drawn(svg: str) -> dict:
    """The root's size and what the picture holds, from its XML."""
    root = ET.fromstring(svg.encode("utf-8"))
    assert root.tag == SVG + "svg"
    circles = list(root.iter(SVG + "circle"))
    return {
        "width": root.get("width"),
        "view_box": root.get("viewBox"),
        # Discs: black ones are outlined in black, white ones in dark grey.
        "black": sum(c.get("stroke") == "#000000" for c in circles),
        "white": sum(c.get("stroke") == "#222222" for c in circles),
        "last": sum("#e53935" in (c.get("fill"), c.get("stroke")) for c in circles),
        "legal": sum(c.get("fill-opacity") is not None for c in circles),
        "texts": [t.text for t in root.iter(SVG + "text")],
        "title": next((t.text for t in root.iter(SVG + "title")), None),
    }


BOARDS = [
    wthor.Board(),
    wthor.Board(size=10),
    wthor.Board.from_transcript("f5d6c3d3c4f4f6f3e6e7"),
    wthor.Board.from_transcript("f5f6e6f4e3c5c4e7c6").symmetry(5),
    wthor.Board.from_transcript("g6e7", size=10),
]


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: b.obf())
def test_svg_is_xml_with_the_boards_discs(board):
    d = drawn(board.to_svg())
    assert (d["black"], d["white"]) == board.counts()
    side = "440" if board.size == 8 else "536"
    assert d["width"] == side and d["view_box"] == f"0 0 {side} {side}"
    assert d["texts"][::2] == list("abcdefghij"[: board.size])
    assert d["texts"][1::2] == [str(i) for i in range(1, board.size + 1)]
    assert (d["last"], d["legal"], d["title"]) == (0, 0, None)
    assert board._repr_svg_() == board.to_svg()


def test_svg_options():
    board = wthor.Board.from_transcript("f5d6c3")
    d = drawn(board.to_svg(size=200, coordinates=False, legal=True, last_move="c3", title="a < b"))
    assert (d["width"], d["view_box"]) == ("200", "0 0 392 392")
    assert d["texts"] == [] and d["title"] == "a < b"
    assert d["legal"] == len(board.legal_moves()) and d["last"] == 1
    assert board.to_svg(last_move=18) == board.to_svg(last_move="c3")
    with pytest.raises(ValueError):
        board.to_svg(size=0)
    with pytest.raises(ValueError):
        board.to_svg(last_move="pass")
    with pytest.raises(wthor.NotationError):
        board.to_svg(last_move="z9")


def show_svg(tmp_path, *args: str) -> str:
    exe = os.environ.get("WTHOR_CLI")
    if not exe:
        pytest.skip("WTHOR_CLI is not set (cargo xtask py-test sets it): skipping the CLI comparisons")
    out = tmp_path / "p.svg"
    run = subprocess.run([exe, "show", *args, "--svg", str(out)], capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize("moves", [0, 1, 20, 35])
def test_svg_is_the_picture_of_wthor_show(testdata, tmp_path, moves):
    db = wthor.Database(testdata)
    game = db["2001:1"]
    board = wthor.Board.from_transcript("".join(game.moves[:moves]))

    def name(text, number):
        return text if text else f"#{number}"

    title = "{} - {}, {} {}, {}".format(
        name(game.black, game.black_number),
        name(game.white, game.white_number),
        name(game.tournament, game.tournament_number),
        game.year,
        f"after move {moves}" if moves else "start",
    )
    last = game.moves[moves - 1] if moves else None
    mine = board.to_svg(legal=True, last_move=last, title=title)
    theirs = show_svg(tmp_path, str(testdata / "WTH_2001.wtb"), "1", "--move", str(moves), "--legal")
    assert mine == theirs
    d = drawn(mine)
    assert (d["black"], d["white"]) == board.counts()
    # The legal moves of the side that plays next.
    legal = board.pass_().legal_moves() if board.must_pass() else board.legal_moves()
    assert d["legal"] == len(legal)
