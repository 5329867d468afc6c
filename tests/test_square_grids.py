"""Square grids laid in blocks, areas of like cells, and layers: the mechanisms behind games of
square tiles made of quarters, whose touching sides must match and whose like quarters join into
areas across tiles (a city, a field, a terrain). Neutral games: tests/grids/quads.rules (a small
tile-laying game, its worked examples), and small ones written here."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from helpers import assert_same_game, only, play_random, play_refusing_bad_answers
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple import Game
from meeple.interpreter import layers
from meeple.interpreter.examples import run_examples
from meeple.interpreter.geometry import geometry

HERE = Path(__file__).parent


@cache
def quads() -> Game:
    """Quads: built on first use, not at import (each test process imports every file)."""
    return meeple.load(HERE / "grids" / "quads.rules")


def test_a_quarter_turn_takes_each_quarter_of_a_block_clockwise() -> None:
    block = geometry("square", 2)
    nw, ne, se, sw = (0, 0), (1, 0), (1, 1), (0, 1)
    assert [block.rotate(*c, 1) for c in (nw, ne, se, sw)] == [ne, se, sw, nw]
    assert all(block.rotate(*c, 4) == c for c in (nw, ne, se, sw))
    assert geometry("square").rotate(1, 0, 1) == (0, 1)  # east turns to south: r grows southwards


def test_the_worked_examples_of_the_tile_game_hold() -> None:
    results = run_examples(quads())
    assert results and all(not r.failures for r in results), [r.failures for r in results]


def laid_sides_match(state: meeple.State) -> None:
    """Every pair of quarters touching across a tile's side has the same ground: read from the
    tiles laid, not with the rules' own test."""
    for grid in state.rt.grids.values():
        for (q, r), cell in grid.items():
            for dq, dr in ((1, 0), (0, 1)):
                other = grid.get((q + dq, r + dr))
                if other is not None and (q // 2, r // 2) != ((q + dq) // 2, (r + dr) // 2):
                    assert state.rt.faces[cell].values["ground"] is state.rt.faces[other].values["ground"]


def followers_kept(state: meeple.State) -> None:
    for player in state.rt.players:
        owned = sum(1 for pile in state.rt.locs.values() for kind, owner in pile if owner is player)
        assert owned == 3


def checks(state: meeple.State) -> None:
    laid_sides_match(state)
    followers_kept(state)
    for grid in state.rt.grids.values():
        assert all((q % 2, r % 2) in {(0, 0), (1, 0), (0, 1), (1, 1)} for q, r in grid)
        blocks = {(q // 2, r // 2) for q, r in grid}
        assert len(grid) == 4 * len(blocks)  # whole tiles only


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 3), seed=st.integers(0, 10_000))
def test_random_games_end_with_every_laid_side_matching_and_followers_kept(players: int, seed: int) -> None:
    rnd = random.Random(seed)
    state = play_random(quads(), players, seed, rnd, budget=200_000, max_decisions=200, check=checks)
    again = meeple.replay(quads(), players, seed, state.choices)
    assert_same_game(again, state)


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), data=st.data())
def test_every_refused_answer_leaves_the_grid_as_it_was(seed: int, data: st.DataObject) -> None:
    state = quads().new_game(2, seed=seed)
    play_refusing_bad_answers(state, random.Random(seed), data, rate=0.3, max_decisions=200)


def test_areas_are_found_once_per_change_of_the_grid() -> None:
    """The labelling of a grid is kept until a tile is laid; a value asking for areas reads the
    grid alone, and is forgotten when it changes."""
    state = quads().new_game(2, seed=1)
    rt = state.rt
    state.apply(0)  # a tile laid: the claim offered reads the areas
    assert state.decision is not None and state.decision.prompt == "Claim an area?"
    kept = dict(rt.areas)
    assert len(kept) == 1
    state.apply(1)  # a follower placed: the grid is as it was, its areas too
    assert all(rt.areas[key] is labelling for key, labelling in kept.items())
    while state.decision is not None and state.decision.prompt != "Where does the tile go?":
        state.apply(state.decision.options.index("pass"))  # no follower moves
    assert all(rt.areas[key] is labelling for key, labelling in kept.items())
    state.apply(0)  # the next tile laid: found again
    assert all(rt.areas.get(key) is not labelling for key, labelling in kept.items())


