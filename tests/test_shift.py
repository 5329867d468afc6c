"""`shift MAP by DQ, DR`: a growing grid slid across the table, every cell with its layers and
its pieces moved by one offset (in blocks, on a grid laid in blocks), so that a map kept from one
game to the next can grow on any side (docs/language.md#grid-maps).

A neutral game of square tiles, each one block of 2 x 2 quarters."""

from __future__ import annotations

from pathlib import Path

import meeple
from meeple.interpreter.examples import run_examples

QUARTERS = "\n".join(
    f"  {kind}, {q}, {r}, {ground}"
    for kind, ground in (("land", "grass"), ("flood", "sea"))
    for q, r in ((0, 0), (1, 0), (1, 1), (0, 1))
)

GAME = f"""\
game "Sliding":
  players 1..1

table ground (name):
  grass
  sea

table kind (name):
  land
  flood

table quarter (kind: kind, q: int, r: int, ground: ground):
{QUARTERS}

map world:
  grid square blocks 2 of quarter

zone box
piece stone: 3 in box

value shape(k: kind) = [each c in quarter where c.kind == k]

play:
  log "nothing"

example "Shifting a grid moves every tile, the layers on it and the pieces on it, by whole blocks":
  given:
    place shape(land) on world
    place shape(land) on world at placement(world, shape(land), 1, 0, 0)
    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over
    move 1 stone from box to cell(world, 0, 0)
  do:
    shift world by 1, 2
  expect:
    block(world, 0, 0) == none
    cell(world, 0, 0) == none
    count(cells(world)) == 8
    block(world, 1, 2).shape[0].kind == flood
    block(world, 1, 2).under.shape[0].kind == land
    block(world, 2, 2).shape[0].kind == land
    count(pieces(cell(world, 2, 4))) == 1
    cell(world, 2, 4).ground == sea
    count(areas(world, ground)) == 2

example "A shifted grid grows on the side it left free, and its layers lift where they now lie":
  given:
    place shape(land) on world
    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over
  do:
    shift world by 1, 0
    place shape(land) on world at placement(world, shape(land), 0, 0, 0)
    lift block(world, 1, 0)
  expect:
    count(cells(world)) == 8
    block(world, 1, 0).shape[0].kind == land
    block(world, 0, 0).shape[0].kind == land

example "A grid shifts west and north too, to coordinates below zero":
  given:
    place shape(land) on world
  do:
    shift world by -1, -3
  expect:
    block(world, -1, -3).shape[0].kind == land
    cell(world, -1, -5).ground == grass
    count(cells(world)) == 4
"""


def write(tmp_path: Path, text: str = GAME) -> Path:
    path = tmp_path / "sliding.rules"
    path.write_text(text)
    return path


def test_a_shifted_grid_keeps_its_layers_and_pieces_at_their_new_places(tmp_path: Path) -> None:
    results = run_examples(meeple.load(write(tmp_path)))
    assert len(results) == 3 and all(not r.failures for r in results), [r.failures for r in results]


def test_only_a_growing_grid_shifts(tmp_path: Path) -> None:
    """A board given by its size has its cells where they are; a zone is no grid at all."""
    board = GAME[: GAME.index("example")].replace(
        "map world:\n  grid square blocks 2 of quarter", "map world:\n  grid square 4 by 4"
    )
    source = board + "rule slide():\n  shift world by 1, 0\nrule slide_box():\n  shift box by 1, 0\n"
    found = [
        (d.line, d.code, d.message)
        for d in meeple.check(write(tmp_path, source)).diagnostics
        if d.severity == "error"
    ]
    assert [(code, "cannot shift" in m or "a grid map is shifted" in m) for _, code, m in found] == [
        ("M014", True),
        ("M014", True),
    ]


def test_a_shift_by_what_is_not_a_number_is_refused(tmp_path: Path) -> None:
    source = GAME[: GAME.index("example")] + 'rule slide():\n  shift world by "far", 0\n'
    found = [d for d in meeple.check(write(tmp_path, source)).diagnostics if d.severity == "error"]
    assert [d.code for d in found] == ["M014"]


def test_the_rulebook_tells_a_shift_in_words(tmp_path: Path) -> None:
    from meeple.codegen.english import English

    checked = meeple.check(
        write(tmp_path, GAME[: GAME.index("example")] + "rule slide():\n  shift world by 1, 0\n")
    )
    assert checked.symbols is not None
    rule = checked.symbols.rules["slide"]
    said = English(checked.symbols).block(rule.body)
    assert "Slide world, with everything on it, 1 east and 0 south." in [str(line.text) for line in said]
