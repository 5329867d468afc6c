"""Grid maps, placements and movements: the general mechanisms behind games whose board grows
from placed tiles and whose pieces move along paths. Each test uses a small neutral game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.interpreter import grids
from meeple.interpreter.geometry import HEX
from meeple.interpreter.values import Cell, LazyList, MapRef

HERE = Path(__file__).parent

LINE = """\
game "Line":
  players 1..1

table ground (name):
  open
  wall

table spot (ground: ground, q: int, r: int, token: bool):
{spots}

map board:
  grid hex of spot

zone box
piece token: 20 in box

movement walk(reach: int, line: bool, back: bool):
  steps 0 .. reach
  straight line
  backtracks back
  through c where c.ground == open and count(pieces(c)) == 0 or c.ground == open and c.token
  ends c where c.ground == open

value options(reach: int, line: bool, back: bool) = routes(start_cell(), walk, reach, line, back)
value start_cell() = [each c in cells(board) where c.q == 0 and c.r == 0][0]

play:
  place spot on board
  for each c in cells(board) where c.token:
    move 1 token from box to c
"""


def grid_game(tmp_path: Path, spots: list[tuple[str, int, int, bool]]) -> meeple.Game:
    rows = "\n".join(f"  {g}, {q}, {r}, {'yes' if t else 'no'}" for g, q, r, t in spots)
    path = tmp_path / "line.rules"
    path.write_text(LINE.format(spots=rows))
    return meeple.load(path)


def routes_of(state: meeple.State, reach: int, line: bool, back: bool) -> list[str]:
    program = state.game.program
    params, fn = program.values["options"]
    return sorted(str(r) for r in fn(state.rt, dict(zip(params, [reach, line, back], strict=True))))


def test_rotating_a_hex_six_times_is_the_identity() -> None:
    for q, r in [(1, 0), (2, -1), (0, 3)]:
        assert HEX.rotate(q, r, 6) == (q, r)
        assert HEX.rotate(q, r, 1) == (-r, q + r)


def test_hex_distance_counts_steps() -> None:
    m = MapRef("m", None)
    assert grids.distance(Cell(m, 0, 0), Cell(m, 2, -1)) == 2
    assert grids.distance(Cell(m, 0, 0), Cell(m, -3, 3)) == 3


def test_a_shape_placed_without_a_spot_lies_at_the_origin_unturned(tmp_path: Path) -> None:
    game = grid_game(tmp_path, [("open", 0, 0, False), ("open", 1, 0, True)])
    state = game.new_game(1)
    cells = sorted((c.q, c.r) for c in state.rt.grids[game.program.map_refs[("board", None)]].values())
    assert cells == [(0, 0), (1, 0)]
    assert state.view()["zones"]["box"] == {"token": 19}


def test_straight_movement_keeps_its_first_direction(tmp_path: Path) -> None:
    """A straight line of up to 2 steps from the origin along a row of open cells."""
    spots = [("open", q, 0, False) for q in range(0, 3)] + [("open", 0, 1, False), ("open", 1, 1, False)]
    state = grid_game(tmp_path, spots).new_game(1)
    assert routes_of(state, 2, True, False) == [
        "from (0,0) to (0,1)",
        "from (0,0) to (1,0)",
        "from (0,0) to (2,0) via (1,0)",
        "stay at (0,0)",
    ]


def test_turning_movement_reaches_around_a_corner(tmp_path: Path) -> None:
    """(1,1) is two steps from the origin, east then south-east: only a turning move gets there."""
    spots = [("open", 0, 0, False), ("open", 1, 0, False), ("open", 1, 1, False)]
    state = grid_game(tmp_path, spots).new_game(1)
    assert "from (0,0) to (1,1) via (1,0)" in routes_of(state, 2, False, False)
    assert not any(r.startswith("from (0,0) to (1,1)") for r in routes_of(state, 2, True, False))


def test_a_wall_blocks_the_way(tmp_path: Path) -> None:
    spots = [("open", 0, 0, False), ("wall", 1, 0, False), ("open", 2, 0, False)]
    state = grid_game(tmp_path, spots).new_game(1)
    assert routes_of(state, 3, True, False) == ["stay at (0,0)"]


def test_routes_are_distinct_by_end_and_pieces_passed(tmp_path: Path) -> None:
    """Two paths to one cell that pass the same pieces are one option; passing a piece makes another."""
    spots = [
        ("open", 0, 0, False),
        ("open", 1, 0, True),  # a token on one way round
        ("open", 0, 1, False),  # an empty way round
        ("open", 1, 1, False),
    ]
    state = grid_game(tmp_path, spots).new_game(1)
    to_corner = [r for r in routes_of(state, 2, False, False) if r.startswith("from (0,0) to (1,1)")]
    # Two ways round: one passes the token, one passes nothing: two different outcomes.
    assert to_corner == ["from (0,0) to (1,1) via (0,1)", "from (0,0) to (1,1) via (1,0)"]
    # With a token on both ways round, both pass one piece each -- but different pieces.
    spots[2] = ("open", 0, 1, True)
    state = grid_game(tmp_path, spots).new_game(1)
    assert len([r for r in routes_of(state, 2, False, False) if r.startswith("from (0,0) to (1,1)")]) == 2


def test_passing_empty_cells_does_not_make_a_new_outcome(tmp_path: Path) -> None:
    """Three steps along empty cells to one end, by several paths, is one option."""
    spots = [("open", q, r, False) for q in range(0, 3) for r in range(0, 2)]
    state = grid_game(tmp_path, spots).new_game(1)
    ends = [r.split(" via")[0] for r in routes_of(state, 3, False, False)]  # "from A to B"
    assert len(ends) == len(set(ends))


def test_backtracking_routes_may_end_where_they_started(tmp_path: Path) -> None:
    spots = [("open", 0, 0, False), ("open", 1, 0, True)]
    state = grid_game(tmp_path, spots).new_game(1)
    assert "from (0,0) via (1,0) back to (0,0)" in routes_of(state, 2, False, True)
    assert "from (0,0) via (1,0) back to (0,0)" not in routes_of(state, 2, False, False)


def test_placements_touch_the_grid_and_cover_nothing(tmp_path: Path) -> None:
    game = meeple.load(HERE / "grids" / "hunt.rules")
    state = game.new_game(1, seed=3)
    decision = state.decision
    assert decision is not None and decision.prompt == "Where"
    grid = state.rt.grids[game.program.map_refs[("land", state.rt.players[0])]]
    for placement in decision.values:
        assert not any(c in grid for c in placement.coords)
        assert any((q + dq, r + dr) in grid for q, r in placement.coords for dq, dr in HEX.directions)
    assert len({frozenset(p.coords) for p in decision.values}) > 1


def every_placement(grid: dict[tuple[int, int], Any], local: list[tuple[int, int]]) -> list[tuple[int, Any]]:
    """What placements must be, by trying every turn and every shift near the grid: (turn, cells)
    for each that covers no cell and touches one by a side, turn by turn, shifts in order."""
    reach = max(max(abs(q), abs(r)) for q, r in grid) + 2 * max(max(abs(q), abs(r)) for q, r in local) + 2
    found = []
    for turn in range(6):
        turned = [HEX.rotate(q, r, turn) for q, r in local]
        for dq in range(-reach, reach + 1):
            for dr in range(-reach, reach + 1):
                cells = [(q + dq, r + dr) for q, r in turned]
                touches = any((q + sq, r + sr) in grid for q, r in cells for sq, sr in HEX.directions)
                if touches and not any(c in grid for c in cells):
                    found.append((turn, cells))
    return found


GROWING = """\
game "Growing":
  players 1..1

