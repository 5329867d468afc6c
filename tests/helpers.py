"""What several property tests share: playing a game with random answers, checking as it goes."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from meeple import Game, State

Check = Callable[[State], None]


def play_random(
    game: Game,
    players: int,
    seed: int,
    rnd: random.Random,
    *,
    budget: int,
    max_decisions: int,
    check: Check | None = None,
) -> State:
    """A game answered at random; `check` runs at the start and after every decision. A game that
    does not end within `max_decisions` fails the test, naming how to reproduce it."""
    state = game.new_game(players, seed=seed, budget=budget)
    if check is not None:
        check(state)
    for _ in range(max_decisions):
        if state.is_over:
            return state
        assert state.decision is not None
        state.apply(rnd.randrange(len(state.decision.options)))
        if check is not None:
            check(state)
    pytest.fail(f"no end after {max_decisions} decisions ({game.name}, {players} players, seed {seed})")
