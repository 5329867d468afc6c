"""What a seat is shown (`State.view(seat)`): a `top` zone shows its count and its top piece only,
like a draw pile whose top card lies face up; grid maps show every cell, what was placed there
and the pieces on it. On a game of neutral names."""

from __future__ import annotations

import json
from pathlib import Path

from helpers import ROOT

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


SECRETS = """\
game "Secrets":
  players 2..2

zone box
zone hand per player, private
zone stash per player, hidden
piece gem: 1 in box
piece pearl: 1 in box
piece coin: 4 in box

play:
  move 1 gem from box to players[0].hand
  move 1 pearl from box to players[0].stash
  move 1 coin from box to players[1].hand
  for each p in players:
    turn p:
      choose n from [1, 2] by p prompt "Number":
        move n coin from box to box
"""


def test_a_private_zone_is_shown_to_its_owner_and_to_no_other_seat(tmp_path: Path) -> None:
    """Player 1 alone holds the gem, in a private hand, and the pearl, in a hidden stash: what
    seat 2 may see says how many pieces each holds and nothing of what they are, not even in the
    labels the view lists beside the zones. Player 1 sees its own hand, and not its stash."""
    path = tmp_path / "secrets.rules"
    path.write_text(SECRETS)
    state = meeple.load(path).new_game(2)
    mine, theirs = state.view(0), state.view(1)
    assert mine["zones"]["hand of Player 1"] == {"gem": 1}
    assert mine["zones"]["hand of Player 2"] == {"hidden": 1}
    assert mine["zones"]["stash of Player 1"] == {"hidden": 1}
    assert theirs["zones"]["hand of Player 1"] == {"hidden": 1}
    assert theirs["zones"]["hand of Player 2"] == {"coin": 1}
    assert "gem" not in json.dumps(theirs) and "pearl" not in json.dumps(theirs)
    assert "pearl" not in json.dumps(mine)
    everything = json.dumps(state.view())
    assert "gem" in everything and "pearl" in everything


PLACES = """\
game "Places":
  players 2..2

table spot (name):
  near
  far
table link (a: spot, b: spot):
  near, far
table shape (name):
  one
table shape_cell (shape: shape, q: int, r: int):
  one, 0, 0
  one, 1, 0

zone box
piece stone: 4 in box
piece gem: 4 in box
map ring:
  nodes spot
  edges link (a, b)
map land:
  grid hex of shape_cell

value cells_of(s: shape) = [each c in shape_cell where c.shape == s]

setup:
  place cells_of(one) on land
  move 1 stone from box to cell(land, 1, 0)
  move 1 gem from box to cell(land, 1, 0)

play:
  for each p in players:
    turn p:
      choose s from spot by p prompt "Spot":
        move 1 stone from box to s
      choose c from [cell(land, 0, 0), cell(land, 1, 0)] by p prompt "Cell":
        move 1 stone from box to c
      choose x from pieces(cell(land, 1, 0)) by p prompt "Stone":
        move x to box
      choose n from [1, 2] by p prompt "Number":
        move n stone from box to box
"""


def test_a_decision_names_the_board_place_each_option_denotes(tmp_path: Path) -> None:
    path = tmp_path / "places.rules"
    path.write_text(PLACES)
    game = meeple.load(path).new_game(2)
    assert game.view(0)["decision"]["places"] == [
        {"map": "ring", "node": "near"},
        {"map": "ring", "node": "far"},
    ]
    game.apply(1)
    assert game.view(0)["decision"]["places"] == [
        {"grid": "land", "q": 0, "r": 0},
        {"grid": "land", "q": 1, "r": 0},
    ]
    game.apply(1)
    assert game.view(0)["decision"]["places"] == [{"grid": "land", "q": 1, "r": 0}] * 2  # pieces: their cell
    game.apply(0)
    assert game.view(0)["decision"]["places"] == [None, None]  # numbers are no place


def test_the_state_records_which_seat_made_each_choice(tmp_path: Path) -> None:
    path = tmp_path / "places.rules"
    path.write_text(PLACES)
    game = meeple.load(path).new_game(2)
    for _ in range(5):
        game.apply(0)
    assert game.choosers == [0, 0, 0, 0, 1]


LAYING = (ROOT / "tests" / "grids" / "laying.rules").read_text(encoding="utf-8")


def test_an_area_is_offered_at_every_cell_of_it_and_a_placement_at_its_first_cell(tmp_path: Path) -> None:
    """A playtest page offers an area at each of its cells, and a placement of a shape where its
    first cell would go, turned as it would be, with every cell it would cover."""
    path = tmp_path / "laying.rules"
    path.write_text(LAYING)
    state = meeple.load(path).new_game(1)
    assert state.view(0)["decision"]["places"] == [
        {"grid": "land", "q": 0, "r": 0, "cells": [[0, 0], [1, 0]]},
        {"grid": "land", "q": 0, "r": 1, "cells": [[0, 1]]},
    ]
    state.apply(0)
    places = state.view(0)["decision"]["places"]
    spots = state.decision.values
    assert len(places) == len(spots) > 6
    for place, spot in zip(places, spots, strict=True):
        assert place == {
            "grid": "land",
            "q": spot.coords[0][0],
            "r": spot.coords[0][1],
            "lay": {"block": 1, "turn": spot.rotation * 60, "cells": [list(c) for c in spot.coords]},
        }


SHOWN_AT = """\
game "Shown":
  players 2..2

table kind (name, called):
  low, "Low"
  high, "High"
table spot (name, seat: int, kind: kind):
  low_1, 0, low
  high_1, 0, high
  low_2, 1, low
  high_2, 1, high
table link (a: spot, b: spot):
  low_1, high_1

zone box
piece stone: 4 in box
map yard:
  nodes spot
  edges link (a, b)

value spot_of(p: player, k: kind) = [each s in spot where s.seat == p.seat and s.kind == k][0]

play:
  for each p in players:
    choose k from kind by p prompt "Kind" shown at spot_of(p, k):
      move 1 stone from box to spot_of(p, k)
    choose n from [1, 2] by p prompt "Number" shown at spot_of(p, low):
      log "{p} says {n}"
"""


def test_an_option_that_is_no_place_is_shown_where_the_rules_say(tmp_path: Path) -> None:
    """`choose ... shown at PLACE`: a kind of spot is offered at the deciding player's spot of
    that kind, so a picture of the board offers it there."""
    path = tmp_path / "shown.rules"
    path.write_text(SHOWN_AT)
    state = meeple.load(path).new_game(2)
    assert state.view(0)["decision"]["places"] == [
        {"map": "yard", "node": "low_1"},
        {"map": "yard", "node": "high_1"},
    ]
    state.apply(1)
    assert state.view(0)["decision"]["places"] == [{"map": "yard", "node": "low_1"}] * 2
    state.apply(0)
    assert state.view(1)["decision"]["places"] == [
        {"map": "yard", "node": "low_2"},
        {"map": "yard", "node": "high_2"},
    ]