LAYERS = """\
game "Layers":
  players 1..1

table ground (name):
  grass
  sea
  ash

table kind (name):
  land
  flood
  burnt

table quarter (kind: kind, q: int, r: int, ground: ground):
{quarters}

map world:
  grid square blocks 2 of quarter

zone box
piece stone: 3 in box

value shape(k: kind) = [each c in quarter where c.kind == k]

play:
  log "nothing"

example "A layer laid over a tile shows its rows, and the pieces stay":
  given:
    place shape(land) on world
    place shape(land) on world at placement(world, shape(land), 1, 0, 0)
    move 1 stone from box to cell(world, 0, 0)
  do:
    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over
  expect:
    cell(world, 0, 0).ground == sea
    count(pieces(cell(world, 0, 0))) == 1
    count(areas(world, ground)) == 2
    block(world, 0, 0).under.shape[0].kind == land
    block(world, 0, 0).under != cell(world, 2, 0).placed
    block(world, 0, 0).shape[0].kind == flood
    cell(world, 1, 1).placed == block(world, 0, 0)
    block(world, 1, 0).under == none
    block(world, 5, 5) == none

example "Lifting the top layer shows the tile under it again":
  given:
    place shape(land) on world
    place shape(land) on world at placement(world, shape(land), 1, 0, 0)
    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over
  do:
    lift block(world, 0, 0)
  expect:
    cell(world, 0, 0).ground == grass
    count(areas(world, ground)) == 1
    block(world, 0, 0).under == none

example "Lifting a tile with nothing under it takes its cells away":
  given:
    place shape(land) on world
    place shape(land) on world at placement(world, shape(land), 1, 0, 0)
  do:
    lift block(world, 1, 0)
  expect:
    count(cells(world)) == 4
    cell(world, 2, 0) == none
"""
QUARTERS = [
    f"  {kind}, {q}, {r}, {ground}"
    for kind, ground in (("land", "grass"), ("flood", "sea"), ("burnt", "ash"))
    for q, r in ((0, 0), (1, 0), (1, 1), (0, 1))
]


def layers_game(tmp_path: Path, source: str = LAYERS, quarters: list[str] = QUARTERS) -> Path:
    path = tmp_path / "layers.rules"
    path.write_text(source.replace("{quarters}", "\n".join(quarters)))
    return path


def test_laying_over_and_lifting_follow_the_layers(tmp_path: Path) -> None:
    results = run_examples(meeple.load(layers_game(tmp_path)))
    assert len(results) == 3 and all(not r.failures for r in results), [r.failures for r in results]


def lift_fails(tmp_path: Path, example: str, quarters: list[str] = QUARTERS) -> str:
    source = LAYERS[: LAYERS.index("example")] + example
    results = run_examples(meeple.load(layers_game(tmp_path, source, quarters)))
    assert len(results) == 1 and results[0].failures
    return " ".join(results[0].failures)


def test_only_the_top_layer_is_lifted(tmp_path: Path) -> None:
    message = lift_fails(
        tmp_path,
        """example "Lift the bottom":
  given:
    place shape(land) on world
    let bottom = block(world, 0, 0)
    place shape(flood) on world at placement(world, shape(flood), 0, 0, 0) over
  do:
    lift bottom
""",
    )
    assert "is not the top layer" in message


def test_a_cell_with_pieces_is_never_lifted_away(tmp_path: Path) -> None:
    message = lift_fails(
        tmp_path,
        """example "Lift under a stone":
  given:
    place shape(land) on world
    move 1 stone from box to cell(world, 1, 1)
  do:
    lift block(world, 0, 0)
""",
    )
    assert "move them first" in message


def test_a_layer_is_laid_over_cells_that_are_there(tmp_path: Path) -> None:
    message = lift_fails(
        tmp_path,
        """example "Over nothing":
  given:
    place shape(land) on world
  do:
    place shape(flood) on world at placement(world, shape(flood), 1, 0, 0) over
""",
    )
    assert "some are not" in message


