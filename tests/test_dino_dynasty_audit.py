"""Dino Dynasty (games/dino_dynasty.rules): whole random games that an audit found broken, played
again with the same seeds and answers as `bench/bench.py` (the random answer is drawn from
`random.Random(seed)`), so that each stays a regression test of the rule it broke.

The positions themselves are `example` blocks of the rules file ("positions an audit found played
wrong"); these tests check whole games around them. (The game that ended with every pile showing an
Event on top, scenario D, 4 players, seed 2, no longer reaches that position: only its example
covers it.)
"""

from __future__ import annotations

import random
from functools import cache

import pytest

import meeple
from meeple import State

BUDGET = 5_000_000
MAX_DECISIONS = 4_000


@cache
def game(size: str) -> meeple.Game:
    return meeple.load("dino_dynasty", {"scenario": size})


def bench_game(size: str, players: int, seed: int) -> State:
    """The game `bench/bench.py --game dino_dynasty --option scenario=SIZE` plays for this seed."""
    state = game(size).new_game(players, seed=seed, budget=BUDGET, logging=False)
    rng = random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if state.is_over:
            return state
        assert state.decision is not None
        state.apply(rng.randrange(state.decision.size))
    pytest.fail(f"no end after {MAX_DECISIONS} decisions (scenario {size}, {players} players, seed {seed})")


@pytest.mark.parametrize("seed", [20, 22, 26, 31, 40])
def test_an_extinct_player_restarts_even_when_no_empty_biome_is_left(seed: int) -> None:
    """Rulebook: "The player gets to restart on their turn by placing their starting number of
    Dinos in any Empty Biome": on a Scenario A Map with 6 players these games have none left (each
    stops with "no option for 'Where does your Herd restart?'" without the rule for that case)."""
    assert bench_game("A", 6, seed).is_over
