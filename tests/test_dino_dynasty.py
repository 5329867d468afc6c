"""Properties of Dino Dynasty (games/dino_dynasty.rules) that hold in every game, for every
Scenario size (A to E) and every player count (2 to 6), whatever the seed and the players choose.

The Map is checked from the tiles laid, never with the rules' own test: each tile laid during play
has a side where a quadrant matches the quadrant across it, as the rulebook says ("At least 1
General Biome on 1 side of the tile has to match at least 1 General Biome on an adjacent tile";
"Water on the tile being placed can match any Biome, but Water on tiles already on the board only
matches Water").
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any

import pytest
from helpers import assert_same_game, play_random, play_refusing_bad_answers
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import meeple
from meeple import State
from meeple.interpreter.examples import run_examples

SIZES = ["A", "B", "C", "D", "E"]
PLAYER_COUNTS = [2, 3, 4, 5, 6]
BUDGET = 5_000_000  # steps: a long game on the largest Map takes about a million
MAX_DECISIONS = 4_000
DINOS_PER_PLAYER = 16  # `piece dino: 16 per player`: the largest Dynasty's Dinos
TILES = 106  # 80 Territory, 16 Event, 6 Expanding Event and 4 Ocean tiles

seeds = st.integers(min_value=0, max_value=2**32 - 1)
answers = st.randoms(use_true_random=False)


@cache
def game(size: str) -> meeple.Game:
    return meeple.load("dino_dynasty", {"scenario": size})


Block = tuple[int, int]


def blocks(state: State) -> dict[Block, dict[tuple[int, int], Any]]:
    """The Map as tiles: each block (tile position) with the Biome row of each of its quadrants."""
    out: dict[Block, dict[tuple[int, int], Any]] = {}
    for grid in state.rt.grids.values():
        for (q, r), cell in grid.items():
            out.setdefault((q // 2, r // 2), {})[(q % 2, r % 2)] = state.rt.faces[cell].values["biome"]
    return out


# Across the side of a tile towards (dx, dy): the pairs (quadrant of the tile, quadrant of the
# neighbour) that touch.
TOUCHING = {
    (0, -1): [((0, 0), (0, 1)), ((1, 0), (1, 1))],
    (1, 0): [((1, 0), (0, 0)), ((1, 1), (0, 1))],
    (0, 1): [((0, 1), (0, 0)), ((1, 1), (1, 0))],
    (-1, 0): [((0, 0), (1, 0)), ((0, 1), (1, 1))],
}


def pair_matches(new: Any, old: Any) -> bool:
    if new.key == "water":
        return True
    return new is old and old.values["group"].key == "general"


class MapWatch:
    """Remembers the Map between decisions, and checks each tile laid since against the tiles
    that were there before it."""

    def __init__(self) -> None:
        self.before: dict[Block, dict[tuple[int, int], Any]] | None = None

    def __call__(self, state: State) -> None:
        now = blocks(state)
        side = state.rt.vars["played"]
        for x, y in now:
            assert 0 <= x < side.values["width"] and 0 <= y < side.values["height"], (
                f"tile outside at {x},{y}"
            )
            assert len(now[(x, y)]) == 4
        decision = state.decision
        if self.before is None:
            if decision is not None and decision.prompt == "Which Action?":
                self.before = now  # the Map as setup built it: setup ignores the placement rules
            return
        new = [b for b in now if b not in self.before]
        for x, y in new:
            pairs = [
                (now[(x, y)][mine], self.before[(x + dx, y + dy)][theirs])
                for (dx, dy), touching in TOUCHING.items()
                if (x + dx, y + dy) in self.before
                for mine, theirs in touching
            ]
            assert pairs, f"the tile at {x},{y} touches no tile"
            assert any(pair_matches(a, b) for a, b in pairs), f"the tile at {x},{y} matches no side"
        self.before = now


def conserved(state: State) -> None:
    """Each player's Dinos are all somewhere: reserve, supply or Map (pieces are never created)."""
    for player in state.rt.players:
        dinos = sum(
            1
            for pile in state.rt.locs.values()
            for kind, owner in pile
            if owner is player and kind.name == "dino"
        )
        nests = sum(
            1
            for pile in state.rt.locs.values()
            for kind, owner in pile
            if owner is player and kind.name == "nest"
        )
        assert (dinos, nests) == (DINOS_PER_PLAYER, 1)
    tiles = sum(1 for pile in state.rt.locs.values() for kind, _ in pile if kind.name == "map_tile")
    assert tiles == TILES


def checks() -> Any:
    watch = MapWatch()

    def check(state: State) -> None:
        conserved(state)
        watch(state)

    return check


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("players", PLAYER_COUNTS)
@settings(max_examples=1, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, rnd=answers)
def test_random_games_end_with_dinos_kept_and_every_tile_matching(
    size: str, players: int, seed: int, rnd: random.Random
) -> None:
    state = play_random(
        game(size), players, seed, rnd, budget=BUDGET, max_decisions=MAX_DECISIONS, check=checks()
    )
    assert state.is_over
    again = meeple.replay(game(size), players, seed, state.choices, budget=BUDGET)
    assert_same_game(again, state)


@pytest.mark.parametrize("size", ["A", "C"])
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from(PLAYER_COUNTS), seed=seeds, rnd=answers, data=st.data())
def test_every_refused_answer_leaves_the_game_as_it_was(
    size: str, players: int, seed: int, rnd: random.Random, data: st.DataObject
) -> None:
    state = game(size).new_game(players, seed=seed, budget=BUDGET)
    play_refusing_bad_answers(state, rnd, data, rate=0.05, max_decisions=MAX_DECISIONS)


def test_the_worked_examples_hold() -> None:
    results = run_examples(game("C"))
    assert results and all(not r.failures for r in results), [
        (r.name, r.failures) for r in results if r.failures
    ]