def test_a_shape_larger_than_a_block_is_refused_where_it_is_laid(tmp_path: Path) -> None:
    message = lift_fails(
        tmp_path,
        """example "Too wide":
  given:
    place shape(land) on world
  expect:
    count(placements(world, shape(burnt))) == 0
""",
        [*QUARTERS, "  burnt, 2, 0, ash"],
    )
    assert "0 to 1, not at (2,0)" in message


def check(tmp_path: Path, source: str) -> meeple.Report:
    return meeple.check(layers_game(tmp_path, LAYERS[: LAYERS.index("example")] + source))


def test_only_a_square_grid_is_laid_in_blocks(tmp_path: Path) -> None:
    path = layers_game(tmp_path, LAYERS.replace("grid square blocks 2", "grid hex blocks 2"))
    assert "only a square grid is laid in blocks" in only(meeple.check(path), "M010").message


def test_areas_of_a_grid_join_by_a_column_of_its_rows(tmp_path: Path) -> None:
    found = only(check(tmp_path, "value n() = count(areas(world, grund))\n"), "M014")
    assert "has no 'grund'" in found.message and "ground" in found.hint


def test_areas_are_asked_of_a_grid_or_of_nodes(tmp_path: Path) -> None:
    found = only(check(tmp_path, "value n() = count(areas(3, ground))\n"), "M014")
    assert "a grid map or a list of a map's nodes" in found.message


def test_next_to_is_asked_of_an_area(tmp_path: Path) -> None:
    found = only(check(tmp_path, "value n() = next_to(cell(world, 0, 0))\n"), "M014")
    assert "asked of an area" in found.message


def test_borders_are_those_of_a_placement(tmp_path: Path) -> None:
    found = only(check(tmp_path, "value n() = borders(cell(world, 0, 0))\n"), "M014")
    assert "borders are those of a placement" in found.message


def test_a_supposed_layer_is_never_remembered_and_leaves_the_grid_as_it_was(tmp_path: Path) -> None:
    """`as_if_laid` lays a shape for a moment: what it answers, and every value built on it, is
    computed afresh each time, while the answers about the real grid stay remembered."""
    source = LAYERS.replace(
        'play:\n  log "nothing"\n',
        """value now_areas() = count(areas(world, ground))
value if_flooded() = as_if_laid(placement(world, shape(flood), 0, 0, 0), count(areas(world, ground)))
value both() = if_flooded() + now_areas()

play:
  place shape(land) on world
  place shape(land) on world at placement(world, shape(land), 1, 0, 0)
  log "{now_areas()} {both()}"
""",
    )
    state = meeple.load(layers_game(tmp_path, source[: source.index("example")])).new_game(1)
    assert state.log[-1] == "1 3"
    memo = state.rt.memo
    assert ("now_areas",) in memo and ("if_flooded",) not in memo and ("both",) not in memo
    grid = next(iter(state.rt.grids.values()))
    assert len(grid) == 8 and {state.rt.faces[c].values["ground"].key for c in grid.values()} == {"grass"}
    assert all(len(layers) == 1 for layers in state.rt.layers.values())


def test_a_supposed_answer_is_kept_while_the_position_lasts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Asked twice in one position, an answer about a supposed layer is worked out once; once the
    grid changes, it is worked out again."""
    supposed: list[object] = []
    real = layers.supposing
    monkeypatch.setattr(layers, "supposing", lambda rt, spot: supposed.append(spot) or real(rt, spot))
    source = LAYERS.replace(
        'play:\n  log "nothing"\n',
        """value flood() = placement(world, shape(flood), 0, 0, 0)
value if_flooded() = as_if_laid(flood(), count(areas(world, ground)))

play:
  place shape(land) on world
  log "{if_flooded()} {if_flooded()}"
  place shape(land) on world at placement(world, shape(land), 1, 0, 0)
  log "{if_flooded()}"
""",
    )
    state = meeple.load(layers_game(tmp_path, source[: source.index("example")])).new_game(1)
    assert state.log[-2:] == ["1 1", "2"]
    assert len(supposed) == 2
