"""What several property tests share: playing a game with random answers, checking as it goes,
taking a snapshot of a position, and comparing a replay with its original."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

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


def snapshot(state: State) -> tuple[Any, ...]:
    """Everything a refused answer must leave as it was."""
    decision = state.decision
    rt = state.rt
    return (
        list(state.choices),
        list(state.log),
        None if decision is None else (decision.player, decision.prompt, list(decision.options)),
        state.is_over,
        state.turns,
        {loc: list(pieces) for loc, pieces in rt.locs.items()},
        dict(rt.vars),
        {key: dict(store) for key, store in rt.owned.items()},
        rt.rng.getstate(),
    )


def assert_same_game(again: State, original: State) -> None:
    """A replay is the same game: it ends, with the same scores, winners, log, turns and choices."""
    assert again.is_over
    assert again.scores == original.scores
    assert again.winners == original.winners
    assert again.log == original.log
    assert again.turns == original.turns
    assert again.choices == original.choices