table shape (name):
  start
  bend

table tile (shape: shape, q: int, r: int):
  start, 0, 0
  bend, 0, 0
  bend, 1, 0
  bend, 1, -1

map land:
  grid hex of tile

play:
  place [each t in tile where t.shape == start] on land
  for each p in players:
    for each i in 1 .. 6:
      choose spot from placements(land, [each t in tile where t.shape == bend]) by p prompt "Where":
        place [each t in tile where t.shape == bend] on land at spot
"""


def test_placements_offered_are_every_placement_in_order(tmp_path: Path) -> None:
    """A choice among placements offers them as they are read (a LazyList): index for index they
    are the placements a search over every turn and shift finds, on a grid that grows."""
    path = tmp_path / "growing.rules"
    path.write_text(GROWING)
    game = meeple.load(path)
    state = game.new_game(1, seed=3)
    grid = state.rt.grids[game.program.map_refs[("land", None)]]
    while state.decision is not None:
        decision = state.decision
        offered = [(spot.rotation, spot.coords) for spot in decision.values]
        assert offered == every_placement(grid, [(0, 0), (1, 0), (1, -1)])
        state.apply(len(offered) // 3)
    assert len(grid) == 1 + 6 * 3


def test_a_lazy_list_makes_each_item_once_when_read() -> None:
    made: list[int] = []

    def make(index: int) -> str:
        made.append(index)
        return f"item {index}"

    items = LazyList(4, make)
    assert len(items) == 4 and made == []
    assert items[2] is items[2] and items[-1] == "item 3" and made == [2, 3]
    assert items == ["item 0", "item 1", "item 2", "item 3"] and items[1:3] == ["item 1", "item 2"]
    assert made == [2, 3, 0, 1]
    with pytest.raises(IndexError):
        items[4]


def test_a_placed_shape_brings_its_cells_and_their_faces(tmp_path: Path) -> None:
    game = meeple.load(HERE / "grids" / "hunt.rules")
    state = game.new_game(1, seed=3)
    state.apply(0)
    grid = state.rt.grids[game.program.map_refs[("land", state.rt.players[0])]]
    assert len(grid) == 7 + 3
    assert all(state.rt.faces[c].values["ground"] is not None for c in grid.values())


@pytest.mark.parametrize("seed", range(8))
def test_hunting_games_end_and_keep_their_pieces(seed: int) -> None:
    """Pieces counted per row of a table start in their zone and only ever move."""
    game = meeple.load(HERE / "grids" / "hunt.rules")
    state = game.new_game(1, seed=seed)
    while not state.is_over:
        state.apply(seed % state.decision.size)  # type: ignore[union-attr]
    total = sum(len(pile) for pile in state.rt.locs.values())
    assert total == 15


def test_move_by_row_kind_names_the_kind_in_a_shortfall(tmp_path: Path) -> None:
    path = tmp_path / "few.rules"
    path.write_text(
        """\
game "Few":
  players 1..1
table critter (name, supply: int):
  mouse, 1
zone box
zone field
piece beast: self.supply per critter in box
play:
  move 3 beast mouse from box to field
"""
    )
    state = meeple.load(path).new_game(1)
    assert state.result()["shortfalls"] == {"beast mouse": 2}


def test_a_movement_needs_its_arguments(tmp_path: Path) -> None:
    path = tmp_path / "bad.rules"
    path.write_text(
        """\
game "Bad":
  players 1..1
map m:
  grid hex
movement go(n: int):
  steps 1 .. n
play:
  for each c in cells(m):
    for each r in routes(c, go):
      log "{r}"
"""
    )
    codes = [d.code for d in meeple.check(path).diagnostics]
    assert "M012" in codes
