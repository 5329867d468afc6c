"""What a seat is shown (`State.view(seat)`): a `top` zone shows its count and its top piece only,
like a draw pile whose top card lies face up; grid maps show every cell, what was placed there
and the pieces on it. On a game of neutral names."""

from __future__ import annotations

from pathlib import Path

import meeple

GAME = """\
game "Piles":
  players 2..2

table shape (name):
  one
table shape_cell (shape: shape, q: int, r: int, ground: ground):
  one, 0, 0, sand
  one, 1, 0, sand
table ground (name):
  sand

zone box
zone pile, top
zone hand per player, private
piece card: 3 in box
piece stone: 2 in box
map land:
  grid hex of shape_cell

value cells_of(s: shape) = [each c in shape_cell where c.shape == s]

setup:
  move 2 card from box to pile
  move 1 stone from box to pile
  place cells_of(one) on land
  move 1 stone from box to cell(land, 1, 0)

play:
  for each p in players:
    turn p:
      move 1 card from box to p.hand
"""


def state(tmp_path: Path) -> meeple.State:
    path = tmp_path / "piles.rules"
    path.write_text(GAME)
    return meeple.load(path).new_game(2)


def test_a_top_zone_shows_its_count_and_its_top_piece_only(tmp_path: Path) -> None:
    game = state(tmp_path)
    assert game.view(0)["zones"]["pile"] == {"hidden": 3, "top": "stone"}
    assert game.view()["zones"]["pile"] == ["card", "card", "stone"]  # everything, bottom first


def test_a_grid_map_shows_every_cell_its_face_and_its_pieces(tmp_path: Path) -> None:
    cells = state(tmp_path).view(1)["grids"]["land"]
    assert [(c["q"], c["r"], c["pieces"]) for c in cells] == [(0, 0, {}), (1, 0, {"stone": 1})]
    assert all(c["face"] and c["face"].startswith("shape_cell") for c in cells)
