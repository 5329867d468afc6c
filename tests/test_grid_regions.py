"""`region(cell, ATTR)` and `regions(cells, ATTR)` on a grid map: the cells joined by the sides
they share whose attribute is the same (they used to give every cell a region of its own, and
the checker said nothing); a first argument that is neither a map's node nor a grid's cell is
refused. On a hex grid of neutral names."""

from __future__ import annotations

from pathlib import Path

from helpers import only

import meeple
from meeple.interpreter.examples import run_examples

GAME = """\
game "Fields":
  players 2..2

table ground (name):
  sand
  water
table shape (name):
  strip
table shape_cell (shape: shape, q: int, r: int, ground: ground):
  strip, 0, 0, sand
  strip, 1, 0, sand
  strip, 2, 0, water
  strip, 3, 0, sand

map land:
  grid hex of shape_cell

value cells_of(s: shape) = [each c in shape_cell where c.shape == s]

play:
  for each p in players:
    turn p:
      log "turn"

example "Same ground joined by shared sides; another ground cuts a region":
  given:
    place cells_of(strip) on land
  expect:
    count(region(cell(land, 0, 0), ground)) == 2
    count(regions(cells(land), ground)) == 3
"""


def test_regions_of_a_grid_follow_its_sides(tmp_path: Path) -> None:
    path = tmp_path / "fields.rules"
    path.write_text(GAME)
    assert [r.failures for r in run_examples(meeple.load(path))] == [[]]


def test_a_region_of_something_that_is_no_node_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fields.rules"
    path.write_text(
        GAME.replace("count(region(cell(land, 0, 0), ground)) == 2", "count(region(3, ground)) == 2")
    )
    assert "a node of a table map or a cell of a grid map" in only(meeple.check(path), "M014").message


def test_a_route_that_starts_on_no_cell_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "fields.rules"
    source = GAME.replace(
        "play:\n",
        "movement step():\n  steps 1\n\nvalue far(s: shape) = routes(s, step)\n\nplay:\n",
    )
    path.write_text(source)
    found = [d for d in meeple.check(path).diagnostics if d.code == "M014"]
    assert any("a route starts on a cell of a grid map" in d.message for d in found), [
        d.message for d in meeple.check(path).diagnostics
    ]
